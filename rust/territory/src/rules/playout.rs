//! Uniform random playouts, one at a time or in bulk across a thread pool.
//!
//! Game `i` of a run with seed `s` draws from its own generator, seeded from `(s, i)`
//! alone, so results do not depend on the number of threads or on how a run is split
//! into batches, and any single game can be replayed from its seed and index.

use rand::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

use crate::rules::game::{Game, Seat};
use crate::rules::run::{RunError, Stop};

/// What one random game produced.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayoutResult {
    /// Winning seat 0 or 1, or -1 for a draw.
    pub winner: i8,
    /// Number of actions, passes and the pie swap included.
    pub length: u32,
    /// Number of passes.
    pub passes: u32,
    /// Whether the pie swap was taken.
    pub swapped: bool,
    /// Final scores of seats 0 and 1.
    pub scores: [f64; 2],
}

/// The generator of game `index` in a run seeded with `seed`.
pub fn game_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let run_key = rand::Rng::next_u64(&mut SplitMix64::seed_from_u64(seed));
    Xoshiro256PlusPlus::seed_from_u64(run_key ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Plays `game` (from its current position) to the end with uniform random moves
/// ([`Game::random_playout`]: the game's own loop, the same moves as
/// [`play_out_observed`]).
///
/// # Panics
/// If the game runs past [`Game::max_game_length`]: a rule bug, not bad input.
pub fn play_out<G: Game>(game: &mut G, rng: &mut Xoshiro256PlusPlus) -> PlayoutResult {
    crate::rules::cpu::dispatch(
        #[inline(always)]
        || game.random_playout(rng),
    )
}

/// [`play_out`] move by move, calling `before_move(game, mv)` before each move is played
/// (the move stream is the same: the observer sees the game but cannot change it).
///
/// # Panics
/// If the game runs past [`Game::max_game_length`]: a rule bug, not bad input.
pub fn play_out_observed<G: Game, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    before_move: impl FnMut(&G, G::Move),
) -> PlayoutResult {
    crate::rules::cpu::dispatch(
        #[inline(always)]
        || observed_loop(game, rng, before_move),
    )
}

/// The loop of [`play_out_observed`].
#[inline(always)]
fn observed_loop<G: Game, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    mut before_move: impl FnMut(&G, G::Move),
) -> PlayoutResult {
    let mut result = PlayoutResult::default();
    let limit = game.max_game_length();
    while let Some(mv) = game.random_move(rng) {
        check_length(game.history().len(), limit, G::NAME);
        before_move(game, mv);
        game.play_unchecked(mv);
        result.length += 1;
        result.passes += G::is_pass(mv) as u32;
        result.swapped |= G::is_pie_swap(mv);
    }
    result.finish(game)
}

/// Fails if a game with `played` actions so far, about to play another, would run past
/// its maximum length `limit` ([`Game::max_game_length`]).
#[inline]
pub(crate) fn check_length(played: usize, limit: usize, game: &str) {
    if played >= limit {
        ran_past(limit, game);
    }
}

/// The panic of [`check_length`], out of the playout loops.
#[cold]
#[inline(never)]
fn ran_past(limit: usize, game: &str) -> ! {
    panic!("a {game} game ran past its maximum length {limit}")
}

impl PlayoutResult {
    /// The result for `seat`: +1 win, 0 draw, -1 loss (as [`crate::search::result_for`]
    /// of the finished game, without scoring it again).
    #[inline]
    pub fn result_for(&self, seat: Seat) -> i8 {
        match self.winner {
            -1 => 0,
            w if w == seat.index() as i8 => 1,
            _ => -1,
        }
    }

    /// This result (`length`, `passes` and `swapped` counted) with the winner and scores
    /// of `game`, which the playout ended.
    #[inline(always)]
    pub(crate) fn finish<G: Game>(mut self, game: &G) -> PlayoutResult {
        let (scores, winner) = game.outcome();
        self.scores = [scores[Seat::First].into(), scores[Seat::Second].into()];
        self.winner = winner.map_or(-1, |seat| seat.index() as i8);
        self
    }
}

/// The moves of game `index` of the run seeded with `seed`, started from `start`.
pub fn replay<G: Game>(start: &G, seed: u64, index: u64) -> G {
    let mut game = start.clone();
    play_out(&mut game, &mut game_rng(seed, index));
    game
}

/// Plays games `first .. first + out.len()` of the run seeded with `seed` from `start`,
/// on `threads` threads (`None`: all cores), writing game `first + i` to `out[i]`.
///
/// # Errors
/// If a pool of `threads` threads cannot be started, or `stop` is set before the end.
pub fn run<G: Game>(
    start: &G,
    seed: u64,
    first: u64,
    out: &mut [PlayoutResult],
    threads: Option<usize>,
    stop: &Stop,
) -> Result<(), RunError> {
    crate::rules::run::chunks(
        out,
        256,
        threads,
        stop,
        || start.clone(),
        |game, at, results| {
            play_chunk(game, start, seed, first + at as u64, results);
            Ok::<_, RunError>(())
        },
    )?;
    Ok(())
}

/// Plays games `first ..` of the run seeded with `seed` from `start` into `results`,
/// with `game` as scratch. Not inlined into the run loop's plumbing: the playout loop
/// is compiled on its own, the same however the run loop changes.
#[inline(never)]
fn play_chunk<G: Game>(
    game: &mut G,
    start: &G,
    seed: u64,
    first: u64,
    results: &mut [PlayoutResult],
) {
    for (i, result) in results.iter_mut().enumerate() {
        restart(game, start);
        *result = play_out(game, &mut game_rng(seed, first + i as u64));
    }
}

/// Puts `game` back to `start`, reusing its allocations when `start` is a fresh game.
pub fn restart<G: Game>(game: &mut G, start: &G) {
    if start.history().is_empty() {
        game.reset();
    } else {
        game.clone_from(start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Tabik, TabikConfig};

    /// A playout about to play past its game's maximum length fails (it would loop for
    /// ever on broken rules), and not before.
    #[test]
    fn a_game_past_its_maximum_length_fails() {
        check_length(9, 10, "Tabik");
        let past = std::panic::catch_unwind(|| check_length(10, 10, "Tabik")).unwrap_err();
        let said = past.downcast_ref::<String>().expect("a formatted message");
        assert_eq!(said, "a Tabik game ran past its maximum length 10");
    }

    #[test]
    fn same_results_for_any_thread_count_and_split() {
        let start = Tabik::new(TabikConfig { size: 5, pie: true }).unwrap();
        let mut one = vec![PlayoutResult::default(); 600];
        run(&start, 7, 0, &mut one, Some(1), &Stop::new()).unwrap();
        let mut two = vec![PlayoutResult::default(); 600];
        run(&start, 7, 0, &mut two[..250], Some(2), &Stop::new()).unwrap();
        run(&start, 7, 250, &mut two[250..], Some(2), &Stop::new()).unwrap();
        assert_eq!(one, two);
        let replayed = replay(&start, 7, 321);
        assert_eq!(replayed.history().len() as u32, one[321].length);
        assert_eq!(
            replayed.winner().map_or(-1, |s| s.index() as i8),
            one[321].winner
        );
    }
}
