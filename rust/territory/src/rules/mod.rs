//! What every game is built on: the board and its cells, coordinates, bit sets, Zobrist
//! keys, turn order and the pie rule, scoring, position strings, parameters, the [`Game`]
//! trait and its errors, the random playout and the one run loop over a thread pool (fork-safe,
//! interruptible), the uniform draw, and CPU dispatch for the hot loops.
//!
//! [`Game`]: game::Game

pub mod bitset;
pub mod board;
pub mod coords;
pub mod cpu;
pub mod error;
pub mod game;
pub mod params;
pub mod playout;
pub mod position;
pub mod run;
pub mod scoring;
pub mod turns;
pub mod uniform;
pub mod zobrist;
