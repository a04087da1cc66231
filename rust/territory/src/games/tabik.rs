//! Tabik: two stones and a rod per move, or a stone swap across an edge without a rod.
//!
//! Squares are bit indices `row * k + col`. A rod is stored at its edge's first square:
//! in the east rods for the edge to `i + 1`, the north rods for the edge to `i + k`.
//! The sets are one 64-bit word up to 8x8 and 256 bits beyond (`sets.rs`).

use std::convert::Infallible;
use std::fmt;
use std::sync::Arc;

use rand::Rng;

use crate::rules::bitset::{Bits, CellSet};
use crate::rules::board::{Board, Cell};
use crate::rules::coords::Coord;
use crate::rules::error::{Excerpt, IllegalMove, InvalidMove};
use crate::rules::game::{BySeat, Color, ConfigError, Game, GroupInfo, MoveErrorOf, Seat};
use crate::rules::playout::PlayoutResult;
use crate::rules::scoring;
use crate::rules::turns;
use crate::rules::zobrist;

/// Board keys by square: black stones, white stones, then rods across east edges and
/// north edges, each at the edge's first square.
static KEYS: [[u64; 256]; 4] = by_square(zobrist::table(0x74_6162_696b));

/// The keys of [`KEYS`], 256 per table.
const fn by_square(keys: [u64; 1024]) -> [[u64; 256]; 4] {
    let mut tables = [[0; 256]; 4];
    let mut i = 0;
    while i < 1024 {
        tables[i / 256][i % 256] = keys[i];
        i += 1;
    }
    tables
}

mod error;
mod observe;
mod params;
mod position;
mod sets;
mod symmetry;

pub use error::TabikIllegal;

/// The game's public types, re-exported at the crate root.
pub mod exports {
    pub use super::{Tabik, TabikConfig, TabikMove, TabikIllegal};
}
use sets::{Choices, Pick, Sets};

pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 16;

/// Parameters of a Tabik game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TabikConfig {
    /// Board side, 2 to 16.
    pub size: usize,
    /// Whether seat 1 may `swap` on its first turn.
    pub pie: bool,
}

/// A Tabik action; squares are cell indices `row * size + col` ([`Game::move_text`]
/// names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TabikMove {
    /// A black and a white stone on adjacent empty squares, a rod between them.
    Place {
        black: Cell,
        white: Cell,
    },
    /// Two adjacent stones of different colours trade places; `first` is the square
    /// with the lower index (the lower row, then the lower column).
    StoneSwap {
        first: Cell,
        second: Cell,
    },
    /// The pie rule's exchange of colours.
    Swap,
    Pass,
}

/// The board's bit sets, one `u64` word when it fits (up to 8x8), else 256 bits.
#[derive(Clone, Debug)]
enum Repr {
    Small(Sets<u64>),
    Large(Sets<Bits>),
}

/// Evaluates `$body` with `$sets` bound to the board's sets, whatever their width.
macro_rules! with_sets {
    ($repr:expr, $sets:ident => $body:expr) => {
        match $repr {
            Repr::Small($sets) => $body,
            Repr::Large($sets) => $body,
        }
    };
}

/// A Tabik position with its history.
#[derive(Debug)]
pub struct Tabik {
    k: usize,
    board: Arc<Board>,
    pie: bool,
    /// Stones and rods.
    sets: Repr,
    /// Whether the pie swap has been taken (seat 0 then plays White).
    swapped: bool,
    /// The turn order before `history` (set by `from_position`).
    start: turns::Start,
    /// The position this game was set up from, when not the start position.
    setup: Option<Arc<Tabik>>,
    history: Vec<TabikMove>,
    /// XOR of the keys of the stones and rods on the board; `None` after a random
    /// playout, which skips the updates (it is recomputed when next needed).
    board_key: Option<u64>,
}

/// `clone_from` reuses the history's allocation (searches copy their root back after
/// every iteration).
impl Clone for Tabik {
    fn clone(&self) -> Tabik {
        Tabik {
            board: self.board.clone(),
            sets: self.sets.clone(),
            setup: self.setup.clone(),
            history: self.history.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Tabik) {
        // Every field named, so that a new one cannot be left out.
        let Tabik {
            k,
            board,
            pie,
            sets,
            swapped,
            start,
            setup,
            history,
            board_key,
        } = source;
        (self.k, self.pie, self.swapped, self.start) = (*k, *pie, *swapped, *start);
        crate::rules::game::share_from(&mut self.board, board);
        self.sets.clone_from(sets);
        crate::rules::game::share_option_from(&mut self.setup, setup);
        self.history.clone_from(history);
        self.board_key = *board_key;
    }
}

impl PartialEq for Tabik {
    fn eq(&self, other: &Tabik) -> bool {
        self.config() == other.config()
            && self.history == other.history
            && crate::rules::position::same_setup(&self.setup, &other.setup, Tabik::write_position)
    }
}

impl Tabik {
    /// A new game at the start position.
    pub fn new(config: TabikConfig) -> Result<Tabik, ConfigError> {
        crate::rules::params::Config::check(&config)?;
        let k = config.size;
        let sets = if k * k <= 64 {
            Repr::Small(Sets::new(k))
        } else {
            Repr::Large(Sets::new(k))
        };
        Ok(Tabik {
            k,
            board: Board::square_shared(k),
            pie: config.pie,
            sets,
            swapped: false,
            start: turns::Start::default(),
            setup: None,
            history: Vec::with_capacity(2 * k * k),
            board_key: Some(0),
        })
    }

    pub fn config(&self) -> TabikConfig {
        TabikConfig {
            size: self.k,
            pie: self.pie,
        }
    }

    /// The colour of the stone on a square (a cell index), if any.
    pub fn stone_at(&self, square: usize) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.stone_sets()[c.index()].contains(square))
    }

    /// Stones by colour: [black, white].
    pub(crate) fn stone_sets(&self) -> [Bits; 2] {
        with_sets!(&self.sets, s => s.stones.map(CellSet::to_bits))
    }

    /// Rods across east edges and north edges, at each edge's first square.
    pub(crate) fn rod_sets(&self) -> [Bits; 2] {
        with_sets!(&self.sets, s => s.rods.map(CellSet::to_bits))
    }

    /// Puts stones and rods on the board (for `from_position`; the key is not updated).
    fn set_board(&mut self, stones: [Bits; 2], rods: [Bits; 2]) {
        with_sets!(&mut self.sets, s => {
            s.stones = stones.map(|bits| CellSet::from_bits(&bits));
            s.rods = rods.map(|bits| CellSet::from_bits(&bits));
        })
    }

    /// The rods as (first square, second square), in edge-index order.
    pub fn rods(&self) -> Vec<(Coord, Coord)> {
        let [east, north] = self.rod_sets();
        let east = east.iter().map(|i| (self.coord(i), self.coord(i + 1)));
        let north = north
            .iter()
            .map(|i| (self.coord(i), self.coord(i + self.k)));
        east.chain(north).collect()
    }

    /// The index of a square, or why it is not one of this board's.
    fn square_index(&self, square: Coord) -> Result<Cell, InvalidMove> {
        self.board.cell(square).ok_or(InvalidMove::OffBoard {
            cell: square,
            side: Some(self.k),
        })
    }

    #[inline]
    fn coord(&self, i: usize) -> Coord {
        self.board.name(i)
    }

    fn num_edges(&self) -> usize {
        2 * self.k * (self.k - 1)
    }

    fn empty(&self) -> Bits {
        with_sets!(&self.sets, s => s.empty().to_bits())
    }

    /// The moves other than `pass` (none once the game is over), as 256-bit sets.
    fn choices(&self) -> Choices {
        let pie = self.pie_available();
        with_sets!(&self.sets, s => s.choices(pie).to_bits())
    }

    /// The second square of the edge in direction `dir` (0 east, 1 north) from `first`.
    fn across(&self, first: usize, dir: usize) -> usize {
        first + sets::across(dir, self.k)
    }

    /// Move number `r` of the list the generator makes from `choices` (`r` below
    /// `choices.count()`): placements on east then north edges, two per edge, stone
    /// swaps on east then north edges, then the pie swap.
    #[inline(always)]
    fn nth_choice<B: CellSet>(&self, choices: &Choices<B>, r: usize) -> TabikMove {
        match choices.nth(r, self.k) {
            Pick::Edge { a, b, place } => {
                let (a, b) = (a as Cell, b as Cell);
                if place {
                    TabikMove::Place { black: a, white: b }
                } else {
                    TabikMove::StoneSwap {
                        first: a,
                        second: b,
                    }
                }
            }
            Pick::Swap => TabikMove::Swap,
        }
    }

    /// A uniform draw from the moves of `sets` (`pass` when there are none), the same
    /// draw at any width.
    #[inline(always)]
    fn draw<B: CellSet, R: Rng + ?Sized>(&self, sets: &Sets<B>, rng: &mut R) -> TabikMove {
        let choices = sets.choices(self.pie_available());
        match choices.count() {
            0 => TabikMove::Pass,
            total => self.nth_choice(&choices, crate::rules::uniform::below(rng, total)),
        }
    }

    fn stone_swap(first: usize, second: usize) -> TabikMove {
        TabikMove::StoneSwap {
            first: first as Cell,
            second: second as Cell,
        }
    }

    fn pie_available(&self) -> bool {
        turns::pie_available(self.pie, &self.start, &self.history)
    }

    /// Edge index and whether `second` is the east neighbour, for adjacent squares
    /// given in either order; also returns the first square's index.
    fn edge(&self, a: usize, b: usize) -> Option<(usize, usize, bool)> {
        let (first, east) = self.adjacency(a, b)?;
        let k = self.k;
        Some(if east {
            (first / k * (k - 1) + first % k, first, true)
        } else {
            (k * (k - 1) + first, first, false)
        })
    }

    /// For adjacent squares in either order: the first square, and whether the second is
    /// its east neighbour (else its north neighbour).
    #[inline]
    fn adjacency(&self, a: usize, b: usize) -> Option<(usize, bool)> {
        let (first, second) = (a.min(b), a.max(b));
        if second == first + 1 && first % self.k != self.k - 1 {
            Some((first, true))
        } else if second == first + self.k {
            Some((first, false))
        } else {
            None
        }
    }

    /// Stone groups as (colour, cells), ordered by first cell.
    fn group_sets(&self) -> Vec<(Color, Bits)> {
        let mut groups = Vec::new();
        self.for_each_group(|color, set| groups.push((color, set)));
        groups.sort_by_key(|(_, set)| set.first());
        groups
    }

    fn for_each_group(&self, mut visit: impl FnMut(Color, Bits)) {
        with_sets!(&self.sets, s => s.for_each_group(|color, group| visit(color, group.to_bits())))
    }

    #[inline(always)]
    fn held(&self) -> [u32; 2] {
        match &self.sets {
            Repr::Small(s) => s.held::<65>(),
            Repr::Large(s) => s.held::<{ MAX_SIZE * MAX_SIZE + 1 }>(),
        }
    }

    /// Recomputes the incremental part of the key, for code that sets up a position
    /// directly instead of playing moves to it.
    #[allow(dead_code)]
    pub(crate) fn rebuild_key(&mut self) {
        self.board_key = Some(self.board_key_from_scratch());
    }

    /// The position key recomputed from the board, without the incremental part.
    pub fn compute_key(&self) -> u64 {
        self.board_key_from_scratch() ^ self.turn_key()
    }

    /// The XOR of the keys of the stones and rods on the board, recomputed.
    fn board_key_from_scratch(&self) -> u64 {
        let mut key = 0;
        let ([black, white], [east, north]) = (self.stone_sets(), self.rod_sets());
        for (table, set) in [black, white, east, north].into_iter().enumerate() {
            for i in set {
                key ^= KEYS[table][i];
            }
        }
        key
    }

    /// The XOR of the keys of the stones and rods on the board (kept, or recomputed
    /// after a random playout).
    pub(crate) fn board_key(&self) -> u64 {
        self.board_key
            .unwrap_or_else(|| self.board_key_from_scratch())
    }

    fn turn_key(&self) -> u64 {
        zobrist::turn_key(
            &self.start,
            &self.history,
            TabikMove::Pass,
            self.pie,
            self.swapped,
        )
    }

    /// Plays a move, or takes it back: every move is its own inverse on the board.
    /// Returns the change of the board key (callers that do not keep it skip computing
    /// it).
    #[inline(always)]
    fn apply(&mut self, mv: TabikMove) -> u64 {
        let (TabikMove::Place { black: a, white: b }
        | TabikMove::StoneSwap {
            first: a,
            second: b,
        }) = mv
        else {
            self.swapped ^= mv == TabikMove::Swap;
            return 0;
        };
        let place = matches!(mv, TabikMove::Place { .. });
        // A placement puts black on `a` and white on `b`; a stone swap also puts
        // white on `a` and black on `b`, so both squares change colour (without
        // branching on the kind, which is random in playouts).
        let (a, b) = (usize::from(a), usize::from(b));
        let dir = with_sets!(&mut self.sets, s => s.toggle(a, b, !place));
        let swap_mask = (place as u64).wrapping_sub(1);
        KEYS[0][a] ^ KEYS[1][b] ^ KEYS[2 + dir][a.min(b)] ^ ((KEYS[0][b] ^ KEYS[1][a]) & swap_mask)
    }

    /// Plays a move and keeps the board key (see [`Tabik::board_key`]).
    fn apply_keyed(&mut self, mv: TabikMove) {
        let key = self.board_key();
        self.board_key = Some(key ^ self.apply(mv));
    }

    fn place_across(first: usize, second: usize, black_first: bool) -> TabikMove {
        let (a, b) = (first as Cell, second as Cell);
        if black_first {
            TabikMove::Place { black: a, white: b }
        } else {
            TabikMove::Place { black: b, white: a }
        }
    }
}

/// Tabik meets the contract of a game (its pieces: `impl Game` here, `params.rs`,
/// `observe.rs`, `symmetry.rs`).
impl crate::Contract for Tabik {}

impl Game for Tabik {
    type Move = TabikMove;
    type Score = u32;
    type Invalid = Infallible;
    type Illegal = TabikIllegal;
    const NAME: &'static str = "tabik";
    const COLOR_NAMES: [&'static str; 2] = ["black", "white"];

    fn to_move(&self) -> Option<Seat> {
        turns::to_move(&self.start, &self.history, TabikMove::Pass)
    }

    fn color_of(&self, seat: Seat) -> Color {
        turns::color_of(seat, self.swapped)
    }

    fn legal_moves_into(&self, out: &mut Vec<TabikMove>) {
        if self.is_over() {
            return;
        }
        let choices = self.choices();
        for dir in 0..2 {
            for i in choices.place[dir] {
                let j = self.across(i, dir);
                out.push(Self::place_across(i, j, true));
                out.push(Self::place_across(i, j, false));
            }
        }
        for dir in 0..2 {
            for i in choices.swap[dir] {
                out.push(Self::stone_swap(i, self.across(i, dir)));
            }
        }
        if choices.pie {
            out.push(TabikMove::Swap);
        }
        if choices.count() == 0 {
            out.push(TabikMove::Pass);
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<TabikMove> {
        if self.is_over() {
            return None;
        }
        Some(with_sets!(&self.sets, s => self.draw(s, rng)))
    }

    fn check(&self, mv: TabikMove) -> Result<(), MoveErrorOf<Self>> {
        let (a, b) = match mv {
            TabikMove::Place { black, white } => (black, white),
            TabikMove::StoneSwap { first, second } => (first, second),
            TabikMove::Swap | TabikMove::Pass => (0, 0),
        };
        let (i, j) = (self.board.check_cell(a)?, self.board.check_cell(b)?);
        let (a, b) = (self.coord(i), self.coord(j));
        if self.is_over() {
            return Err(IllegalMove::GameOver.into());
        }
        // Legality is decided by `choices`, as for the generator; the rest says why not.
        let choices = self.choices();
        let empty = self.empty();
        match mv {
            TabikMove::Place { .. } => {
                let Some((_, first, east)) = self.edge(i, j) else {
                    return Err(TabikIllegal::NotAdjacent(a, b).into());
                };
                if choices.place[!east as usize].contains(first) {
                    return Ok(());
                }
                let occupied = if empty.contains(i) { b } else { a };
                Err(IllegalMove::Occupied(occupied).into())
            }
            TabikMove::StoneSwap { .. } => {
                let Some((_, low, east)) = self.edge(i, j) else {
                    return Err(TabikIllegal::NotAdjacent(a, b).into());
                };
                if choices.swap[!east as usize].contains(low) {
                    return Ok(());
                }
                if let Some(c) = [(i, a), (j, b)]
                    .into_iter()
                    .find(|&(x, _)| empty.contains(x))
                {
                    return Err(TabikIllegal::NoStoneToSwap(c.1).into());
                }
                if self.stone_at(i) == self.stone_at(j) {
                    return Err(TabikIllegal::SameColour(a, b).into());
                }
                Err(TabikIllegal::Rod(a, b).into())
            }
            TabikMove::Swap => turns::check_pie_swap(self.pie, &self.start, &self.history),
            TabikMove::Pass => turns::check_pass(choices.count()),
        }
    }

    fn play_unchecked(&mut self, mv: TabikMove) {
        self.apply_keyed(mv);
        self.history.push(mv);
    }

    fn undo(&mut self) -> Option<TabikMove> {
        let mv = self.history.pop()?;
        self.apply_keyed(mv);
        Some(mv)
    }

    /// The moves of the default loop, without its per-move checks of what the loop
    /// knows (the width of the sets, passes in a row) and without the key updates.
    #[inline(always)]
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> PlayoutResult {
        let limit = self.max_game_length();
        let passes = turns::passes_in_a_row(&self.start, &self.history, TabikMove::Pass);
        let (mut result, before) = (PlayoutResult::default(), self.history.len());
        // The history length at which the pie swap is available (seat 1's first turn).
        let pie_at = match (self.pie, self.start.ply) {
            (true, ply @ 0..=1) => 1 - ply as usize,
            _ => usize::MAX,
        };
        self.board_key = None;
        let history = &mut self.history;
        let (passes, swaps) = with_sets!(&mut self.sets, s => s.play_randomly(rng, history, pie_at, passes, limit));
        self.swapped ^= swaps % 2 == 1;
        (result.passes, result.swapped) = (passes, swaps > 0);
        result.length = (self.history.len() - before) as u32;
        result.finish(self)
    }

    fn reset(&mut self) {
        if let Some(setup) = self.setup.clone() {
            self.clone_from(&setup);
            // The snapshot has no setup of its own: keep it for the next reset.
            self.setup = Some(setup);
            return;
        }
        self.start = turns::Start::default();
        with_sets!(&mut self.sets, s => s.clear());
        self.swapped = false;
        self.history.clear();
        self.board_key = Some(0);
    }

    fn history(&self) -> &[TabikMove] {
        &self.history
    }

    fn last_mover(&self) -> Option<Seat> {
        turns::last_mover(&self.start, &self.history, TabikMove::Pass)
    }

    #[inline(always)]
    fn scores(&self) -> BySeat<u32> {
        scoring::seat_scores(self.held(), |seat| self.color_of(seat))
    }

    fn parse_move(&self, text: &str) -> Result<TabikMove, InvalidMove> {
        match text {
            "pass" => return Ok(TabikMove::Pass),
            "swap" => return Ok(TabikMove::Swap),
            _ => {}
        }
        let malformed = || InvalidMove::Syntax {
            game: "Tabik",
            text: Excerpt::new(text),
            examples: "'b2-b3', 'b2xb3', 'swap' or 'pass'",
        };
        // The separator follows the first square's letter and digits ('x' is also a
        // column letter: 'x1xc1' is the squares x1 and c1).
        let end = text.char_indices().skip(1).find(|&(_, c)| !c.is_ascii_digit()).map(|(i, _)| i);
        let (a, sep, b) = match end {
            Some(i) if text[i..].starts_with(['-', 'x']) => (&text[..i], &text[i..i + 1], &text[i + 1..]),
            _ => return Err(malformed()),
        };
        // The shape first (a letter then digits on both sides), then each square.
        let shaped = |t: &str| {
            let mut chars = t.chars();
            chars.next().is_some_and(|c| c.is_ascii_lowercase())
                && !chars.as_str().is_empty()
                && chars.as_str().bytes().all(|b| b.is_ascii_digit())
        };
        if !shaped(a) || !shaped(b) {
            return Err(malformed());
        }
        let square = |t: &str| match Coord::parse(t) {
            Err(e @ InvalidMove::RowZero(_)) => Err(e),
            other => other.map_err(|_| malformed()),
        };
        let (a, b) = (square(a)?, square(b)?);
        let (a, b) = (self.square_index(a)?, self.square_index(b)?);
        Ok(if sep == "-" {
            TabikMove::Place { black: a, white: b }
        } else if a <= b {
            TabikMove::StoneSwap {
                first: a,
                second: b,
            }
        } else {
            TabikMove::StoneSwap {
                first: b,
                second: a,
            }
        })
    }

    fn fmt_move(&self, mv: TabikMove, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, sep, b) = match mv {
            TabikMove::Place { black, white } => (black, "-", white),
            TabikMove::StoneSwap { first, second } => (first, "x", second),
            TabikMove::Swap => return f.write_str("swap"),
            TabikMove::Pass => return f.write_str("pass"),
        };
        self.board.write_name(a, f)?;
        f.write_str(sep)?;
        self.board.write_name(b, f)
    }

    fn num_actions(&self) -> usize {
        3 * self.num_edges() + 2
    }

    fn action_of(&self, mv: TabikMove) -> Option<usize> {
        let e = self.num_edges();
        match mv {
            TabikMove::Place { black, white } => {
                let (b, w) = (self.board.on_board(black)?, self.board.on_board(white)?);
                let (edge, first, _) = self.edge(b, w)?;
                Some(2 * edge + (b != first) as usize)
            }
            TabikMove::StoneSwap { first, second } => {
                let (a, b) = (self.board.on_board(first)?, self.board.on_board(second)?);
                let (edge, _, _) = self.edge(a, b)?;
                Some(2 * e + edge)
            }
            TabikMove::Swap => Some(3 * e),
            TabikMove::Pass => Some(3 * e + 1),
        }
    }

    fn move_of(&self, action: usize) -> Option<TabikMove> {
        let (k, e) = (self.k, self.num_edges());
        let squares = |edge: usize| {
            if edge < k * (k - 1) {
                let first = edge / (k - 1) * k + edge % (k - 1);
                (first, first + 1)
            } else {
                let first = edge - k * (k - 1);
                (first, first + k)
            }
        };
        Some(match action {
            a if a < 2 * e => {
                let (first, second) = squares(a / 2);
                Self::place_across(first, second, a % 2 == 0)
            }
            a if a < 3 * e => {
                let (first, second) = squares(a - 2 * e);
                Self::stone_swap(first, second)
            }
            a if a == 3 * e => TabikMove::Swap,
            a if a == 3 * e + 1 => TabikMove::Pass,
            _ => return None,
        })
    }

    fn geometry(&self) -> &Board {
        &self.board
    }

    fn groups(&self) -> Vec<GroupInfo> {
        self.group_sets()
            .into_iter()
            .map(|(color, set)| GroupInfo::new(color, set.iter().collect(), set.count()))
            .collect()
    }

    fn move_cells(&self, mv: TabikMove) -> Vec<usize> {
        let squares = match mv {
            TabikMove::Place { black, white } => [black, white],
            TabikMove::StoneSwap { first, second } => [first, second],
            TabikMove::Swap | TabikMove::Pass => return Vec::new(),
        };
        squares
            .into_iter()
            .filter_map(|s| self.board.on_board(s))
            .collect()
    }

    fn key(&self) -> u64 {
        self.board_key() ^ self.turn_key()
    }

    const WIN_RULE: crate::rules::game::WinRule =
        crate::rules::game::WinRule::HigherWinsLastMoverLosesTies;
    const PASS: Option<TabikMove> = Some(TabikMove::Pass);
    const PIE_SWAP: Option<TabikMove> = Some(TabikMove::Swap);

    /// Every move but `swap` and `pass` lays a rod on an edge without one; then the pie
    /// swap, and the two closing passes (a pass is only ever followed by a pass).
    fn max_game_length(&self) -> usize {
        self.num_edges() + self.pie as usize + 2
    }

    fn reserve_moves(&mut self) {
        let left = self.max_game_length().saturating_sub(self.history.len());
        self.history.reserve(left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last square of a row and the first of the next are consecutive indices
    /// but not neighbours: no move joins them.
    #[test]
    fn squares_across_a_rows_end_are_not_adjacent() {
        let g = Tabik::new(TabikConfig { size: 4, pie: false }).unwrap();
        for text in ["d1-a2", "a2-d1", "d1xa2", "d3-a4"] {
            let err = g.clone().play_str(text).unwrap_err().to_string();
            let (a, b) = (&text[..2], &text[3..]);
            assert_eq!(err, format!("squares {a} and {b} are not adjacent"));
        }
        g.clone().play_str("a1-a2").unwrap();
        g.clone().play_str("c1-d1").unwrap();
        let joined = |m: &TabikMove| matches!(*m, TabikMove::Place { black, white } if black.abs_diff(white) == 1 && black.min(white) % 4 == 3);
        assert!(!g.legal_moves().iter().any(joined));
    }

    #[test]
    fn rods_move_cells_and_groups_are_named_by_their_squares() {
        let mut g = Tabik::new(TabikConfig { size: 5, pie: false }).unwrap();
        for mv in ["b1-b2", "d3-c3"] {
            g.play_str(mv).unwrap();
        }
        let names: Vec<String> = g.rods().iter().map(|(a, b)| format!("{a}-{b}")).collect();
        assert_eq!(names, ["c3-d3", "b1-b2"], "east rods, then north rods");
        // The cells a move touches, in the order its text names them.
        let cells = |text: &str| g.move_cells(g.parse_move(text).unwrap());
        assert_eq!(cells("a1-a2"), [0, 5]);
        assert_eq!(cells("d3-c3"), [13, 12], "c3 holds White, d3 Black");
        assert_eq!(cells("pass"), []);
        // Each stone its own group so far: b1, c3 (Black), b2, d3 (White), by first cell.
        let groups: Vec<(Color, Vec<usize>)> = g.groups().into_iter().map(|i| (i.color, i.cells)).collect();
        assert_eq!(groups, [(Color::First, vec![1]), (Color::Second, vec![6]), (Color::Second, vec![12]), (Color::First, vec![13])]);
    }

    #[test]
    fn games_are_equal_with_the_same_configuration_history_and_setup() {
        use crate::observe::Learn;
        let config = TabikConfig { size: 4, pie: true };
        let mut a = Tabik::new(config).unwrap();
        let b = a.clone();
        assert_eq!(a, b);
        a.play_unchecked(a.legal_moves()[0]);
        assert_ne!(a, b, "another history");
        let c = Tabik::new(TabikConfig { size: 5, pie: true }).unwrap();
        assert_ne!(b, c, "another configuration");
        let read = Tabik::from_position(config, &a.position()).unwrap();
        assert_eq!(read, Tabik::from_position(config, &a.position()).unwrap());
        assert_ne!(read, Tabik::from_position(config, &b.position()).unwrap(), "another setup");
    }

    fn game(size: usize) -> Tabik {
        Tabik::new(TabikConfig { size, pie: true }).unwrap()
    }

    #[test]
    fn start_position_counts() {
        let g = game(8);
        assert_eq!(g.legal_moves().len(), 2 * 112);
        assert_eq!(g.num_actions(), 338);
    }

    #[test]
    fn actions_round_trip() {
        let g = game(5);
        for a in 0..g.num_actions() {
            let mv = g.move_of(a).unwrap();
            assert_eq!(g.action_of(mv), Some(a), "{}", g.move_text(mv));
            assert_eq!(g.parse_move(&g.move_text(mv).to_string()).unwrap(), mv);
        }
        assert_eq!(g.move_of(g.num_actions()), None);
    }

    #[test]
    fn two_by_two_full_game() {
        let mut g = game(2);
        for mv in ["a1-b1", "swap", "a2-b2"] {
            g.play_str(mv).unwrap();
        }
        // Black a1, a2; White b1, b2; both vertical edges join like colours and both
        // horizontal edges have rods: nothing is left but passing.
        assert_eq!(g.legal_moves(), vec![TabikMove::Pass]);
        g.play_str("pass").unwrap();
        g.play_str("pass").unwrap();
        assert!(g.is_over());
        assert_eq!(g.scores(), BySeat([0, 0]));
        // Seat 0 made the last non-pass move (a2-b2) and loses the 0-0 tie.
        assert_eq!(g.last_mover(), Some(Seat::First));
        assert_eq!(g.winner(), Some(Seat::Second));
    }

    #[test]
    fn random_draw_indexes_the_generated_list() {
        for size in [2, 3, 5] {
            let start = game(size);
            for index in 0..20 {
                let end = crate::rules::playout::replay(&start, 11, index);
                let mut g = start.clone();
                for &mv in end.history() {
                    let (moves, choices) = (g.legal_moves(), g.choices());
                    if choices.count() > 0 {
                        assert_eq!(moves.len(), choices.count());
                        for (r, &listed) in moves.iter().enumerate() {
                            assert_eq!(g.nth_choice(&choices, r), listed);
                        }
                    }
                    g.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn rejects_bad_sizes() {
        for size in [0, 1, 17] {
            assert_eq!(
                Tabik::new(TabikConfig { size, pie: true })
                    .unwrap_err()
                    .parameter,
                "size"
            );
        }
    }
}
