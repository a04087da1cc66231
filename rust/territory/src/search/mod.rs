//! Game-playing search over any [`crate::Game`]: Monte Carlo tree search ([`uct`]) and an
//! exact solver ([`solve()`]). See `docs/search.md`.

pub mod solve;
pub mod uct;

pub use solve::{solve, Solution, SolveError};
pub use uct::{analyse, Analysis, UctConfig};

use crate::rules::game::{Game, Seat};

/// The result of a finished game for `seat`: +1 win, 0 draw, -1 loss.
pub fn result_for<G: Game>(game: &G, seat: Seat) -> i8 {
    match game.winner() {
        Some(w) if w == seat => 1,
        Some(_) => -1,
        None => 0,
    }
}
