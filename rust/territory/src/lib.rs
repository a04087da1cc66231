//! `territory`: a fast, exact rules engine for Migong, Nume and Tabik, three territory
//! games by Luis Bolaños Mures (Migong with Christian Freeling).
//!
//! Every game implements [`Game`]; [`playout`] runs uniform random games in bulk.
//! The rules and the precise reading of them are in `docs/RULES.md`, the numbering of
//! cells and actions in `docs/conventions.md`.
//!
//! ```
//! use territory::{Game, Tabik, TabikConfig};
//! let mut game = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
//! game.play_str("b2-b3").unwrap();
//! assert!(game.play_str("b2-c2").is_err());
//! assert_eq!(game.legal_moves().len(), 2 * 17 + 1); // 17 open edges, plus the pie swap
//! ```

pub mod arena;
pub mod bitset;
pub mod board;
pub mod coords;
pub mod cpu;
pub mod env;
pub mod error;
pub mod game;
pub mod learn;
pub mod migong;
pub mod nume;
pub mod params;
pub mod playout;
pub mod position;
pub mod registry;
pub mod run;
pub mod scoring;
pub mod search;
pub mod tabik;
pub mod trace;
pub mod turns;
pub mod uniform;
pub mod zobrist;

pub use bitset::Bits;
pub use board::Cell;
pub use coords::Coord;
pub use error::{Excerpt, IllegalMove, InvalidMove, MoveError};
pub use game::WinRule;
pub use game::{BySeat, Color, ConfigError, Game, GroupInfo, MoveText, Seat};
pub use learn::Learn;
pub use migong::{Migong, MigongConfig, MigongMove};
pub use nume::{Nume, NumeConfig, NumeMove};
pub use position::PositionError;
pub use registry::GameKind;
pub use tabik::{Tabik, TabikConfig, TabikMove};
