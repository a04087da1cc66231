//! The games, each in its own module, and the [`registry`]: the one list of them.

pub mod migong;
pub mod nume;
pub mod registry;
pub mod tabik;
