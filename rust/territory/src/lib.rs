//! `territory`: a fast, exact rules engine for Migong, Nume and Tabik, three territory
//! games by Luis Bolaños Mures (Migong with Christian Freeling).
//!
//! Every game implements [`Game`]; [`playout`](rules::playout) runs uniform random games in bulk.
//! The rules and the precise reading of them are in `docs/RULES.md`, what every game
//! shares in `docs/conventions.md`, and each game's numbering of cells and actions in
//! `docs/games/<game>.md`.
//!
//! ```
//! use territory::{Game, Tabik, TabikConfig};
//! let mut game = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
//! game.play_str("b2-b3").unwrap();
//! assert!(game.play_str("b2-c2").is_err());
//! assert_eq!(game.legal_moves().len(), 2 * 17 + 1); // 17 open edges, plus the pie swap
//! ```

pub mod bulk;
pub mod games;
pub mod observe;
pub mod rules;
pub mod search;

pub use games::exports::*;
pub use games::registry::{Contract, GameKind};
pub use observe::Learn;
pub use rules::bitset::Bits;
pub use rules::board::Cell;
pub use rules::coords::Coord;
pub use rules::error::{Excerpt, IllegalMove, InvalidMove, MoveError, Reason};
pub use rules::game::WinRule;
pub use rules::game::{
    BySeat, Color, ConfigError, Game, GroupInfo, GroupValue, InvalidMoveOf, MoveErrorOf, MoveText,
    Seat,
};
pub use rules::position::PositionError;
