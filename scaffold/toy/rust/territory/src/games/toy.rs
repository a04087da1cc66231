//! Toy: the scaffold docs/adding-a-game.md walks through, the smallest game that meets
//! the whole contract. Copy `scaffold/toy/` into the repository, rename `toy`/`Toy`,
//! add the registry line, and change the rules; `tests/test_scaffold.py` builds it.
//!
//! The rules: a `size` x `size` board; Black (seat 0) and White take turns to place a
//! stone of their colour on an empty cell (`c3`) or to `pass`; two passes in a row end
//! the game. A player's score is the size of their largest group (orthogonally adjacent
//! stones of their colour); the higher score wins, and at equal scores the last player to
//! place a stone loses.
//!
//! The pieces of the contract: `impl Game` here, its parameters in `toy/params.rs`
//! (`Configurable`), its position strings, observations and masks in `toy/observe.rs`
//! and `toy/position.rs` (`Learn`), and `impl Symmetric` here (no symmetries: a game
//! with some writes them in `toy/symmetry.rs`, like `tabik/symmetry.rs`).

use std::convert::Infallible;
use std::fmt;
use std::sync::Arc;

use crate::rules::bitset::Bits;
use crate::rules::board::{Board, Cell};
use crate::rules::coords::Coord;
use crate::rules::error::{Excerpt, IllegalMove, InvalidMove};
use crate::rules::game::{BySeat, Color, ConfigError, Game, GroupInfo, MoveErrorOf, Seat};
use crate::rules::{turns, zobrist};
use crate::search::symmetry::Symmetric;

mod observe;
mod params;
mod position;

/// The game's public types, re-exported at the crate root.
pub mod exports {
    pub use super::{Toy, ToyConfig, ToyMove};
}

/// Board keys: a stone of colour `c` on cell `i` is `KEYS[256 * c + i]`.
static KEYS: [u64; 512] = zobrist::table(0x746f79);

/// Parameters of a Toy game (described in `toy/params.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToyConfig {
    /// Board side, 2 to 16.
    pub size: usize,
}

/// A Toy action: a stone on a cell (a cell index), or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToyMove {
    Place(Cell),
    Pass,
}

/// A Toy position with its history.
#[derive(Clone, Debug, PartialEq)]
pub struct Toy {
    size: usize,
    board: Arc<Board>,
    /// The turn order before `history` (set by `from_position`).
    start: turns::Start,
    /// Stones by colour: [black, white].
    stones: [Bits; 2],
    history: Vec<ToyMove>,
    /// XOR of the keys of the stones on the board.
    board_key: u64,
}

impl Toy {
    /// A new game at the start position.
    pub fn new(config: ToyConfig) -> Result<Toy, ConfigError> {
        crate::rules::params::Config::check(&config)?;
        Ok(Toy {
            size: config.size,
            board: Board::square_shared(config.size),
            start: turns::Start::default(),
            stones: [Bits::EMPTY; 2],
            history: Vec::new(),
            board_key: 0,
        })
    }

    pub fn config(&self) -> ToyConfig {
        ToyConfig { size: self.size }
    }

    /// The colour of the stone on a cell, if any.
    pub fn stone_at(&self, cell: usize) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.stones[c.index()].contains(cell))
    }

    fn empty(&self) -> Bits {
        self.board.all() & !(self.stones[0] | self.stones[1])
    }

    /// Puts or takes away a stone of `color` on `cell`.
    fn toggle(&mut self, color: Color, cell: Cell) {
        let (c, i) = (color.index(), usize::from(cell));
        self.stones[c] = self.stones[c] ^ Bits::single(i);
        self.board_key ^= KEYS[256 * c + i];
    }

    /// Stone groups as (colour, cells), ordered by first cell.
    fn group_sets(&self) -> Vec<(Color, Bits)> {
        let mut groups = Vec::new();
        for color in Color::BOTH {
            self.board
                .components(self.stones[color.index()], |g| groups.push((color, g)));
        }
        groups.sort_by_key(|(_, g)| g.first());
        groups
    }
}

/// Toy meets the contract of a game: the compiler names any missing piece here.
impl crate::Contract for Toy {}

/// No symmetries: the solver keys positions by `Game::key` alone.
impl Symmetric for Toy {}

impl Game for Toy {
    type Move = ToyMove;
    type Score = u32;
    type Invalid = Infallible;
    type Illegal = Infallible;
    const NAME: &'static str = "toy";
    const COLOR_NAMES: [&'static str; 2] = ["black", "white"];
    const WIN_RULE: crate::rules::game::WinRule =
        crate::rules::game::WinRule::HigherWinsLastMoverLosesTies;
    const PASS: Option<ToyMove> = Some(ToyMove::Pass);
    const PIE_SWAP: Option<ToyMove> = None;

    fn to_move(&self) -> Option<Seat> {
        turns::to_move(&self.start, &self.history, ToyMove::Pass)
    }

    fn color_of(&self, seat: Seat) -> Color {
        turns::color_of(seat, false)
    }

    fn legal_moves_into(&self, out: &mut Vec<ToyMove>) {
        if !self.is_over() {
            out.extend(self.empty().iter().map(|i| ToyMove::Place(i as Cell)));
            out.push(ToyMove::Pass);
        }
    }

    fn check(&self, mv: ToyMove) -> Result<(), MoveErrorOf<Self>> {
        let cell = match mv {
            ToyMove::Place(cell) => Some(self.board.check_cell(cell)?),
            ToyMove::Pass => None,
        };
        if self.is_over() {
            return Err(IllegalMove::GameOver.into());
        }
        match cell {
            Some(i) if !self.empty().contains(i) => {
                Err(IllegalMove::Occupied(self.board.name(i)).into())
            }
            _ => Ok(()),
        }
    }

    fn play_unchecked(&mut self, mv: ToyMove) {
        if let ToyMove::Place(cell) = mv {
            self.toggle(self.color_of(self.start.seat_of(self.history.len())), cell);
        }
        self.history.push(mv);
    }

    fn undo(&mut self) -> Option<ToyMove> {
        let mv = self.history.pop()?;
        if let ToyMove::Place(cell) = mv {
            self.toggle(self.color_of(self.start.seat_of(self.history.len())), cell);
        }
        Some(mv)
    }

    /// Back to where the game started (a set-up position's board stays).
    fn reset(&mut self) {
        while self.undo().is_some() {}
    }

    fn history(&self) -> &[ToyMove] {
        &self.history
    }

    fn last_mover(&self) -> Option<Seat> {
        turns::last_mover(&self.start, &self.history, ToyMove::Pass)
    }

    fn scores(&self) -> BySeat<u32> {
        let mut largest = [0; 2];
        for (color, group) in self.group_sets() {
            largest[color.index()] = largest[color.index()].max(group.count() as u32);
        }
        BySeat(Seat::BOTH.map(|seat| largest[self.color_of(seat).index()]))
    }

    fn parse_move(&self, text: &str) -> Result<ToyMove, InvalidMove> {
        if text == "pass" {
            return Ok(ToyMove::Pass);
        }
        let name = Coord::parse(text).map_err(|e| match e {
            InvalidMove::CellName(_) => InvalidMove::Syntax {
                game: "Toy",
                text: Excerpt::new(text),
                examples: "'c3' or 'pass'",
            },
            other => other,
        })?;
        let off_board = InvalidMove::OffBoard {
            cell: name,
            side: Some(self.size),
        };
        self.board.cell(name).map(ToyMove::Place).ok_or(off_board)
    }

    fn fmt_move(&self, mv: ToyMove, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match mv {
            ToyMove::Place(cell) => self.board.write_name(cell, f),
            ToyMove::Pass => f.write_str("pass"),
        }
    }

    /// One action per cell, then `pass`.
    fn num_actions(&self) -> usize {
        self.board.len() + 1
    }

    fn action_of(&self, mv: ToyMove) -> Option<usize> {
        match mv {
            ToyMove::Place(cell) => self.board.on_board(cell),
            ToyMove::Pass => Some(self.board.len()),
        }
    }

    fn move_of(&self, action: usize) -> Option<ToyMove> {
        let n = self.board.len();
        if action < n {
            Some(ToyMove::Place(action as Cell))
        } else {
            (action == n).then_some(ToyMove::Pass)
        }
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

    fn move_cells(&self, mv: ToyMove) -> Vec<usize> {
        match mv {
            ToyMove::Place(cell) => self.board.on_board(cell).into_iter().collect(),
            ToyMove::Pass => Vec::new(),
        }
    }

    fn key(&self) -> u64 {
        self.board_key ^ zobrist::turn_key(&self.start, &self.history, ToyMove::Pass, false, false)
    }

    /// Every cell once, each placement after at most one pass, and the two closing passes.
    fn max_game_length(&self) -> usize {
        2 * self.board.len() + 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_game() {
        let mut g = Toy::new(ToyConfig { size: 2 }).unwrap();
        for mv in ["a1", "b2", "a2", "pass", "pass"] {
            g.play_str(mv).unwrap();
        }
        // Black a1 and a2 (a group of 2), White b2 (1).
        assert_eq!(
            (g.scores(), g.winner()),
            (BySeat([2, 1]), Some(Seat::First))
        );
        assert_eq!(g.play_str("b1").unwrap_err().kind(), "game_over");
        g.reset();
        assert_eq!(g, Toy::new(ToyConfig { size: 2 }).unwrap());
    }
}
