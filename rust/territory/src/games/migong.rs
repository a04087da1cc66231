//! Migong: hexagonal pieces of six coloured wedges, placed so that every touching edge
//! matches; scored by the largest group extent each colour holds.
//!
//! Each empty cell keeps the set of patterns (a 64-bit mask) that fit its neighbours and
//! border edges, updated on play and undo; a colour's legal placements on a cell are that
//! mask and the colour's remaining set. Groups are built with a union-find over wedges.

use std::fmt;
use std::sync::{Arc, OnceLock};

use rand::Rng;

use crate::rules::board::{Board, Cell, HEX_DIRECTIONS};
use crate::rules::coords::Coord;
use crate::rules::error::{Excerpt, IllegalMove, InvalidMove};
use crate::rules::game::{
    BySeat, Color, ConfigError, Game, GroupInfo, GroupValue, InvalidMoveOf, MoveErrorOf, Seat,
};
use crate::rules::playout::PlayoutResult;
use crate::rules::scoring;
use crate::rules::turns;
use crate::rules::zobrist;

/// Board keys: pattern p on cell c at `c * 64 + p`; then, at `CELLS * 64 + colour * 64 + p`,
/// pattern p placed from that colour's set (so the pieces left are in the key too).
static KEYS: [u64; CELLS * 64 + 128] = zobrist::table(0x6d69_676f_6e67);

mod params;

mod error;
mod held;
mod observe;
mod position;
mod symmetry;

pub use error::{MigongIllegal, MigongInvalid};

/// The game's public types, re-exported at the crate root.
pub mod exports {
    pub use super::{Migong, MigongConfig, MigongMove, MigongIllegal, MigongInvalid};
}

pub const CELLS: usize = 126;
pub const BORDER_EDGES: usize = 84;
const WEDGES: usize = 6 * CELLS;

/// A piece's pattern: bit i is set when wedge i is Yellow (wedge i faces direction i).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// The colour of wedge `i`.
    pub fn wedge(self, i: usize) -> Color {
        if self.0 >> i & 1 == 1 {
            Color::Second
        } else {
            Color::First
        }
    }

    pub fn parse(text: &str) -> Option<Piece> {
        if text.len() != 6 {
            return None;
        }
        text.bytes()
            .enumerate()
            .try_fold(0u8, |p, (i, b)| match b {
                b'B' => Some(p),
                b'Y' => Some(p | 1 << i),
                _ => None,
            })
            .map(Piece)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..6 {
            f.write_str(if self.wedge(i) == Color::First {
                "B"
            } else {
                "Y"
            })?;
        }
        Ok(())
    }
}

/// What a group's size counts for scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GroupSize {
    /// The number of distinct pieces contributing wedges.
    #[default]
    Extent,
    /// The number of wedges.
    Wedges,
}

/// Colours of the 84 border edges, in the order of docs/games/migong.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Border {
    /// Edges facing E, NW, SW are Blue; NE, W, SE Yellow.
    Alternate,
    AllBlue,
    AllYellow,
    Explicit([Color; BORDER_EDGES]),
}

/// Parameters of a Migong game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MigongConfig {
    pub pie: bool,
    pub border: Border,
    pub group_size: GroupSize,
}

/// A Migong action; `cell` is a cell index ([`Game::move_text`] names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MigongMove {
    Place { cell: Cell, piece: Piece },
    Swap,
    Pass,
}

/// The fixed geometry: the board, and which edges of each cell are border edges.
#[derive(Debug)]
struct Geometry {
    board: Board,
    /// Per cell, the border edges as (direction, index into the 84).
    borders: Vec<Vec<(usize, usize)>>,
}

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let board = Board::hex(
            -6..=6,
            |q, r| q.abs().max(r.abs()).max((q + r).abs()) <= 6 && (q, r) != (0, 0),
            (6, 6),
        );
        let mut next = 0;
        let borders = (0..board.len())
            .map(|cell| {
                (0..6)
                    .filter(|&d| board.step(cell, d).is_none())
                    .map(|d| {
                        next += 1;
                        (d, next - 1)
                    })
                    .collect()
            })
            .collect();
        assert_eq!(next, BORDER_EDGES);
        Geometry { board, borders }
    })
}

/// Marks a missing neighbour in `STEPS`.
const NO_CELL: u8 = u8::MAX;

/// `STEPS[cell][d]`: the neighbour of `cell` in direction d, or `NO_CELL` past the rim or
/// at the central border. Built at compile time in the board's order (rows r = -6..=6,
/// q ascending within a row; a test checks it against the board), so play and undo
/// need no lookup through the shared geometry.
static STEPS: [[u8; 6]; CELLS] = {
    const fn on_board(q: i32, r: i32) -> bool {
        let s = q + r;
        q.abs() <= 6 && r.abs() <= 6 && s.abs() <= 6 && !(q == 0 && r == 0)
    }
    // `index[r + 6][q + 6]`: the cell at (q, r).
    let mut index = [[NO_CELL; 13]; 13];
    let mut next = 0;
    let mut r = -6;
    while r <= 6 {
        let mut q = -6;
        while q <= 6 {
            if on_board(q, r) {
                index[(r + 6) as usize][(q + 6) as usize] = next;
                next += 1;
            }
            q += 1;
        }
        r += 1;
    }
    let mut steps = [[NO_CELL; 6]; CELLS];
    let mut r = -6;
    while r <= 6 {
        let mut q = -6;
        while q <= 6 {
            let cell = index[(r + 6) as usize][(q + 6) as usize];
            if cell != NO_CELL {
                let mut d = 0;
                while d < 6 {
                    let (nq, nr) = (q + HEX_DIRECTIONS[d].0, r + HEX_DIRECTIONS[d].1);
                    if nq.abs() <= 6 && nr.abs() <= 6 {
                        steps[cell as usize][d] = index[(nr + 6) as usize][(nq + 6) as usize];
                    }
                    d += 1;
                }
            }
            q += 1;
        }
        r += 1;
    }
    steps
};

/// The padding cell that the missing neighbours of `AROUND` lead to: it fits nothing,
/// so its counts stay 0 whatever is asked of it.
const PAD: usize = PADDED - 1;

/// `AROUND[cell][d]`: `STEPS` with every missing neighbour sent to `PAD`, so a placement
/// updates six cells without a branch.
static AROUND: [[u8; 6]; CELLS] = {
    let mut around = [[0u8; 6]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 6 {
            let n = STEPS[cell][d];
            around[cell][d] = if n == NO_CELL { PAD as u8 } else { n };
            d += 1;
        }
        cell += 1;
    }
    around
};

/// `FACING[p][d]`: the yellow bit of wedge d of pattern p, at the place of the wedge it
/// touches on the neighbour in direction d (wedge d + 3).
static FACING: [[u8; 6]; 64] = {
    let mut facing = [[0u8; 6]; 64];
    let mut p = 0;
    while p < 64 {
        let mut d = 0;
        while d < 6 {
            facing[p][d] = ((p >> d) as u8 & 1) << ((d + 3) % 6);
            d += 1;
        }
        p += 1;
    }
    facing
};

/// `FITS[mask * 64 + value]`: the patterns p with `p & mask == value`, built at compile time.
static FITS: [u64; 64 * 64] = {
    let mut table = [0u64; 64 * 64];
    let mut mask = 0;
    while mask < 64 {
        let mut p = 0;
        while p < 64 {
            table[mask * 64 + (p & mask)] |= 1 << p;
            p += 1;
        }
        mask += 1;
    }
    table
};

/// `SLICES[d][b]`: the patterns whose wedge d has yellow bit b (`FITS` of one direction).
static SLICES: [[u64; 2]; 6] = {
    let mut slices = [[0u64; 2]; 6];
    let mut d = 0;
    while d < 6 {
        slices[d][0] = FITS[(1 << d) * 64];
        slices[d][1] = FITS[(1 << d) * 64 + (1 << d)];
        d += 1;
    }
    slices
};

/// `NARROW[p][d]`: the patterns that can still lie in direction d of pattern p (their
/// wedge d + 3 the colour of its wedge d).
static NARROW: [[u64; 6]; 64] = {
    let mut narrow = [[0u64; 6]; 64];
    let mut p = 0;
    while p < 64 {
        let mut d = 0;
        while d < 6 {
            narrow[p][d] = SLICES[(d + 3) % 6][(p >> d) & 1];
            d += 1;
        }
        p += 1;
    }
    narrow
};

/// The patterns p with `p & mask == value`.
#[inline]
fn fits(mask: u8, value: u8) -> u64 {
    FITS[mask as usize * 64 + value as usize]
}

/// What `reset` restores for a configuration: the border constraints and the patterns
/// that fit each cell of the empty board.
#[derive(Debug)]
struct Initial {
    need_mask: [u8; PADDED],
    need_yellow: [u8; PADDED],
    fit: [u64; PADDED],
    counts: [[u8; PADDED]; 2],
}

/// `CELLS` rounded up to whole blocks of 8 cells (the extra cells never fit anything).
const PADDED: usize = 128;

/// The cells of a block in the draw: its placements are summed at once (16 counts, one
/// vector), the block found among the 8 by a binary search, the cell walked to in it.
const BLOCK: usize = 16;

/// In `need_yellow`, marks a cell that no pattern fits in `drop_pattern`'s test (an
/// occupied cell or the padding): no pattern has the bit.
const OCCUPIED: u8 = 0x80;

/// Blue's full set: every pattern with a blue wedge; Yellow's: every one with a yellow.
const FULL_SETS: [u64; 2] = [!(1 << 63), !1];

/// A Migong position with its history.
#[derive(Debug)]
pub struct Migong {
    config: MigongConfig,
    /// Yellow bits of the border edges of each cell, by direction.
    border_yellow: Arc<[u8; CELLS]>,
    pieces: [Option<Piece>; CELLS],
    /// Per cell, the directions whose wedge colour is fixed (by a border edge or a
    /// neighbouring piece), and which of those must be Yellow. Padded like `counts`, so
    /// `drop_pattern` runs over whole vectors (the padding cells' counts stay 0).
    need_mask: [u8; PADDED],
    need_yellow: [u8; PADDED],
    /// Patterns that fit each empty cell (0 for occupied cells and the padding).
    fit: [u64; PADDED],
    /// The patterns each colour still has.
    remaining: [u64; 2],
    /// Per colour and cell, how many of the colour's remaining patterns fit the cell
    /// (the number of its placements there), kept up to date by play and undo.
    counts: [[u8; PADDED]; 2],
    swapped: bool,
    /// Bit `cell % 64` of word `cell / 64` is set when the piece on `cell` came from the
    /// second colour's set.
    placed_by_second: [u64; 2],
    /// The turn order before `history` (set by `from_position`).
    start: turns::Start,
    /// The position this game was set up from, when not the start position.
    setup: Option<Arc<Migong>>,
    /// The empty board's constraints for this configuration, copied by `reset`.
    initial: Arc<Initial>,
    history: Vec<MigongMove>,
    /// XOR of the keys of the pieces on the board and of the pieces used.
    board_key: u64,
}

/// `clone_from` reuses the history's allocation (searches copy their root back after
/// every iteration).
impl Clone for Migong {
    fn clone(&self) -> Migong {
        Migong {
            border_yellow: self.border_yellow.clone(),
            setup: self.setup.clone(),
            initial: self.initial.clone(),
            history: self.history.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Migong) {
        // Every field named, so that a new one cannot be left out.
        let Migong {
            config,
            border_yellow,
            pieces,
            need_mask,
            need_yellow,
            fit,
            remaining,
            counts,
            swapped,
            placed_by_second,
            start,
            setup,
            initial,
            history,
            board_key,
        } = source;
        self.config = *config;
        crate::rules::game::share_from(&mut self.border_yellow, border_yellow);
        (self.pieces, self.need_mask, self.need_yellow) = (*pieces, *need_mask, *need_yellow);
        (self.fit, self.remaining, self.counts) = (*fit, *remaining, *counts);
        (self.swapped, self.placed_by_second, self.start) = (*swapped, *placed_by_second, *start);
        crate::rules::game::share_option_from(&mut self.setup, setup);
        crate::rules::game::share_from(&mut self.initial, initial);
        self.history.clone_from(history);
        self.board_key = *board_key;
    }
}

impl PartialEq for Migong {
    fn eq(&self, other: &Migong) -> bool {
        self.config == other.config
            && self.history == other.history
            && crate::rules::position::same_setup(&self.setup, &other.setup, Migong::write_position)
    }
}

impl Migong {
    /// A new game at the start position.
    pub fn new(config: MigongConfig) -> Result<Migong, ConfigError> {
        crate::rules::params::Config::check(&config)?;
        let geometry = geometry();
        let mut border_yellow = [0u8; CELLS];
        for (cell, edges) in geometry.borders.iter().enumerate() {
            for &(d, index) in edges {
                let color = match config.border {
                    Border::Alternate => [Color::First, Color::Second][d % 2],
                    Border::AllBlue => Color::First,
                    Border::AllYellow => Color::Second,
                    Border::Explicit(colors) => colors[index],
                };
                border_yellow[cell] |= (color == Color::Second) as u8 * (1 << d);
            }
        }
        let mut need_mask = [0u8; PADDED];
        for (cell, mask) in need_mask[..CELLS].iter_mut().enumerate() {
            *mask = Self::border_edges(cell)
                .iter()
                .fold(0, |m, &(d, _)| m | 1 << d);
        }
        let mut need_yellow = [OCCUPIED; PADDED];
        need_yellow[..CELLS].copy_from_slice(&border_yellow);
        let mut fit = [0u64; PADDED];
        for (cell, fit) in fit[..CELLS].iter_mut().enumerate() {
            *fit = fits(need_mask[cell], border_yellow[cell]);
        }
        let mut counts = [[0u8; PADDED]; 2];
        for (color, counts) in counts.iter_mut().enumerate() {
            for cell in 0..CELLS {
                counts[cell] = (fit[cell] & FULL_SETS[color]).count_ones() as u8;
            }
        }
        let initial = Initial {
            need_mask,
            need_yellow,
            fit,
            counts,
        };
        let mut game = Migong {
            config,
            border_yellow: Arc::new(border_yellow),
            pieces: [None; CELLS],
            need_mask: [0; PADDED],
            need_yellow: [0; PADDED],
            fit: [0; PADDED],
            remaining: FULL_SETS,
            counts: [[0; PADDED]; 2],
            swapped: false,
            placed_by_second: [0; 2],
            start: turns::Start::default(),
            setup: None,
            initial: Arc::new(initial),
            history: Vec::with_capacity(2 * CELLS + 4),
            board_key: 0,
        };
        game.reset();
        Ok(game)
    }

    pub fn config(&self) -> MigongConfig {
        self.config
    }

    /// The board geometry (cell indices, names, neighbours).
    pub fn board() -> &'static Board {
        &geometry().board
    }

    /// The border edges of a cell, as (direction, index among the 84).
    pub fn border_edges(cell: usize) -> &'static [(usize, usize)] {
        &geometry().borders[cell]
    }

    /// The colour of each of the 84 border edges in this game.
    pub fn border_colors(&self) -> [Color; BORDER_EDGES] {
        let mut colors = [Color::First; BORDER_EDGES];
        for cell in 0..CELLS {
            for &(d, index) in Self::border_edges(cell) {
                if self.border_yellow[cell] >> d & 1 == 1 {
                    colors[index] = Color::Second;
                }
            }
        }
        colors
    }

    pub fn piece_at(&self, cell: usize) -> Option<Piece> {
        self.pieces[cell]
    }

    /// The patterns a colour still has, as a bit mask over pattern ids.
    pub fn remaining(&self, color: Color) -> u64 {
        self.remaining[color.index()]
    }

    /// The wedge colours required on an empty cell: (constrained directions, yellow bits).
    fn constraint(&self, cell: usize) -> (u8, u8) {
        (self.need_mask[cell], self.need_yellow[cell])
    }

    fn refresh_fit(&mut self, cell: usize) {
        self.fit[cell] = if self.pieces[cell].is_some() {
            0
        } else {
            fits(self.need_mask[cell], self.need_yellow[cell])
        };
    }

    /// Places (`Some`) or lifts (`None`) the piece on `cell`, updating what its
    /// neighbours require: wedge d of this piece touches wedge d + 3 of the neighbour.
    #[inline(always)]
    fn set_piece(&mut self, cell: usize, piece: Option<Piece>) {
        self.pieces[cell] = piece;
        let neighbours = STEPS[cell].map(|n| (n != NO_CELL).then_some(n as usize));
        match piece {
            Some(p) => self.place(cell, p.0),
            None => {
                self.need_yellow[cell] &= !OCCUPIED;
                self.refresh_fit(cell);
                self.recount_cell(cell);
                for (d, neighbour) in neighbours.into_iter().enumerate() {
                    if let Some(n) = neighbour {
                        let facing = 1u8 << ((d + 3) % 6);
                        self.need_mask[n] &= !facing;
                        self.need_yellow[n] &= !facing;
                        self.refresh_fit(n);
                        self.recount_cell(n);
                    }
                }
            }
        }
    }

    /// The placement of pattern `p` on the empty `cell` (after `pieces` is set): what
    /// its six neighbours require, fit and count. A new constraint only narrows what
    /// fits (occupied cells and the padding stay at 0).
    #[inline(always)]
    fn place(&mut self, cell: usize, p: u8) {
        let (around, facing, narrow) = (
            &AROUND[cell],
            &FACING[p as usize & 63],
            &NARROW[p as usize & 63],
        );
        let remaining = self.remaining;
        let cell = cell & (PADDED - 1);
        self.need_yellow[cell] |= OCCUPIED;
        self.fit[cell] = 0;
        self.counts[0][cell] = 0;
        self.counts[1][cell] = 0;
        for d in 0..6 {
            let n = around[d] as usize & (PADDED - 1);
            self.need_mask[n] |= 1 << ((d + 3) % 6);
            self.need_yellow[n] |= facing[d];
            let fit = self.fit[n] & narrow[d];
            self.fit[n] = fit;
            self.counts[0][n] = (fit & remaining[0]).count_ones() as u8;
            self.counts[1][n] = (fit & remaining[1]).count_ones() as u8;
        }
    }

    /// A uniform random action of colour `color` (index), the swap included when `pie`:
    /// placement r in the order of `legal_moves`, or the swap after them.
    #[inline(always)]
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R, color: usize, pie: bool) -> MigongMove {
        let set = self.remaining[color];
        // The placements, summed in blocks of `BLOCK` cells from the kept counts (written as
        // a plain byte sum, this compiles to one sum-of-bytes instruction per block,
        // `psadbw` on x86-64).
        let counts = &self.counts[color];
        let mut sums = [0u32; PADDED / BLOCK];
        for (sum, block) in sums.iter_mut().zip(counts.chunks_exact(BLOCK)) {
            *sum = block.iter().map(|&count| u32::from(count)).sum();
        }
        // `ends[b]`: the placements in blocks 0..=b.
        let mut ends = [0u32; PADDED / BLOCK];
        let mut end = 0;
        for (e, &sum) in ends.iter_mut().zip(&sums) {
            end += sum;
            *e = end;
        }
        let placements = end as usize;
        let total = placements + pie as usize;
        if total == 0 {
            return MigongMove::Pass;
        }
        let mut r = crate::rules::uniform::below(rng, total);
        if r == placements {
            return MigongMove::Swap;
        }
        // The block holding placement r: the number of blocks (of the 8) ending at or
        // before r, by a binary search without branches (where a walk would stop is
        // unpredictable).
        let mut block = 0;
        for step in [4, 2, 1] {
            block += step * (ends[block + step - 1] as usize <= r) as usize;
        }
        r -= block.checked_sub(1).map_or(0, |b| ends[b] as usize);
        let mut cell = BLOCK * block;
        while r >= counts[cell] as usize {
            r -= counts[cell] as usize;
            cell += 1;
        }
        MigongMove::Place {
            cell: cell as Cell,
            piece: Piece(crate::rules::bitset::select64(self.fit[cell] & set, r) as u8),
        }
    }

    /// Plays pattern `piece` from the set of colour `color` (index) on the empty `cell`.
    #[inline(always)]
    fn play_placement(&mut self, cell: usize, piece: Piece, color: usize) {
        self.pieces[cell] = Some(piece);
        self.place(cell, piece.0);
        self.remaining[color] &= !(1 << piece.0);
        self.drop_pattern(color, piece.0);
        self.board_key ^= Self::piece_key(cell, piece, Color::BOTH[color & 1]);
        self.placed_by_second[cell >> 6 & 1] |= (color as u64) << (cell & 63);
    }

    /// Recounts both colours' placements on `cell` from its fit.
    #[inline]
    fn recount_cell(&mut self, cell: usize) {
        for color in 0..2 {
            self.counts[color][cell] = (self.fit[cell] & self.remaining[color]).count_ones() as u8;
        }
    }

    /// Recounts every cell's placements (after changing `remaining` directly).
    fn recount(&mut self) {
        for cell in 0..CELLS {
            self.recount_cell(cell);
        }
    }

    /// Updates the counts after `color` used pattern `p` (already out of `remaining`):
    /// one fewer on every empty cell that `p` fits. The test runs on the constraint
    /// bytes, so it vectorises; occupied cells and the padding fit nothing there
    /// (`OCCUPIED` in `need_yellow`).
    fn drop_pattern(&mut self, color: usize, p: u8) {
        let needs = self.need_yellow.iter().zip(&self.need_mask);
        for (count, (&yellow, &mask)) in self.counts[color].iter_mut().zip(needs) {
            *count -= u8::from(p & mask == yellow);
        }
    }

    /// The key of placing `piece` on `cell` from `color`'s set.
    fn piece_key(cell: usize, piece: Piece, color: Color) -> u64 {
        let p = piece.0 as usize;
        KEYS[cell * 64 + p] ^ KEYS[CELLS * 64 + color.index() * 64 + p]
    }

    /// Recomputes the incremental part of the key, for code that sets up a position
    /// directly instead of playing moves to it.
    #[allow(dead_code)]
    pub(crate) fn rebuild_key(&mut self) {
        self.board_key = self.compute_key() ^ self.turn_key();
    }

    /// The position key recomputed from the board and the pieces left.
    pub fn compute_key(&self) -> u64 {
        let mut key = self.turn_key();
        for (cell, piece) in self.pieces.iter().enumerate() {
            if let Some(p) = piece {
                key ^= KEYS[cell * 64 + p.0 as usize];
            }
        }
        for color in Color::BOTH {
            let used = FULL_SETS[color.index()] & !self.remaining[color.index()];
            for p in 0..64 {
                if used >> p & 1 == 1 {
                    key ^= KEYS[CELLS * 64 + color.index() * 64 + p];
                }
            }
        }
        key
    }

    fn turn_key(&self) -> u64 {
        zobrist::turn_key(
            &self.start,
            &self.history,
            MigongMove::Pass,
            self.config.pie,
            self.swapped,
        )
    }

    fn mover_color(&self) -> Color {
        self.color_of(self.start.seat_of(self.history.len()))
    }

    fn pie_available(&self) -> bool {
        turns::pie_available(self.config.pie, &self.start, &self.history)
    }

    fn placement_count(&self, set: u64) -> usize {
        self.fit
            .iter()
            .map(|&f| (f & set).count_ones() as usize)
            .sum()
    }

    /// For every wedge id, the smallest wedge id of its group (meaningless for empty
    /// cells). Wedges touching across pieces always match, so they always join.
    fn wedge_roots(&self) -> [u16; WEDGES] {
        let mut root: [u16; WEDGES] = std::array::from_fn(|i| i as u16);
        fn find(root: &mut [u16; WEDGES], mut x: usize) -> usize {
            while root[x] as usize != x {
                root[x] = root[root[x] as usize];
                x = root[x] as usize;
            }
            x
        }
        fn union(root: &mut [u16; WEDGES], a: usize, b: usize) {
            let (ra, rb) = (find(root, a), find(root, b));
            root[ra.max(rb)] = ra.min(rb) as u16;
        }
        let board = Self::board();
        for cell in 0..CELLS {
            let Some(piece) = self.pieces[cell] else {
                continue;
            };
            for i in 0..6 {
                if piece.wedge(i) == piece.wedge((i + 1) % 6) {
                    union(&mut root, 6 * cell + i, 6 * cell + (i + 1) % 6);
                }
                if let Some(n) = board
                    .step(cell, i)
                    .filter(|&n| n > cell && self.pieces[n].is_some())
                {
                    union(&mut root, 6 * cell + i, 6 * n + (i + 3) % 6);
                }
            }
        }
        for x in 0..WEDGES {
            root[x] = find(&mut root, x) as u16;
        }
        root
    }

    /// Visits each group as (colour, first wedge id, wedges, extent), by first wedge id.
    fn for_each_group(&self, mut visit: impl FnMut(Color, usize, usize, usize)) {
        let root = self.wedge_roots();
        let mut wedges = [0u16; WEDGES];
        let mut extent = [0u16; WEDGES];
        for cell in 0..CELLS {
            if self.pieces[cell].is_none() {
                continue;
            }
            let roots = &root[6 * cell..6 * cell + 6];
            for i in 0..6 {
                let r = roots[i] as usize;
                wedges[r] += 1;
                if !roots[..i].contains(&roots[i]) {
                    extent[r] += 1;
                }
            }
        }
        for x in 0..WEDGES {
            if wedges[x] > 0 {
                let piece = self.pieces[x / 6].expect("wedges only on pieces");
                visit(
                    piece.wedge(x % 6),
                    x,
                    wedges[x] as usize,
                    extent[x] as usize,
                );
            }
        }
    }

    fn index_of(&self, cell: Coord) -> Result<Cell, InvalidMoveOf<Self>> {
        if cell == Coord::new(6, 6) {
            return Err(MigongInvalid::CentralBorder(cell).into());
        }
        Self::board()
            .cell(cell)
            .ok_or(InvalidMove::OffBoard { cell, side: None })
    }
}

const COLOR_NAMES: [&str; 2] = ["blue", "yellow"];
/// The directions a piece's wedges face, wedge i facing direction i.
const DIRECTION_NAMES: [&str; 6] = ["E", "NE", "NW", "W", "SW", "SE"];

/// Migong meets the contract of a game (its pieces: `impl Game` here, `params.rs`,
/// `observe.rs`, `symmetry.rs`).
impl crate::Contract for Migong {}

impl Game for Migong {
    type Move = MigongMove;
    type Score = u32;
    type Invalid = MigongInvalid;
    type Illegal = MigongIllegal;
    const NAME: &'static str = "migong";
    const COLOR_NAMES: [&'static str; 2] = COLOR_NAMES;

    fn to_move(&self) -> Option<Seat> {
        turns::to_move(&self.start, &self.history, MigongMove::Pass)
    }

    fn color_of(&self, seat: Seat) -> Color {
        turns::color_of(seat, self.swapped)
    }

    fn legal_moves_into(&self, out: &mut Vec<MigongMove>) {
        if self.is_over() {
            return;
        }
        let start = out.len();
        let set = self.remaining[self.mover_color().index()];
        for cell in 0..CELLS {
            let mut fitting = self.fit[cell] & set;
            while fitting != 0 {
                let p = fitting.trailing_zeros() as u8;
                fitting &= fitting - 1;
                out.push(MigongMove::Place {
                    cell: cell as Cell,
                    piece: Piece(p),
                });
            }
        }
        if self.pie_available() {
            out.push(MigongMove::Swap);
        }
        if out.len() == start {
            out.push(MigongMove::Pass);
        }
    }

    #[inline(always)]
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<MigongMove> {
        if self.is_over() {
            return None;
        }
        Some(self.draw(rng, self.mover_color().index(), self.pie_available()))
    }

    /// The moves of the default loop, with the turn (passes in a row, the colour to
    /// move, the pie swap's turn) kept in locals instead of read back from the history.
    #[inline(always)]
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> PlayoutResult {
        let limit = self.max_game_length();
        let mut result = PlayoutResult::default();
        let mut passes = turns::passes_in_a_row(&self.start, &self.history, MigongMove::Pass);
        // The history length at which the pie swap is available (seat 1's first turn).
        let pie_at = match (self.config.pie, self.start.ply) {
            (true, ply @ 0..=1) => 1 - ply as usize,
            _ => usize::MAX,
        };
        while passes < 2 {
            let played = self.history.len();
            crate::rules::playout::check_length(played, limit, Self::NAME);
            let color = ((self.start.ply as usize + played) % 2) ^ self.swapped as usize;
            let mv = self.draw(rng, color, played == pie_at);
            match mv {
                MigongMove::Place { cell, piece } => {
                    self.play_placement(usize::from(cell), piece, color);
                    passes = 0;
                }
                MigongMove::Swap => {
                    self.swapped = !self.swapped;
                    result.swapped = true;
                    passes = 0;
                }
                MigongMove::Pass => {
                    passes += 1;
                    result.passes += 1;
                }
            }
            self.history.push(mv);
            result.length += 1;
        }
        result.finish(self)
    }

    fn check(&self, mv: MigongMove) -> Result<(), MoveErrorOf<Self>> {
        let cell = match mv {
            MigongMove::Place { cell, piece } => {
                if piece.0 >= 64 {
                    let pattern = format!("pattern {}", piece.0);
                    return Err(MigongInvalid::Piece(Excerpt::new(&pattern)).into());
                }
                Self::board().check_cell(cell).map_err(InvalidMove::widen)?
            }
            MigongMove::Swap | MigongMove::Pass => 0,
        };
        if self.is_over() {
            return Err(IllegalMove::GameOver.into());
        }
        let color = self.mover_color();
        match mv {
            MigongMove::Place { piece, .. } => {
                // Legality is the move generator's: the piece is in the mover's set and
                // fits the cell. The rest only says why not.
                if (self.fit[cell] & self.remaining[color.index()]) >> piece.0 & 1 == 1 {
                    return Ok(());
                }
                let coord = Self::board().name(cell);
                if self.pieces[cell].is_some() {
                    return Err(IllegalMove::Occupied(coord).into());
                }
                if FULL_SETS[color.index()] >> piece.0 & 1 == 0 {
                    return Err(MigongIllegal::NotInSet { piece, color }.into());
                }
                if self.remaining[color.index()] >> piece.0 & 1 == 0 {
                    return Err(MigongIllegal::AlreadyUsed { piece, color }.into());
                }
                let (mask, yellow) = self.constraint(cell);
                if let Some(direction) =
                    (0..6).find(|&d| mask >> d & 1 == 1 && (piece.0 ^ yellow) >> d & 1 == 1)
                {
                    return Err(MigongIllegal::DoesNotFit {
                        piece,
                        cell: coord,
                        direction,
                        needed: piece.wedge(direction).other(),
                        neighbour: Self::board()
                            .step(cell, direction)
                            .map(|n| Self::board().name(n)),
                    }
                    .into());
                }
                Err(MigongIllegal::NoFit { piece, cell: coord }.into())
            }
            MigongMove::Swap => turns::check_pie_swap(self.config.pie, &self.start, &self.history),
            MigongMove::Pass => turns::check_pass(
                self.placement_count(self.remaining[color.index()]) + self.pie_available() as usize,
            ),
        }
    }

    #[inline(always)]
    fn play_unchecked(&mut self, mv: MigongMove) {
        match mv {
            MigongMove::Place { cell, piece } => {
                self.play_placement(usize::from(cell), piece, self.mover_color().index());
            }
            MigongMove::Swap => self.swapped = !self.swapped,
            MigongMove::Pass => {}
        }
        self.history.push(mv);
    }

    fn undo(&mut self) -> Option<MigongMove> {
        let mv = self.history.pop()?;
        match mv {
            MigongMove::Place { cell, piece } => {
                let color = self.mover_color();
                let cell = usize::from(cell);
                self.set_piece(cell, None);
                self.remaining[color.index()] |= 1 << piece.0;
                for c in 0..CELLS {
                    self.counts[color.index()][c] += (self.fit[c] >> piece.0 & 1) as u8;
                }
                self.board_key ^= Self::piece_key(cell, piece, color);
                self.placed_by_second[cell >> 6 & 1] &= !(1 << (cell & 63));
            }
            MigongMove::Swap => self.swapped = !self.swapped,
            MigongMove::Pass => {}
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
        self.start = turns::Start::default();
        self.placed_by_second = [0; 2];
        self.pieces = [None; CELLS];
        self.remaining = FULL_SETS;
        self.swapped = false;
        self.history.clear();
        self.board_key = 0;
        self.need_mask = self.initial.need_mask;
        self.need_yellow = self.initial.need_yellow;
        self.fit = self.initial.fit;
        self.counts = self.initial.counts;
    }

    fn history(&self) -> &[MigongMove] {
        &self.history
    }

    fn last_mover(&self) -> Option<Seat> {
        turns::last_mover(&self.start, &self.history, MigongMove::Pass)
    }

    fn scores(&self) -> BySeat<u32> {
        scoring::seat_scores(self.held(), |seat| self.color_of(seat))
    }

    fn parse_move(&self, text: &str) -> Result<MigongMove, InvalidMoveOf<Self>> {
        match text {
            "pass" => return Ok(MigongMove::Pass),
            "swap" => return Ok(MigongMove::Swap),
            _ => {}
        }
        let (cell, piece) = text.split_once(':').ok_or_else(|| InvalidMove::Syntax {
            game: "Migong",
            text: Excerpt::new(text),
            examples: "'h7:BYBYBY', 'swap' or 'pass'",
        })?;
        let cell = self.index_of(Coord::parse(cell).map_err(InvalidMove::widen)?)?;
        let piece = Piece::parse(piece).ok_or_else(|| MigongInvalid::Piece(Excerpt::new(piece)))?;
        Ok(MigongMove::Place { cell, piece })
    }

    fn fmt_move(&self, mv: MigongMove, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match mv {
            MigongMove::Place { cell, piece } => {
                Self::board().write_name(cell, f)?;
                write!(f, ":{piece}")
            }
            MigongMove::Swap => f.write_str("swap"),
            MigongMove::Pass => f.write_str("pass"),
        }
    }

    fn num_actions(&self) -> usize {
        CELLS * 64 + 2
    }

    fn action_of(&self, mv: MigongMove) -> Option<usize> {
        match mv {
            MigongMove::Place { cell, piece } => {
                Some(Self::board().on_board(cell)? * 64 + piece.0 as usize)
            }
            MigongMove::Swap => Some(CELLS * 64),
            MigongMove::Pass => Some(CELLS * 64 + 1),
        }
    }

    fn move_of(&self, action: usize) -> Option<MigongMove> {
        Some(match action {
            a if a < CELLS * 64 => MigongMove::Place {
                cell: (a / 64) as Cell,
                piece: Piece((a % 64) as u8),
            },
            a if a == CELLS * 64 => MigongMove::Swap,
            a if a == CELLS * 64 + 1 => MigongMove::Pass,
            _ => return None,
        })
    }

    fn geometry(&self) -> &Board {
        Self::board()
    }

    fn groups(&self) -> Vec<GroupInfo> {
        let root = self.wedge_roots();
        let mut groups = Vec::new();
        self.for_each_group(|color, first, wedges, extent| {
            let cells: Vec<usize> = (0..CELLS)
                .filter(|&c| {
                    self.pieces[c].is_some() && root[6 * c..6 * c + 6].contains(&(first as u16))
                })
                .collect();
            debug_assert_eq!(cells.len(), extent);
            groups.push(
                GroupInfo::new(color, cells, extent)
                    .with("wedges", GroupValue::Count(wedges as u64)),
            );
        });
        groups
    }

    fn move_cells(&self, mv: MigongMove) -> Vec<usize> {
        match mv {
            MigongMove::Place { cell, .. } => Self::board().on_board(cell).into_iter().collect(),
            MigongMove::Swap | MigongMove::Pass => Vec::new(),
        }
    }

    fn key(&self) -> u64 {
        self.board_key ^ self.turn_key()
    }

    const WIN_RULE: crate::rules::game::WinRule =
        crate::rules::game::WinRule::HigherWinsLastMoverLosesTies;
    const PASS: Option<MigongMove> = Some(MigongMove::Pass);
    const PIE_SWAP: Option<MigongMove> = Some(MigongMove::Swap);

    /// At most P = 126 placements (+ 1 swap) that are not passes. Only the closing two
    /// passes are consecutive, so every other pass comes just before a placement or swap
    /// other than the first action (and the swap never comes after a pass): at most
    /// 2 * 126 + 1 actions without the pie rule, 2 * 127 with it.
    fn max_game_length(&self) -> usize {
        if self.config.pie {
            2 * (CELLS + 1)
        } else {
            2 * CELLS + 1
        }
    }

    fn reserve_moves(&mut self) {
        let left = self.max_game_length().saturating_sub(self.history.len());
        self.history.reserve(left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::Learn;

    #[test]
    fn a_piece_that_does_not_fit_is_told_the_wedge_it_needs() {
        let refused = |moves: &[&str]| {
            let mut g = Migong::new(MigongConfig::default()).unwrap();
            let (last, first) = moves.split_last().unwrap();
            first.iter().for_each(|m| {
                g.play_str(m).unwrap();
            });
            let before = g.position();
            let err = g.play_str(last).unwrap_err().to_string();
            assert_eq!(g.position(), before);
            err
        };
        assert_eq!(refused(&["h7:BBBBBY"]), "BBBBBY does not fit on h7: its W wedge must be Y to match the border");
        // The piece matches g1's border on its NE wedge (Y), not on its W wedge.
        assert_eq!(refused(&["g1:BYBBBB"]), "BYBBBB does not fit on g1: its W wedge must be Y to match the border");
        assert_eq!(refused(&["h7:BYYYYY", "h6:YYYYYY"]), "YYYYYY does not fit on h6: its SW wedge must be B to match the border");
        assert_eq!(
            refused(&["h7:BYYYYY", "i7:YYYYYY"]),
            "YYYYYY does not fit on i7: its W wedge must be B to match the piece on h7"
        );
    }

    /// A generator whose every draw is the largest: `uniform::below(n)` gives n - 1, so
    /// each draw of a playout is its last choice, the pie swap when it is offered.
    struct Highest;

    impl rand::TryRng for Highest {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(u32::MAX)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(u64::MAX)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0xff);
            Ok(())
        }
    }

    #[test]
    fn a_playout_that_takes_the_pie_swap_plays_on_with_the_colours_swapped() {
        let mut start = Migong::new(MigongConfig::default()).unwrap();
        start.play_str("h7:BBBYBB").unwrap();
        let mut played = start.clone();
        let result = played.random_playout(&mut Highest);
        assert!(result.swapped && played.history[1] == MigongMove::Swap);
        let mut replayed = start.clone();
        for &mv in &played.history[1..] {
            replayed.play(mv).unwrap_or_else(|e| panic!("{}: {e}", replayed.move_text(mv)));
        }
        assert_eq!(replayed.position(), played.position());
        assert_eq!(replayed.outcome(), played.outcome());
    }

    #[test]
    fn a_piece_placed_leaves_its_placers_remaining_set() {
        let mut g = Migong::new(MigongConfig::default()).unwrap();
        assert_eq!(Color::BOTH.map(|c| g.remaining(c)), FULL_SETS);
        g.play_str("h7:BBBYBB").unwrap();
        let piece = g.piece_at(Migong::board().index(crate::rules::coords::Coord::parse("h7").unwrap()).unwrap()).unwrap();
        assert_eq!(g.remaining(Color::First), FULL_SETS[0] & !(1 << piece.0));
        assert_eq!(g.remaining(Color::Second), FULL_SETS[1]);
    }

    #[test]
    fn ownership_counts_a_pieces_wedges_of_each_colour() {
        let mut g = Migong::new(MigongConfig::default()).unwrap();
        g.play_str("h7:BBBYBB").unwrap();
        let h7 = Migong::board().index(crate::rules::coords::Coord::parse("h7").unwrap()).unwrap();
        let mut own = vec![9.0; g.ownership_len()];
        for (color, expected) in [(Color::First, 4.0 / 6.0), (Color::Second, -4.0 / 6.0)] {
            g.ownership_as(color, &mut own);
            assert!((own[h7] - expected).abs() < 1e-6, "{color:?}: {}", own[h7]);
            assert!(own.iter().enumerate().all(|(c, &v)| c == h7 || v == 0.0));
        }
    }

    /// Groups, as the reference reads them: h7 and i7's blue runs meet across their
    /// shared edge (10 wedges over 2 cells); each yellow wedge is a group of its own.
    #[test]
    fn groups_join_runs_across_pieces() {
        let mut g = Migong::new(MigongConfig::default()).unwrap();
        g.play_str("h7:BBBYBB").unwrap();
        g.play_str("i7:YBBBBB").unwrap();
        let cell = |name: &str| Migong::board().index(crate::rules::coords::Coord::parse(name).unwrap()).unwrap();
        let (h7, i7) = (cell("h7"), cell("i7"));
        let group = |color, cells: Vec<usize>, wedges| {
            GroupInfo::new(color, cells, 0).with("wedges", GroupValue::Count(wedges))
        };
        let mut found = g.groups();
        found.iter_mut().for_each(|group| group.size = 0);
        found.sort_by_key(|group| (group.color.index(), group.cells.clone()));
        let mut expected = vec![
            group(Color::First, vec![h7.min(i7), h7.max(i7)], 10),
            group(Color::Second, vec![h7], 1),
            group(Color::Second, vec![i7], 1),
        ];
        expected.sort_by_key(|group| (group.color.index(), group.cells.clone()));
        assert_eq!(found, expected);
        assert_eq!(g.groups().iter().map(|group| group.size).collect::<Vec<_>>(), [2, 1, 1]);
    }

    /// Through random games, `groups` gives what `held` (its own union-find) counts:
    /// per colour, the largest size of which it has more groups than the other colour,
    /// by extent and by wedges; and every wedge on the board is in one group.
    #[test]
    fn groups_agree_with_held() {
        for (seed, group_size) in [(1, GroupSize::Extent), (2, GroupSize::Wedges)] {
            let config = MigongConfig { group_size, ..MigongConfig::default() };
            for index in 0..20 {
                let mut rng = crate::rules::playout::game_rng(seed, index);
                let mut g = Migong::new(config.clone()).unwrap();
                while let Some(mv) = g.random_move(&mut rng) {
                    g.play(mv).unwrap();
                    let mut counts = [[0u32; WEDGES + 1]; 2];
                    let mut wedges = 0;
                    for group in g.groups() {
                        let GroupValue::Count(w) = group.extras[0].1 else { panic!("{group:?}") };
                        wedges += w;
                        let size = if group_size == GroupSize::Wedges { w as usize } else { group.size };
                        counts[group.color.index()][size] += 1;
                    }
                    let held = |c: usize| (0..=WEDGES).rev().find(|&s| counts[c][s] > counts[1 - c][s]).unwrap_or(0);
                    assert_eq!([held(0) as u32, held(1) as u32], g.held(), "{:?}", g.history);
                    assert_eq!(wedges, 6 * g.pieces.iter().flatten().count() as u64);
                }
            }
        }
    }

    #[test]
    fn geometry_counts() {
        assert_eq!(Migong::board().len(), CELLS);
        assert_eq!(Migong::board().name(0).to_string(), "g1");
        assert_eq!(Migong::board().name(125).to_string(), "g13");
        assert_eq!(FULL_SETS.map(u64::count_ones), [63, 63]);
    }

    #[test]
    fn steps_table_matches_board() {
        for (cell, steps) in STEPS.iter().enumerate() {
            for (d, &n) in steps.iter().enumerate() {
                let step = (n != NO_CELL).then_some(n as usize);
                assert_eq!(
                    step,
                    Migong::board().step(cell, d),
                    "cell {cell} direction {d}"
                );
            }
        }
    }

    #[test]
    fn piece_strings_round_trip() {
        for p in 0..64 {
            assert_eq!(Piece::parse(&Piece(p).to_string()), Some(Piece(p)));
        }
        assert_eq!(Piece(1).to_string(), "YBBBBB");
    }

    #[test]
    fn fits_table_matches_definition() {
        for mask in 0..64u8 {
            for value in 0..64u8 {
                let expected = (0..64u64)
                    .filter(|&p| (p as u8 & mask) == (value & mask))
                    .fold(0u64, |m, p| m | 1 << p);
                if value & !mask == 0 {
                    assert_eq!(fits(mask, value), expected);
                }
            }
        }
    }

    #[test]
    fn cell_next_to_center_needs_border_colour() {
        let mut g = Migong::new(MigongConfig::default()).unwrap();
        // h7 = (1, 0): its W edge faces the centre; W edges are Yellow by default.
        assert!(g.play_str("h7:BBBBBB").is_err());
        assert!(g.play_str("h7:BBBYBB").is_ok());
    }

    /// The counts `play_unchecked` and `undo` keep, against a recount.
    fn assert_counts_kept(game: &Migong) {
        let mut fresh = game.clone();
        fresh.recount();
        assert_eq!(game.counts, fresh.counts, "after {:?}", game.history());
    }

    #[test]
    fn kept_counts_match_a_recount() {
        let start = Migong::new(MigongConfig::default()).unwrap();
        for index in 0..20 {
            let mut game = start.clone();
            let mut rng = crate::rules::playout::game_rng(9, index);
            crate::rules::playout::play_out_observed(&mut game, &mut rng, |g, _| {
                assert_counts_kept(g)
            });
            assert_counts_kept(&game);
            while game.undo().is_some() {
                assert_counts_kept(&game);
            }
        }
    }

    #[test]
    fn a_cell_emptied_by_undo_forgets_which_colour_placed_its_piece() {
        let placement_at = |g: &Migong, not: Option<u8>| {
            g.legal_moves()
                .into_iter()
                .find(|m| {
                    matches!(m, MigongMove::Place { cell, .. } if Some(*cell) != not && cell % 64 != 0)
                })
                .unwrap()
        };
        let mut g = Migong::new(MigongConfig::default()).unwrap();
        g.play(placement_at(&g, None)).unwrap();
        let yellows = placement_at(&g, None);
        let MigongMove::Place { cell, .. } = yellows else { unreachable!() };
        g.play(yellows).unwrap();
        g.undo();
        g.play(placement_at(&g, Some(cell))).unwrap();
        let blues = g
            .legal_moves()
            .into_iter()
            .find(|m| matches!(m, MigongMove::Place { cell: c, .. } if *c == cell));
        g.play(blues.expect("Blue can place where Yellow's piece was taken back")).unwrap();
        let mut replayed = Migong::new(MigongConfig::default()).unwrap();
        g.history().iter().for_each(|&m| replayed.play(m).unwrap());
        assert_eq!(g.position(), replayed.position());
    }

    #[test]
    fn a_placement_touches_its_cell_and_the_other_moves_none() {
        let g = Migong::new(MigongConfig::default()).unwrap();
        let h7 = Migong::board().index(crate::rules::coords::Coord::parse("h7").unwrap()).unwrap();
        assert_eq!(g.move_cells(g.parse_move("h7:BBBYBB").unwrap()), [h7]);
        assert_eq!(g.move_cells(MigongMove::Swap), [0usize; 0]);
        assert_eq!(g.move_cells(MigongMove::Pass), [0usize; 0]);
    }

    #[test]
    fn random_games_finish_and_actions_round_trip() {
        let start = Migong::new(MigongConfig::default()).unwrap();
        for index in 0..20 {
            let g = crate::rules::playout::replay(&start, 5, index);
            assert!(g.is_over());
            assert!(g.winner().is_some());
        }
        for a in (0..start.num_actions()).step_by(37) {
            let mv = start.move_of(a).unwrap();
            assert_eq!(start.action_of(mv), Some(a));
        }
    }
}
