//! Tabik's board as bit sets whose width follows the board: one `u64` word up to 8x8,
//! a 256-bit [`Bits`] beyond. The rules below are written once, over [`CellSet`]; a game
//! picks the width when it is created, so playouts never pay for words they do not use.

use rand::Rng;

use super::{Tabik, TabikMove};
use crate::rules::bitset::{Bits, CellSet};
use crate::rules::game::{Color, Game};
use crate::rules::playout::check_length;
use crate::rules::scoring::Tally;

/// A Tabik board: stones by colour and rods, as sets of one width, with the geometry
/// the rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sets<B> {
    pub k: usize,
    pub all: B,
    pub not_last_col: B,
    /// Stones by colour: [black, white].
    pub stones: [B; 2],
    /// Rods across east edges (index 0) and north edges (1), at the edge's first square.
    pub rods: [B; 2],
}

/// The legal moves other than `pass`, as sets of edges named by their first square,
/// east edges (index 0) and north edges (index 1): the one source of legality for the
/// move generator, the random draw and `Game::check`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choices<B = Bits> {
    /// Edges with both squares empty: two placements each (black on the first square,
    /// then black on the second).
    pub place: [B; 2],
    /// Edges without a rod between stones of different colours: a stone swap each.
    pub swap: [B; 2],
    /// Whether the pie `swap` is available.
    pub pie: bool,
}

/// A move other than `pass`, by square indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pick {
    /// A placement (black on `a`, white on `b`) or a stone swap (`a` the first square).
    Edge {
        a: usize,
        b: usize,
        place: bool,
    },
    Swap,
}

impl<B: CellSet> Choices<B> {
    /// How many moves there are, `pass` aside.
    #[inline]
    pub fn count(&self) -> usize {
        2 * (self.place[0].count() + self.place[1].count())
            + self.swap[0].count()
            + self.swap[1].count()
            + self.pie as usize
    }

    /// Move number `r` (below [`Choices::count`]) of the list the generator makes:
    /// placements on east then north edges, two per edge, stone swaps on east then
    /// north edges, then the pie swap. `k` is the board side.
    #[inline(always)]
    pub fn nth(&self, mut r: usize, k: usize) -> Pick {
        for dir in 0..2 {
            let n = 2 * self.place[dir].count();
            if r < n {
                let first = self.place[dir].select(r / 2);
                let second = first + across(dir, k);
                // Black on the first square, then black on the second.
                let (a, b) = if r % 2 == 0 {
                    (first, second)
                } else {
                    (second, first)
                };
                return Pick::Edge { a, b, place: true };
            }
            r -= n;
        }
        for dir in 0..2 {
            let n = self.swap[dir].count();
            if r < n {
                let a = self.swap[dir].select(r);
                let b = a + across(dir, k);
                return Pick::Edge { a, b, place: false };
            }
            r -= n;
        }
        debug_assert!(self.pie && r == 0);
        Pick::Swap
    }

    pub fn to_bits(self) -> Choices<Bits> {
        Choices {
            place: self.place.map(CellSet::to_bits),
            swap: self.swap.map(CellSet::to_bits),
            pie: self.pie,
        }
    }
}

/// The step from an edge's first square to its second, east (`dir` 0) or north (1).
#[inline]
pub(super) fn across(dir: usize, k: usize) -> usize {
    if dir == 0 {
        1
    } else {
        k
    }
}

impl<B: CellSet> Sets<B> {
    pub fn new(k: usize) -> Sets<B> {
        let all = B::below(k * k);
        let last_col = (0..k).fold(B::EMPTY, |set, r| set | B::single(r * k + k - 1));
        Sets {
            k,
            all,
            not_last_col: all & !last_col,
            stones: [B::EMPTY; 2],
            rods: [B::EMPTY; 2],
        }
    }

    /// The board cleared.
    pub fn clear(&mut self) {
        self.stones = [B::EMPTY; 2];
        self.rods = [B::EMPTY; 2];
    }

    #[inline]
    pub fn empty(&self) -> B {
        self.all & !(self.stones[0] | self.stones[1])
    }

    /// The moves other than `pass`, with the pie swap as given.
    #[inline]
    pub fn choices(&self, pie: bool) -> Choices<B> {
        let (k, [b, w]) = (self.k, self.stones);
        let empty = self.empty();
        let differ_east = ((b & (w >> 1)) | (w & (b >> 1))) & self.not_last_col;
        let differ_north = (b & (w >> k)) | (w & (b >> k));
        Choices {
            place: [
                empty & (empty >> 1) & self.not_last_col,
                empty & (empty >> k),
            ],
            swap: [differ_east & !self.rods[0], differ_north & !self.rods[1]],
            pie,
        }
    }

    /// Plays (or, again, takes back) a move across the edge between squares `a` and
    /// `b`: black on `a` and white on `b`, and for a stone swap also white on `a` and
    /// black on `b` (both squares change colour); the edge's rod toggles. Returns the
    /// edge's direction (0 east, 1 north). Nothing here branches on the kind of move,
    /// which is random in playouts.
    #[inline]
    pub fn toggle(&mut self, a: usize, b: usize, stone_swap: bool) -> usize {
        let (first, second) = (a.min(b), a.max(b));
        let dir = (second - first != 1) as usize;
        let (a, b) = (B::single(a), B::single(b));
        let both = if stone_swap { a | b } else { B::EMPTY };
        self.stones[0] = self.stones[0] ^ (a | both);
        self.stones[1] = self.stones[1] ^ (b | both);
        self.rods[dir] = self.rods[dir] ^ B::single(first);
        dir
    }

    /// Plays uniform random moves, appending them to `history`, until two passes in a
    /// row (`passes` of them end the history so far); the pie swap is available when
    /// the history is `pie_at` moves long. The same draws and moves as [`Sets::choices`]
    /// and [`Choices::nth`] move by move, with the board in locals for the whole game
    /// ([`Walk`]). Returns the number of passes and of pie swaps played.
    #[inline(always)]
    pub fn play_randomly<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        history: &mut Vec<TabikMove>,
        pie_at: usize,
        passes: usize,
        limit: usize,
    ) -> (u32, u32) {
        let (k, inner) = (self.k, self.not_last_col);
        let [black, white] = self.stones;
        let mut walk = Walk {
            k,
            inner,
            below_top: self.all >> k,
            occupied: black | white,
            black,
            blocked_east: self.rods[0] | (self.all & !inner),
            north: self.rods[1],
            passes,
            pass_count: 0,
            swaps: 0,
            limit,
        };
        // The moves up to the pie swap's turn, then the rest, which are spared the test.
        let pie_end = pie_at.wrapping_add(1);
        while walk.passes < 2 && history.len() < pie_end {
            walk.step::<true, R>(rng, history, pie_at);
        }
        while walk.passes < 2 {
            walk.step::<false, R>(rng, history, pie_at);
        }
        self.stones = [walk.black, walk.occupied & !walk.black];
        self.rods = [walk.blocked_east & inner, walk.north];
        (walk.pass_count, walk.swaps)
    }

    /// The squares next to (orthogonally) a square of `set`.
    #[inline]
    fn spread(&self, set: B) -> B {
        let (k, inner) = (self.k, self.not_last_col);
        ((set & inner) << 1) | ((set >> 1) & inner) | (set << k) | (set >> k)
    }

    /// The cells reachable from `seed` through orthogonal neighbours in `within`.
    #[inline]
    fn flood(&self, seed: B, within: B) -> B {
        let mut group = seed;
        loop {
            let grown = (group | self.spread(group)) & within;
            if grown == group {
                return group;
            }
            group = grown;
        }
    }

    /// Visits each colour's stone groups, by colour, then by first square.
    pub fn for_each_group(&self, mut visit: impl FnMut(Color, B)) {
        for color in Color::BOTH {
            let stones = self.stones[color.index()];
            let mut left = stones;
            while left != B::EMPTY {
                let group = self.flood(left.lowest(), stones);
                left = left & !group;
                visit(color, group);
            }
        }
    }

    /// Per colour, the largest group size it holds, or 0; `MAX` exceeds every size.
    #[inline(always)]
    pub fn held<const MAX: usize>(&self) -> [u32; 2] {
        let mut tally = Tally::<MAX>::new();
        for color in Color::BOTH {
            let stones = self.stones[color.index()];
            // Stones without a neighbour of their colour, the groups of one, at once.
            let alone = stones & !self.spread(stones);
            tally.add_many(color, 1, alone.count());
            let mut left = stones & !alone;
            while left != B::EMPTY {
                let group = self.flood(left.lowest(), stones);
                left = left & !group;
                tally.add(color, group.count());
            }
        }
        tally.held()
    }
}

/// A board of [`Sets::play_randomly`], in locals for the whole game: the occupied squares
/// and the black stones, and the rods with the last column (east edges that no stone
/// swap crosses); with the passes in a row, the passes and pie swaps played.
struct Walk<B> {
    k: usize,
    inner: B,
    /// The squares with a north edge: all but the top row's.
    below_top: B,
    occupied: B,
    black: B,
    blocked_east: B,
    north: B,
    passes: usize,
    pass_count: u32,
    swaps: u32,
    limit: usize,
}

impl<B: CellSet> Walk<B> {
    /// Plays one move (the pie swap is available if `PIE` and the history is `pie_at`
    /// moves long).
    #[inline(always)]
    fn step<const PIE: bool, R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        history: &mut Vec<TabikMove>,
        pie_at: usize,
    ) {
        let (k, occupied, black) = (self.k, self.occupied, self.black);
        check_length(history.len(), self.limit, Tabik::NAME);
        // Both squares empty: no stone on either (squares off the board are masked).
        let place_east = !(occupied | (occupied >> 1)) & self.inner;
        let place_north = !(occupied | (occupied >> k)) & self.below_top;
        // Both squares taken by stones of different colours, no rod between.
        let swap_east = occupied & (occupied >> 1) & (black ^ (black >> 1)) & !self.blocked_east;
        let swap_north = occupied & (occupied >> k) & (black ^ (black >> k)) & !self.north;
        let (place_east_count, swap_east_count) = (place_east.count(), swap_east.count());
        let places = 2 * (place_east_count + place_north.count());
        let moves = places + swap_east_count + swap_north.count();
        let total = moves + (PIE && history.len() == pie_at) as usize;
        if total == 0 {
            history.push(TabikMove::Pass);
            self.passes += 1;
            self.pass_count += 1;
            return;
        }
        self.passes = 0;
        let r = crate::rules::uniform::below(rng, total);
        if PIE && r == moves {
            history.push(TabikMove::Swap);
            self.swaps += 1;
            return;
        }
        // Placements on east then north edges, two per edge, then stone swaps on east
        // then north edges: edge `index` of `east` then `north`.
        let placing = r < places;
        let (index, east, north, east_count) = if placing {
            (r / 2, place_east, place_north, place_east_count)
        } else {
            (r - places, swap_east, swap_north, swap_east_count)
        };
        let up = index >= east_count;
        let first = if up {
            north.select(index - east_count)
        } else {
            east.select(index)
        };
        let second = first + if up { k } else { 1 };
        let (one, other) = (B::single(first), B::single(second));
        if up {
            self.north = self.north ^ one;
        } else {
            self.blocked_east = self.blocked_east ^ one;
        }
        self.occupied = occupied | one | other;
        // Black on the first square, then black on the second; a stone swap turns both
        // squares (of different colours) to the other colour.
        let mv = if placing {
            let (a, b) = if r % 2 == 0 { (first, second) } else { (second, first) };
            self.black = black ^ B::single(a);
            TabikMove::Place {
                black: a as u8,
                white: b as u8,
            }
        } else {
            self.black = black ^ one ^ other;
            TabikMove::StoneSwap {
                first: first as u8,
                second: second as u8,
            }
        };
        history.push(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_agree() {
        for k in [2, 5, 8] {
            let (small, large) = (Sets::<u64>::new(k), Sets::<Bits>::new(k));
            assert_eq!(small.all.to_bits(), large.all);
            assert_eq!(small.not_last_col.to_bits(), large.not_last_col);
        }
    }
}
