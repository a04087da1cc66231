//! Nume: stones with numbers written on the first stone of every group; the lower sum of
//! group prices (plus komi) wins once the board is full.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use rand::{Rng, RngExt};

use crate::rules::bitset::{Bits, CellSet, Selector};
use crate::rules::board::{Board, Cell};
use crate::rules::coords::Coord;
use crate::rules::error::{Excerpt, IllegalMove, InvalidMove};
use crate::rules::game::{
    BySeat, Color, ConfigError, Game, GroupInfo, GroupValue, InvalidMoveOf, MoveErrorOf, Seat,
};
use crate::rules::playout::{check_length, PlayoutResult};
use crate::rules::zobrist;

/// Board keys: colour c on cell i at `c * 256 + i`, mixed with the stone's number.
static KEYS: [u64; 512] = zobrist::table(0x6e75_6d65);

mod error;
mod observe;
mod params;
mod position;
mod symmetry;

pub use error::{NumeIllegal, NumeInvalid};

/// The game's public types, re-exported at the crate root.
pub mod exports {
    pub use super::{Nume, NumeConfig, NumeMove, NumeIllegal, NumeInvalid};
}

/// Largest number a stone may carry: 2^31 - 1.
pub const MAX_NUMBER: u32 = i32::MAX as u32;
/// Largest k of a komi k + 0.5 given as a parameter.
pub const MAX_KOMI: u64 = 1 << 31;
pub const MAX_N: usize = 8;
pub const MAX_SQUARE: usize = 16;

/// Parameters of a Nume game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumeConfig {
    /// Hex board parameter n (sides n and n + 2), 1 to 8; unused with `square`.
    pub n: usize,
    /// A k x k square board (k from 2 to 16) instead of the hex board.
    pub square: Option<usize>,
    /// Komi k + 0.5, given as k; `None`: no komi (equal scores draw).
    pub komi: Option<u64>,
    /// The colour that receives the komi.
    pub komi_to: Color,
    /// Seat 0 chooses the komi and seat 1 its colour before the first stone.
    pub komi_phase: bool,
}

/// A Nume action; cells are cell indices ([`Game::move_text`] names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumeMove {
    /// A stone of the mover's colour; `number` exactly when it starts a new group.
    Place { cell: Cell, number: Option<u32> },
    /// Komi phase, seat 0: komi `k + 0.5` to `to`.
    Komi { k: u64, to: Color },
    /// Komi phase, seat 1: the colour seat 1 will play.
    Side(Color),
}

const COLOR_NAMES: [&str; 2] = ["black", "white"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    ChooseKomi,
    ChooseSide,
    Stones,
}

const NO_NUMBER: u32 = u32::MAX;

/// The price of a group of `size` stones whose numbers run from `low` to `high`:
/// |w - size| is largest at an extreme number w.
#[inline]
fn price(size: u64, low: u32, high: u32) -> u64 {
    let size = size as i64;
    (high as i64 - size)
        .unsigned_abs()
        .max((size - low as i64).unsigned_abs())
}

/// The stone groups as a union-find forest, kept up to date on every placement and undo.
///
/// There is no path compression (union by size keeps trees shallow), so a placement is
/// undone exactly by detaching the roots it merged and restoring the new root's record.
/// Each root keeps its group's size and smallest and largest number, which fix the
/// price: |w - size| is largest at an extreme w. The price sums per colour follow along.
#[derive(Debug)]
struct GroupForest {
    parent: [u8; 256],
    size: [u16; 256],
    low: [u32; 256],
    high: [u32; 256],
    price_sums: [u64; 2],
    log: Vec<Merge>,
}

/// `clone_from` reuses the log's allocation.
impl Clone for GroupForest {
    fn clone(&self) -> GroupForest {
        GroupForest {
            log: self.log.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &GroupForest) {
        // Every field named, so that a new one cannot be left out.
        let GroupForest {
            parent,
            size,
            low,
            high,
            price_sums,
            log,
        } = source;
        (self.parent, self.size, self.low, self.high) = (*parent, *size, *low, *high);
        self.price_sums = *price_sums;
        self.log.clone_from(log);
    }
}

/// What a placement changed in the forest.
#[derive(Clone, Copy, Debug)]
struct Merge {
    color: usize,
    root: u8,
    /// The root's (size, low, high) before; unused when the stone started a group.
    before: (u16, u32, u32),
    /// Former roots now under `root`.
    children: [u8; 6],
    n_children: u8,
    price_sum: u64,
}

impl GroupForest {
    fn new() -> GroupForest {
        GroupForest {
            parent: [0; 256],
            size: [0; 256],
            low: [0; 256],
            high: [0; 256],
            price_sums: [0; 2],
            log: Vec::with_capacity(256),
        }
    }

    fn clear(&mut self) {
        self.price_sums = [0; 2];
        self.log.clear();
    }

    #[inline]
    fn find(&self, mut cell: usize) -> usize {
        while self.parent[cell] as usize != cell {
            cell = self.parent[cell] as usize;
        }
        cell
    }

    #[inline]
    fn price(&self, root: usize) -> u64 {
        price(self.size[root].into(), self.low[root], self.high[root])
    }

    /// Adds a stone of `color` on `cell`, next to the same-coloured stones `friends`.
    #[inline]
    fn place<S: CellSet>(&mut self, cell: usize, color: usize, number: Option<u32>, friends: S) {
        let mut roots = [0u8; 6];
        let mut n = 0;
        let mut friends = friends;
        while !friends.is_empty() {
            let r = self.find(friends.pop_first()) as u8;
            if !roots[..n].contains(&r) {
                roots[n] = r;
                n += 1;
            }
        }
        let price_sum = self.price_sums[color];
        let (w_low, w_high) = number.map_or((u32::MAX, 0), |w| (w, w));
        if n == 0 {
            self.parent[cell] = cell as u8;
            (self.size[cell], self.low[cell], self.high[cell]) = (1, w_low, w_high);
            self.price_sums[color] += self.price(cell);
            let before = (0, 0, 0);
            self.log.push(Merge {
                color,
                root: cell as u8,
                before,
                children: [0; 6],
                n_children: 0,
                price_sum,
            });
            return;
        }
        let root = *roots[..n]
            .iter()
            .max_by_key(|&&r| self.size[r as usize])
            .unwrap() as usize;
        let before = (self.size[root], self.low[root], self.high[root]);
        let (mut size, mut low, mut high) = (1u16, w_low, w_high);
        let mut children = [0u8; 6];
        let mut n_children = 0;
        for &r in &roots[..n] {
            let r = r as usize;
            self.price_sums[color] -= self.price(r);
            size += self.size[r];
            low = low.min(self.low[r]);
            high = high.max(self.high[r]);
            if r != root {
                self.parent[r] = root as u8;
                children[n_children] = r as u8;
                n_children += 1;
            }
        }
        self.parent[cell] = root as u8;
        (self.size[root], self.low[root], self.high[root]) = (size, low, high);
        self.price_sums[color] += self.price(root);
        self.log.push(Merge {
            color,
            root: root as u8,
            before,
            children,
            n_children: n_children as u8,
            price_sum,
        });
    }

    /// Takes back the last placement.
    fn undo(&mut self) {
        let Merge {
            color,
            root,
            before,
            children,
            n_children,
            price_sum,
        } = self.log.pop().expect("a placement to undo");
        for &child in &children[..n_children as usize] {
            self.parent[child as usize] = child;
        }
        if before.0 > 0 {
            (
                self.size[root as usize],
                self.low[root as usize],
                self.high[root as usize],
            ) = before;
        }
        self.price_sums[color] = price_sum;
    }
}

/// Adds to `groups` the stones of `placed` (the last placements, which a random playout
/// left out of the forest), in the order they were placed, as [`Nume::place`] would
/// have; `stones` is the board after them, which also tells each stone's colour.
fn add_left_out(groups: &mut GroupForest, board: &Board, stones: &[Bits; 2], placed: &[NumeMove]) {
    let cell_of = |mv: &NumeMove| match *mv {
        NumeMove::Place { cell, number } => (usize::from(cell), number),
        _ => unreachable!("a playout leaves out placements only"),
    };
    // The stones before those placements, then each placement in turn.
    let mut before = *stones;
    for (cell, _) in placed.iter().map(cell_of) {
        before[0].remove(cell);
        before[1].remove(cell);
    }
    for (cell, number) in placed.iter().map(cell_of) {
        let color = usize::from(!stones[0].contains(cell));
        groups.place(cell, color, number, board.neighbours(cell) & before[color]);
        before[color].insert(cell);
    }
}

/// A Nume position with its history.
#[derive(Debug)]
pub struct Nume {
    board: Arc<Board>,
    /// At most 64 cells: the hot paths compute on the first word of each set alone.
    narrow: bool,
    config: NumeConfig,
    stones: [Bits; 2],
    /// Cells next to a stone of each colour (a stone placed there joins a group).
    adjacent: [Bits; 2],
    numbers: [u32; 256],
    /// The stone groups, but for the last `groups_behind` placements: a random playout
    /// leaves the forest alone (nothing reads it meanwhile), and it is brought up to
    /// date when next needed ([`Nume::catch_up_groups`], [`Nume::groups_now`]). Boxed:
    /// its 2.8 KB would otherwise be copied at every move of a `Nume` by value (a new
    /// state from Python took 3 us, most of it such copies).
    groups: Box<GroupForest>,
    groups_behind: usize,
    komi: Option<(u64, Color)>,
    black_seat: Seat,
    phase: Phase,
    /// The position this game was set up from, when not the start position.
    setup: Option<Arc<Nume>>,
    history: Vec<NumeMove>,
    /// XOR of the keys of the stones (with their numbers) on the board; `None` after a
    /// random playout, which skips the updates (it is recomputed when next needed).
    board_key: Option<u64>,
}

/// `clone_from` reuses the allocations of the history and the group forest's log
/// (searches copy their root back after every iteration).
impl Clone for Nume {
    fn clone(&self) -> Nume {
        Nume {
            board: self.board.clone(),
            groups: self.groups.clone(),
            setup: self.setup.clone(),
            history: self.history.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Nume) {
        // Every field named, so that a new one cannot be left out.
        let Nume {
            board,
            narrow,
            config,
            stones,
            adjacent,
            numbers,
            groups,
            groups_behind,
            komi,
            black_seat,
            phase,
            setup,
            history,
            board_key,
        } = source;
        crate::rules::game::share_from(&mut self.board, board);
        (self.narrow, self.config, self.stones, self.adjacent) =
            (*narrow, *config, *stones, *adjacent);
        self.numbers = *numbers;
        self.groups.clone_from(groups);
        (self.groups_behind, self.komi, self.black_seat, self.phase) =
            (*groups_behind, *komi, *black_seat, *phase);
        crate::rules::game::share_option_from(&mut self.setup, setup);
        self.history.clone_from(history);
        self.board_key = *board_key;
    }
}

impl PartialEq for Nume {
    fn eq(&self, other: &Nume) -> bool {
        self.config == other.config
            && self.history == other.history
            && crate::rules::position::same_setup(&self.setup, &other.setup, Nume::write_position)
    }
}

impl Nume {
    /// A new game at the start position.
    pub fn new(config: NumeConfig) -> Result<Nume, ConfigError> {
        crate::rules::params::Config::check(&config)?;
        let board = match config.square {
            Some(k) => Board::square_shared(k),
            None => {
                let n = config.n as i32;
                Board::shared(("nume-hex", config.n), || {
                    Board::hex(
                        0..=2 * n,
                        |q, r| (0..=2 * n).contains(&(3 * n - 1 - q - r)),
                        (0, 0),
                    )
                })
            }
        };
        let mut game = Nume {
            narrow: board.len() <= 64,
            board,
            config,
            stones: [Bits::EMPTY; 2],
            adjacent: [Bits::EMPTY; 2],
            numbers: [NO_NUMBER; 256],
            groups: Box::new(GroupForest::new()),
            groups_behind: 0,
            komi: None,
            black_seat: Seat::First,
            phase: Phase::Stones,
            setup: None,
            history: Vec::new(),
            board_key: Some(0),
        };
        game.reset();
        Ok(game)
    }

    pub fn config(&self) -> NumeConfig {
        self.config
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The komi in force (k of k + 0.5, and its recipient), if any.
    pub fn komi(&self) -> Option<(u64, Color)> {
        self.komi
    }

    /// The stone on a cell: its colour and number.
    pub fn stone_at(&self, cell: usize) -> Option<(Color, Option<u32>)> {
        let color = Color::BOTH
            .into_iter()
            .find(|c| self.stones[c.index()].contains(cell))?;
        let number = self.numbers[cell];
        Some((color, (number != NO_NUMBER).then_some(number)))
    }

    /// The key of a stone of `color` on `cell` carrying `number` (`NO_NUMBER`: none).
    fn stone_key(color: usize, cell: usize, number: u32) -> u64 {
        zobrist::mix(KEYS[color * 256 + cell] ^ (number as u64 + 1))
    }

    /// The key of the komi-phase state: the phase, the komi in force and the colours.
    fn phase_key(&self) -> u64 {
        let phase = self.phase as u64;
        let komi = self
            .komi
            .map_or(0, |(k, to)| (k << 1 | to.index() as u64) + 1);
        zobrist::mix(0x6b6f_6d69 ^ (phase | (self.black_seat.index() as u64) << 2 | komi << 3))
    }

    /// Recomputes the incremental part of the key, for code that sets up a position
    /// directly instead of playing moves to it.
    #[allow(dead_code)]
    pub(crate) fn rebuild_key(&mut self) {
        self.board_key = Some(self.board_key_from_scratch());
    }

    /// The position key recomputed from the board and the komi-phase state.
    pub fn compute_key(&self) -> u64 {
        self.board_key_from_scratch() ^ self.phase_key()
    }

    /// The XOR of the keys of the stones on the board, recomputed.
    fn board_key_from_scratch(&self) -> u64 {
        let mut key = 0;
        for color in 0..2 {
            for cell in self.stones[color] {
                key ^= Self::stone_key(color, cell, self.numbers[cell]);
            }
        }
        key
    }

    /// The XOR of the keys of the stones on the board (kept, or recomputed after a
    /// random playout).
    pub(crate) fn board_key(&self) -> u64 {
        self.board_key
            .unwrap_or_else(|| self.board_key_from_scratch())
    }

    /// The stones by colour and the number on each cell (`u32::MAX`: none), for the
    /// solver's symmetric keys.
    pub(crate) fn stones_and_numbers(&self) -> (&[Bits; 2], &[u32; 256]) {
        (&self.stones, &self.numbers)
    }

    fn n_cells(&self) -> usize {
        self.board.len()
    }

    fn empty(&self) -> Bits {
        self.board.all() & !(self.stones[0] | self.stones[1])
    }

    /// The colour whose stone comes next (Black first, then alternately).
    fn color_to_place(&self) -> Color {
        if (self.stones[0].count() + self.stones[1].count()) % 2 == 0 {
            Color::First
        } else {
            Color::Second
        }
    }

    fn seat_of(&self, color: Color) -> Seat {
        if color == Color::First {
            self.black_seat
        } else {
            self.black_seat.other()
        }
    }

    /// Empty cells where the next stone joins a group, and where it starts one.
    fn placements(&self) -> (Bits, Bits) {
        self.placements_as::<Bits>()
    }

    /// [`Nume::placements`] on sets of type `S`.
    #[inline]
    fn placements_as<S: CellSet>(&self) -> (S, S) {
        let [black, white] = [S::from_bits(&self.stones[0]), S::from_bits(&self.stones[1])];
        let empty = S::from_bits(&self.board.all()) & !(black | white);
        let joining = empty & S::from_bits(&self.adjacent[(black.count() + white.count()) % 2]);
        (joining, empty & !joining)
    }

    fn komi_base(&self) -> usize {
        self.n_cells() * (self.n_cells() + 2)
    }

    fn side_base(&self) -> usize {
        self.komi_base() + 2 * (self.n_cells() + 1)
    }

    /// Each group's colour, cells and price.
    fn group_prices(&self) -> Vec<(Color, Bits, u64)> {
        let forest = self.groups_now();
        let mut groups = Vec::new();
        for color in Color::BOTH {
            self.board.components(self.stones[color.index()], |group| {
                let root = forest.find(group.first().expect("groups are not empty"));
                groups.push((color, group, forest.price(root)))
            });
        }
        groups.sort_by_key(|(_, group, _)| group.first());
        groups
    }

    /// [`Game::random_move`] in the stone phase, on sets of type `S`: uniform over the
    /// legal placements in action order (joining cells, then each starting cell with
    /// every number from 0 to the number of cells).
    #[inline(always)]
    fn random_placement<S: CellSet, R: Rng + ?Sized>(&self, rng: &mut R) -> Option<NumeMove> {
        let n = self.n_cells();
        let (joining, starting) = self.placements_as::<S>();
        let plain = joining.count();
        let total = plain + (n + 1) * starting.count();
        if total == 0 {
            return None;
        }
        let r = crate::rules::uniform::below(rng, total);
        Some(if r < plain {
            NumeMove::Place {
                cell: joining.select(r) as Cell,
                number: None,
            }
        } else {
            let r = r - plain;
            NumeMove::Place {
                cell: starting.select(r / (n + 1)) as Cell,
                number: Some((r % (n + 1)) as u32),
            }
        })
    }

    /// Places the next stone on `cell` (the stone-phase part of [`Game::play_unchecked`]),
    /// on sets of type `S`, adding it to the group forest. Returns the
    /// change of the board key (callers that do not keep it skip computing it).
    #[inline]
    fn place<S: CellSet>(&mut self, cell: Cell, number: Option<u32>) -> u64 {
        let i = usize::from(cell);
        let [black, white] = [S::from_bits(&self.stones[0]), S::from_bits(&self.stones[1])];
        let color = (black.count() + white.count()) % 2;
        let neighbours = S::from_bits(&self.board.neighbours(i));
        let mut own = [black, white][color];
        self.groups.place(i, color, number, neighbours & own);
        own.insert(i);
        own.store(&mut self.stones[color]);
        (S::from_bits(&self.adjacent[color]) | neighbours).store(&mut self.adjacent[color]);
        let w = number.unwrap_or(NO_NUMBER);
        self.numbers[i] = w;
        Self::stone_key(color, i, w)
    }

    /// The stone phase of [`Game::random_playout`], on sets of type `S`: the moves of
    /// the default loop ([`Nume::random_placement`], [`Nume::place`]), with the stones
    /// and the cells next to them in locals for the whole game, by colour to move, and
    /// without the key and group forest updates (see `groups_behind`).
    #[inline(always)]
    fn place_randomly<S: CellSet, R: Rng + ?Sized>(&mut self, rng: &mut R, limit: usize) {
        let n = self.n_cells();
        let all = S::from_bits(&self.board.all());
        let [black, white] = self.stones.each_ref().map(S::from_bits);
        let [black_next, white_next] = self.adjacent.each_ref().map(S::from_bits);
        // The stones and neighbours of the colour to place, then of the other.
        let black_to_place = (black.count() + white.count()) % 2 == 0;
        let (mut own, mut other, mut own_next, mut other_next) = if black_to_place {
            (black, white, black_next, white_next)
        } else {
            (white, black, white_next, black_next)
        };
        let Nume {
            board,
            numbers,
            history,
            ..
        } = self;
        let (neighbours, selector) = (board.neighbour_sets(), Selector::current());
        let before = history.len();
        loop {
            let empty = all & !(own | other);
            let joining = empty & own_next;
            let starting = empty ^ joining;
            let plain = joining.count();
            let total = plain + (n + 1) * starting.count();
            if total == 0 {
                break;
            }
            check_length(history.len(), limit, Self::NAME);
            let r = crate::rules::uniform::below(rng, total);
            let (cell, number) = if r < plain {
                (joining.select_by(selector, r), None)
            } else {
                let r = r - plain;
                (starting.select_by(selector, r / (n + 1)), Some((r % (n + 1)) as u32))
            };
            own.insert(cell);
            own_next = own_next | S::from_bits(&neighbours[cell]);
            // Cells are below 256 (the mask spares a bounds check).
            numbers[cell & 255] = number.unwrap_or(NO_NUMBER);
            history.push(NumeMove::Place {
                cell: cell as Cell,
                number,
            });
            (own, other, own_next, other_next) = (other, own, other_next, own_next);
        }
        if black_to_place == ((history.len() - before) % 2 == 0) {
            (own, other, own_next, other_next) = (other, own, other_next, own_next);
        }
        // `own` is White's now.
        other.store(&mut self.stones[0]);
        own.store(&mut self.stones[1]);
        other_next.store(&mut self.adjacent[0]);
        own_next.store(&mut self.adjacent[1]);
    }

    /// Brings the group forest up to date: adds the stones a random playout left out of
    /// it (see [`add_left_out`]).
    fn catch_up_groups(&mut self) {
        if self.groups_behind > 0 {
            let placed = &self.history[self.history.len() - self.groups_behind..];
            add_left_out(&mut self.groups, &self.board, &self.stones, placed);
            self.groups_behind = 0;
        }
    }

    /// The group forest up to date: a copy brought up to date if a random playout left
    /// stones out of it.
    fn groups_now(&self) -> Cow<'_, GroupForest> {
        if self.groups_behind == 0 {
            return Cow::Borrowed(&self.groups);
        }
        let mut groups = GroupForest::clone(&self.groups);
        let placed = &self.history[self.history.len() - self.groups_behind..];
        add_left_out(&mut groups, &self.board, &self.stones, placed);
        Cow::Owned(groups)
    }

    /// The sum of the group prices of each colour; from the board itself when a random
    /// playout left stones out of the group forest.
    #[inline(always)]
    fn price_sums(&self) -> [u64; 2] {
        match self.groups_behind {
            0 => self.groups.price_sums,
            _ if self.narrow => self.price_sums_from_board::<u64>(),
            _ => self.price_sums_from_board::<Bits>(),
        }
    }

    /// [`Nume::price_sums`] from the board's groups (flooded through the neighbour table)
    /// and numbers, on sets of type `S`.
    fn price_sums_from_board<S: CellSet>(&self) -> [u64; 2] {
        let neighbours = self.board.neighbour_sets();
        let mut sums = [0; 2];
        for (color, sum) in sums.iter_mut().enumerate() {
            // The stones not in a group counted yet.
            let mut left = S::from_bits(&self.stones[color]);
            while !left.is_empty() {
                // One group: its cells, each visited once, from the first one left. Every
                // group has a number (its first stone's); `high` is one above the largest,
                // so that the lack of one (`NO_NUMBER`) wraps to 0.
                let mut frontier = left.lowest();
                left = left ^ frontier;
                let (mut size, mut low, mut high) = (0, u32::MAX, 0);
                while !frontier.is_empty() {
                    let cell = frontier.pop_first();
                    let fresh = S::from_bits(&neighbours[cell]) & left;
                    (left, frontier) = (left ^ fresh, frontier | fresh);
                    let w = self.numbers[cell];
                    (low, high) = (low.min(w), high.max(w.wrapping_add(1)));
                    size += 1;
                }
                *sum += price(size, low, high.saturating_sub(1));
            }
        }
        sums
    }

    fn recompute_adjacent(&mut self, color: Color) {
        self.adjacent[color.index()] = self.stones[color.index()]
            .iter()
            .fold(Bits::EMPTY, |acc, c| acc | self.board.neighbours(c));
    }

    /// A stone's number written plainly (no sign, no leading zero), up to [`MAX_NUMBER`].
    fn parse_number(text: &str, whole: &str) -> Result<u32, NumeInvalid> {
        match plain_number(text) {
            None => Err(NumeInvalid::Number(Excerpt::new(whole))),
            Some(w) if w <= MAX_NUMBER as u64 => Ok(w as u32),
            Some(_) => Err(NumeInvalid::NumberTooLarge(Excerpt::new(whole))),
        }
    }

    fn parse_color(text: &str, whole: &str) -> Result<Color, NumeInvalid> {
        match text {
            "black" => Ok(Color::First),
            "white" => Ok(Color::Second),
            _ => Err(NumeInvalid::ColorWord(Excerpt::new(whole))),
        }
    }

    /// Why a move value is not a move of this game with these parameters, if it is not.
    fn validate(&self, mv: NumeMove) -> Result<(), InvalidMoveOf<Self>> {
        match mv {
            NumeMove::Place { cell, number } => {
                self.board.check_cell(cell).map_err(InvalidMove::widen)?;
                if number.is_some_and(|w| w > MAX_NUMBER) {
                    let text = self.move_text(mv).to_string();
                    return Err(NumeInvalid::NumberTooLarge(Excerpt::new(&text)).into());
                }
                Ok(())
            }
            NumeMove::Komi { k, .. } if k > self.n_cells() as u64 => {
                Err(NumeInvalid::KomiTooLarge {
                    text: Excerpt::new(&self.move_text(mv).to_string()),
                    max: self.n_cells(),
                }
                .into())
            }
            NumeMove::Komi { .. } | NumeMove::Side(_) => Ok(()),
        }
    }
}

/// The value of a whole number written plainly (digits, no leading zero), saturating at
/// `u64::MAX`; `None` if it is not written so.
fn plain_number(text: &str) -> Option<u64> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text.len() == 1 || !text.starts_with('0'));
    plain.then(|| text.parse::<u64>().unwrap_or(u64::MAX))
}

/// Nume meets the contract of a game (its pieces: `impl Game` here, `params.rs`,
/// `observe.rs`, `symmetry.rs`).
impl crate::Contract for Nume {}

impl Game for Nume {
    type Move = NumeMove;
    type Score = f64;
    type Invalid = NumeInvalid;
    type Illegal = NumeIllegal;
    const NAME: &'static str = "nume";
    const COLOR_NAMES: [&'static str; 2] = COLOR_NAMES;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::ChooseKomi => Some(Seat::First),
            Phase::ChooseSide => Some(Seat::Second),
            Phase::Stones if self.empty().is_empty() => None,
            Phase::Stones => Some(self.seat_of(self.color_to_place())),
        }
    }

    fn color_of(&self, seat: Seat) -> Color {
        if seat == self.black_seat {
            Color::First
        } else {
            Color::Second
        }
    }

    fn legal_moves_into(&self, out: &mut Vec<NumeMove>) {
        match self.phase {
            Phase::ChooseKomi => {
                for k in 0..=self.n_cells() as u64 {
                    out.extend(Color::BOTH.map(|to| NumeMove::Komi { k, to }));
                }
            }
            Phase::ChooseSide => out.extend(Color::BOTH.map(NumeMove::Side)),
            Phase::Stones => {
                let (joining, starting) = self.placements();
                out.extend(joining.iter().map(|c| NumeMove::Place {
                    cell: c as Cell,
                    number: None,
                }));
                for c in starting {
                    out.extend((0..=self.n_cells() as u32).map(|w| NumeMove::Place {
                        cell: c as Cell,
                        number: Some(w),
                    }));
                }
            }
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<NumeMove> {
        let n = self.n_cells();
        match self.phase {
            Phase::ChooseKomi => {
                let r = rng.random_range(0..2 * (n + 1));
                Some(NumeMove::Komi {
                    k: (r / 2) as u64,
                    to: Color::BOTH[r % 2],
                })
            }
            Phase::ChooseSide => Some(NumeMove::Side(Color::BOTH[rng.random_range(0..2)])),
            Phase::Stones if self.narrow => self.random_placement::<u64, R>(rng),
            Phase::Stones => self.random_placement::<Bits, R>(rng),
        }
    }

    fn check(&self, mv: NumeMove) -> Result<(), MoveErrorOf<Self>> {
        self.validate(mv)?;
        if self.is_over() {
            return Err(NumeIllegal::BoardFull.into());
        }
        match (mv, self.phase) {
            (NumeMove::Komi { .. }, Phase::ChooseKomi) => Ok(()),
            (NumeMove::Side(_), Phase::ChooseSide) => Ok(()),
            (NumeMove::Place { cell, number }, Phase::Stones) => {
                let i = usize::from(cell);
                let cell = self.board.name(i);
                // The generator's sets decide; the rest says why not.
                let (joining, starting) = self.placements();
                match number {
                    None if joining.contains(i) => Ok(()),
                    Some(_) if starting.contains(i) => Ok(()),
                    _ if !self.empty().contains(i) => Err(IllegalMove::Occupied(cell).into()),
                    None => Err(NumeIllegal::NumberRequired(cell).into()),
                    Some(_) => Err(NumeIllegal::NumberForbidden(cell).into()),
                }
            }
            (_, Phase::ChooseKomi) => Err(NumeIllegal::KomiFirst.into()),
            (_, Phase::ChooseSide) => Err(NumeIllegal::SideFirst.into()),
            (_, Phase::Stones) => Err(NumeIllegal::NotKomiPhase.into()),
        }
    }

    fn play_unchecked(&mut self, mv: NumeMove) {
        match mv {
            NumeMove::Place { cell, number } => {
                self.catch_up_groups();
                let key = self.board_key();
                let change = if self.narrow {
                    self.place::<u64>(cell, number)
                } else {
                    self.place::<Bits>(cell, number)
                };
                self.board_key = Some(key ^ change);
            }
            NumeMove::Komi { k, to } => {
                self.komi = Some((k, to));
                self.phase = Phase::ChooseSide;
            }
            NumeMove::Side(color) => {
                self.black_seat = if color == Color::First {
                    Seat::Second
                } else {
                    Seat::First
                };
                self.phase = Phase::Stones;
            }
        }
        self.history.push(mv);
    }

    fn undo(&mut self) -> Option<NumeMove> {
        self.catch_up_groups();
        let mv = self.history.pop()?;
        match mv {
            NumeMove::Place { cell, .. } => {
                let i = usize::from(cell);
                let color = if self.stones[0].contains(i) {
                    Color::First
                } else {
                    Color::Second
                };
                let key = self.board_key();
                self.stones[color.index()].remove(i);
                self.board_key = Some(key ^ Self::stone_key(color.index(), i, self.numbers[i]));
                self.numbers[i] = NO_NUMBER;
                self.groups.undo();
                self.recompute_adjacent(color);
            }
            NumeMove::Komi { .. } => {
                self.komi = None;
                self.phase = Phase::ChooseKomi;
            }
            NumeMove::Side(_) => {
                self.black_seat = Seat::First;
                self.phase = Phase::ChooseSide;
            }
        }
        Some(mv)
    }

    fn reset(&mut self) {
        if let Some(setup) = self.setup.clone() {
            self.clone_from(&setup);
            // The snapshot has no setup of its own: keep it for the next reset.
            self.setup = Some(setup);
            return;
        }
        self.stones = [Bits::EMPTY; 2];
        self.adjacent = [Bits::EMPTY; 2];
        // Only the board's cells ever carry a number.
        self.numbers[..self.board.len()].fill(NO_NUMBER);
        self.groups.clear();
        self.groups_behind = 0;
        self.black_seat = Seat::First;
        self.history.clear();
        self.board_key = Some(0);
        if self.config.komi_phase {
            self.komi = None;
            self.phase = Phase::ChooseKomi;
        } else {
            self.komi = self.config.komi.map(|k| (k, self.config.komi_to));
            self.phase = Phase::Stones;
        }
    }

    fn history(&self) -> &[NumeMove] {
        &self.history
    }

    fn last_mover(&self) -> Option<Seat> {
        // Nume has no pass, so the last action counts; a stone is its colour's seat's.
        let Some(&last) = self.history.last() else {
            return self.last_mover_of_position();
        };
        Some(match last {
            NumeMove::Komi { .. } => Seat::First,
            NumeMove::Side(_) => Seat::Second,
            NumeMove::Place { cell, .. } => {
                let (color, _) = self.stone_at(usize::from(cell))?;
                self.seat_of(color)
            }
        })
    }

    #[inline(always)]
    fn scores(&self) -> BySeat<f64> {
        let sums = self.price_sums();
        BySeat(Seat::BOTH.map(|seat| {
            let color = self.color_of(seat);
            let komi = match self.komi {
                Some((k, to)) if to == color => k as f64 + 0.5,
                _ => 0.0,
            };
            sums[color.index()] as f64 + komi
        }))
    }

    fn parse_move(&self, text: &str) -> Result<NumeMove, InvalidMoveOf<Self>> {
        if let Some(rest) = text.strip_prefix("komi ") {
            let bad_komi = || NumeInvalid::Komi(Excerpt::new(text));
            let (value, color) = rest.split_once(' ').ok_or_else(bad_komi)?;
            let k = value
                .strip_suffix(".5")
                .and_then(plain_number)
                .ok_or_else(bad_komi)?;
            let mv = NumeMove::Komi {
                k,
                to: Self::parse_color(color, text)?,
            };
            self.validate(mv)?;
            return Ok(mv);
        }
        if let Some(color) = text.strip_prefix("side ") {
            return Ok(NumeMove::Side(Self::parse_color(color, text)?));
        }
        let (cell_text, number) = match text.split_once('=') {
            Some((cell, number)) => (cell, Some(number)),
            None => (text, None),
        };
        let name = match Coord::parse(cell_text) {
            Err(InvalidMove::RowZero(letter)) => Err(InvalidMove::RowZero(letter)),
            other => other.map_err(|_| InvalidMove::Syntax {
                game: "Nume",
                text: Excerpt::new(text),
                examples: "'c3', 'c3=5', 'komi 2.5 white' or 'side black'",
            }),
        }?;
        let number = number
            .map(|number| Self::parse_number(number, text))
            .transpose()?;
        let cell = self.board.cell(name).ok_or(InvalidMove::OffBoard {
            cell: name,
            side: None,
        })?;
        Ok(NumeMove::Place { cell, number })
    }

    fn fmt_move(&self, mv: NumeMove, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match mv {
            NumeMove::Place { cell, number } => {
                self.board.write_name(cell, f)?;
                match number {
                    Some(w) => write!(f, "={w}"),
                    None => Ok(()),
                }
            }
            NumeMove::Komi { k, to } => write!(f, "komi {k}.5 {}", COLOR_NAMES[to.index()]),
            NumeMove::Side(color) => write!(f, "side {}", COLOR_NAMES[color.index()]),
        }
    }

    fn num_actions(&self) -> usize {
        self.side_base() + 2
    }

    fn action_of(&self, mv: NumeMove) -> Option<usize> {
        let n = self.n_cells();
        match mv {
            NumeMove::Place { cell, number: None } => self.board.on_board(cell),
            NumeMove::Place {
                cell,
                number: Some(w),
            } => {
                let c = self.board.on_board(cell)?;
                ((w as usize) <= n).then(|| n + c * (n + 1) + w as usize)
            }
            NumeMove::Komi { k, to } => {
                (k <= n as u64).then(|| self.komi_base() + 2 * k as usize + to.index())
            }
            NumeMove::Side(color) => Some(self.side_base() + color.index()),
        }
    }

    fn move_of(&self, action: usize) -> Option<NumeMove> {
        let n = self.n_cells();
        let (komi, side) = (self.komi_base(), self.side_base());
        Some(match action {
            a if a < n => NumeMove::Place {
                cell: a as Cell,
                number: None,
            },
            a if a < komi => {
                let a = a - n;
                NumeMove::Place {
                    cell: (a / (n + 1)) as Cell,
                    number: Some((a % (n + 1)) as u32),
                }
            }
            a if a < side => NumeMove::Komi {
                k: ((a - komi) / 2) as u64,
                to: Color::BOTH[(a - komi) % 2],
            },
            a if a < side + 2 => NumeMove::Side(Color::BOTH[a - side]),
            _ => return None,
        })
    }

    fn geometry(&self) -> &Board {
        &self.board
    }

    fn groups(&self) -> Vec<GroupInfo> {
        self.group_prices()
            .into_iter()
            .map(|(color, group, price)| {
                let numbers = group
                    .iter()
                    .map(|c| self.numbers[c])
                    .filter(|&w| w != NO_NUMBER)
                    .collect();
                GroupInfo::new(color, group.iter().collect(), group.count())
                    .with("numbers", GroupValue::Numbers(numbers))
                    .with("price", GroupValue::Count(price))
            })
            .collect()
    }

    fn move_cells(&self, mv: NumeMove) -> Vec<usize> {
        match mv {
            NumeMove::Place { cell, .. } => self.board.on_board(cell).into_iter().collect(),
            NumeMove::Komi { .. } | NumeMove::Side(_) => Vec::new(),
        }
    }

    fn key(&self) -> u64 {
        self.board_key() ^ self.phase_key()
    }

    #[inline(always)]
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> PlayoutResult {
        let (limit, before) = (self.max_game_length(), self.history.len());
        // The komi phase, if any, move by move.
        while self.phase != Phase::Stones {
            check_length(self.history.len(), limit, Self::NAME);
            let mv = self.random_move(rng).expect("the komi phase has moves");
            self.play_unchecked(mv);
        }
        self.board_key = None;
        let stones_before = self.history.len();
        if self.narrow {
            self.place_randomly::<u64, R>(rng, limit);
        } else {
            self.place_randomly::<Bits, R>(rng, limit);
        }
        self.groups_behind += self.history.len() - stones_before;
        let length = (self.history.len() - before) as u32;
        PlayoutResult {
            length,
            ..PlayoutResult::default()
        }
        .finish(self)
    }

    const WIN_RULE: crate::rules::game::WinRule = crate::rules::game::WinRule::LowerWinsTiesDraw;
    const PASS: Option<NumeMove> = None;
    const PIE_SWAP: Option<NumeMove> = None;

    /// Exactly one stone per cell, after the two komi-phase moves when the phase is on.
    fn max_game_length(&self) -> usize {
        self.n_cells() + 2 * self.config.komi_phase as usize
    }

    fn reserve_moves(&mut self) {
        let left = self.max_game_length().saturating_sub(self.history.len());
        self.history.reserve(left);
        let stones = self.n_cells().saturating_sub(self.groups.log.len());
        self.groups.log.reserve(stones);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::Learn;

    #[test]
    fn ownership_is_plus_one_for_own_stones_minus_one_for_the_others() {
        let mut g = Nume::new(NumeConfig::default()).unwrap();
        let mut rng = crate::rules::playout::game_rng(5, 0);
        for _ in 0..12 {
            let mv = g.random_move(&mut rng).unwrap();
            g.play_unchecked(mv);
        }
        let mut own = vec![9.0; g.ownership_len()];
        for color in Color::BOTH {
            g.ownership_as(color, &mut own);
            for (cell, &value) in own.iter().enumerate() {
                let expected = if g.stones[color.index()].contains(cell) {
                    1.0
                } else if g.stones[color.other().index()].contains(cell) {
                    -1.0
                } else {
                    0.0
                };
                assert_eq!(value, expected, "{color:?} cell {cell}");
            }
            assert!(own.contains(&1.0) && own.contains(&-1.0) && own.contains(&0.0));
        }
    }

    #[test]
    fn a_state_is_small_enough_to_copy() {
        // Moved by value several times per new state from Python: the group forest's
        // 2.8 KB is boxed (a new state took 3 us, most of it copies, against under 1 us).
        assert!(
            std::mem::size_of::<Nume>() <= 1536,
            "{}",
            std::mem::size_of::<Nume>()
        );
    }

    fn hex(n: usize) -> Nume {
        Nume::new(NumeConfig {
            n,
            ..NumeConfig::default()
        })
        .unwrap()
    }

    /// The komi in force: the parameters' (none for `komi: None`), or, with the komi
    /// phase, none until seat 0 offers one.
    #[test]
    fn the_komi_in_force_is_the_parameters_or_the_komi_phases() {
        let config = |komi, komi_phase| NumeConfig {
            komi,
            komi_to: Color::Second,
            komi_phase,
            ..NumeConfig::default()
        };
        assert_eq!(Nume::new(config(Some(3), false)).unwrap().komi(), Some((3, Color::Second)));
        assert_eq!(Nume::new(config(None, false)).unwrap().komi(), None);
        let mut g = Nume::new(config(Some(3), true)).unwrap();
        assert_eq!(g.komi(), None);
        g.play_str("komi 1.5 black").unwrap();
        assert_eq!(g.komi(), Some((1, Color::First)));
    }

    #[test]
    fn board_sizes() {
        for (n, cells) in [(1, 6), (2, 18), (3, 36), (4, 60), (8, 216)] {
            assert_eq!(hex(n).num_cells(), cells);
        }
        let sq = Nume::new(NumeConfig {
            square: Some(9),
            ..NumeConfig::default()
        })
        .unwrap();
        assert_eq!(sq.num_cells(), 81);
    }

    #[test]
    fn a_placement_touches_its_cell_and_the_other_moves_none() {
        let mut g = Nume::new(NumeConfig {
            square: Some(3),
            komi: Some(2),
            komi_phase: true,
            ..NumeConfig::default()
        })
        .unwrap();
        let cells = |g: &Nume, text: &str| g.move_cells(g.parse_move(text).unwrap());
        assert_eq!(cells(&g, "komi 1.5 black"), Vec::<usize>::new());
        g.play_str("komi 1.5 black").unwrap();
        assert_eq!(cells(&g, "side white"), Vec::<usize>::new());
        for text in ["a1", "c1=7", "b2", "a3=0"] {
            let named: Vec<String> = cells(&g, text).iter().map(|&cell| g.cell_name(cell)).collect();
            assert_eq!(named, [text.split('=').next().unwrap()], "{text}");
        }
    }

    #[test]
    fn merge_keeps_every_number() {
        let mut g = Nume::new(NumeConfig {
            square: Some(3),
            komi: None,
            ..NumeConfig::default()
        })
        .unwrap();
        // Black a1=2, c1=7, b2=9 ... White fills elsewhere; then Black b1 joins all three.
        for mv in ["a1=2", "a3=0", "c1=7", "c3=0", "b2=9", "a2", "b1"] {
            g.play_str(mv).unwrap();
        }
        let black = g
            .groups()
            .into_iter()
            .find(|gr| gr.color == Color::First && gr.size == 4)
            .unwrap();
        assert_eq!(
            black.extra("numbers"),
            Some(&GroupValue::Numbers(vec![2, 7, 9]))
        );
        assert_eq!(black.extra("price"), Some(&GroupValue::Count(5))); // |9 - 4|
    }

    /// Prices recomputed from scratch, straight from the rules.
    fn price_sums_from_scratch(g: &Nume) -> [u64; 2] {
        let mut sums = [0; 2];
        for color in Color::BOTH {
            g.board.components(g.stones[color.index()], |group| {
                let size = group.count() as i64;
                let numbers = group
                    .iter()
                    .map(|c| g.numbers[c])
                    .filter(|&w| w != NO_NUMBER);
                sums[color.index()] += numbers
                    .map(|w| (w as i64 - size).unsigned_abs())
                    .max()
                    .unwrap();
            });
        }
        sums
    }

    #[test]
    fn incremental_prices_match_recomputation_through_play_and_undo() {
        for (index, config) in [
            NumeConfig::default(),
            NumeConfig {
                square: Some(6),
                ..NumeConfig::default()
            },
        ]
        .into_iter()
        .enumerate()
        {
            let mut g = Nume::new(config).unwrap();
            let mut rng = crate::rules::playout::game_rng(9, index as u64);
            let mut sums = vec![price_sums_from_scratch(&g)];
            while let Some(mv) = g.random_move(&mut rng) {
                // Sometimes a huge number, so prices are large too.
                let mv = match mv {
                    NumeMove::Place {
                        cell,
                        number: Some(w),
                    } if w % 3 == 0 => NumeMove::Place {
                        cell,
                        number: Some(MAX_NUMBER - w),
                    },
                    other => other,
                };
                g.play(mv).unwrap();
                assert_eq!(g.groups.price_sums, price_sums_from_scratch(&g));
                sums.push(g.groups.price_sums);
            }
            while g.undo().is_some() {
                sums.pop();
                assert_eq!(g.groups.price_sums, *sums.last().unwrap());
                assert_eq!(g.groups.price_sums, price_sums_from_scratch(&g));
            }
        }
    }

    #[test]
    fn actions_round_trip() {
        let g = Nume::new(NumeConfig {
            n: 1,
            komi_phase: true,
            ..NumeConfig::default()
        })
        .unwrap();
        assert_eq!(g.num_actions(), 64);
        for a in 0..g.num_actions() {
            let mv = g.move_of(a).unwrap();
            assert_eq!(g.action_of(mv), Some(a));
            assert_eq!(g.parse_move(&g.move_text(mv).to_string()).unwrap(), mv);
        }
    }

    #[test]
    fn the_last_mover_is_the_seat_that_made_the_last_move() {
        let start = Nume::new(NumeConfig { komi_phase: true, ..NumeConfig::default() }).unwrap();
        for index in 0..5 {
            let mut g = start.clone();
            let mut rng = crate::rules::playout::game_rng(6, index);
            assert_eq!(g.last_mover(), None);
            while let Some(mv) = g.random_move(&mut rng) {
                let mover = g.to_move();
                g.play_unchecked(mv);
                assert_eq!(g.last_mover(), mover, "after {:?}", g.history());
            }
        }
    }

    #[test]
    fn full_board_ends_game() {
        let mut g = hex(1);
        let mut rng = crate::rules::playout::game_rng(3, 0);
        crate::rules::playout::play_out(&mut g, &mut rng);
        assert!(g.is_over());
        assert_eq!(g.history().len(), 6);
        assert!(g.winner().is_some());
    }
}
