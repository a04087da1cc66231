//! Game-playing search over any [`crate::Game`]: Monte Carlo tree search ([`uct`]) and an
//! exact solver ([`solve()`]). See `docs/search.md`.

pub mod guided;
pub mod network;
pub mod puct;
pub mod solve;
pub mod symmetry;
pub mod uct;
pub mod watch;

pub use guided::{prior_order, Guided};
pub use network::{Heads, Network, NetworkError, Outputs, TrunkWeights, Weights};
pub use puct::{PuctBatch, PuctConfig, PuctTree};
pub use solve::{solve, solve_ordered, solve_with, MoveOrder, Solution, SolveError, SolveLimits, SolveProgress};
pub use symmetry::Symmetric;
pub use uct::{analyse, analyse_until, analyse_watched, Analysis, UctConfig, MAX_ITERATIONS};
pub use watch::{Progress, Watch};

use crate::rules::game::{Game, Seat};

/// The result of a finished game for `seat`: +1 win, 0 draw, -1 loss.
pub fn result_for<G: Game>(game: &G, seat: Seat) -> i8 {
    match game.winner() {
        Some(w) if w == seat => 1,
        Some(_) => -1,
        None => 0,
    }
}
