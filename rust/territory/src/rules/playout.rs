//! Uniform random playouts, one at a time or in bulk across a thread pool.
//!
//! Game `i` of a run with seed `s` draws from its own generator, seeded from `(s, i)`
//! alone, so results do not depend on the number of threads or on how a run is split
//! into batches, and any single game can be replayed from its seed and index.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rand::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};
use rayon::prelude::*;

use crate::rules::game::{Game, Seat};

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
    game.random_playout(rng)
}

/// [`play_out`] move by move, calling `before_move(game, mv)` before each move is played
/// (the move stream is the same: the observer sees the game but cannot change it).
///
/// # Panics
/// If the game runs past [`Game::max_game_length`]: a rule bug, not bad input.
pub fn play_out_observed<G: Game, R: Rng + ?Sized>(
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
    /// This result (`length`, `passes` and `swapped` counted) with the winner and scores
    /// of `game`, which the playout ended.
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
/// If a pool of `threads` threads cannot be started.
pub fn run<G: Game>(
    start: &G,
    seed: u64,
    first: u64,
    out: &mut [PlayoutResult],
    threads: Option<usize>,
) -> Result<(), rayon::ThreadPoolBuildError> {
    const CHUNK: usize = 256;
    let work = |out: &mut [PlayoutResult]| {
        out.par_chunks_mut(CHUNK).enumerate().for_each_init(
            || start.clone(),
            |game, (chunk, results)| {
                for (i, result) in results.iter_mut().enumerate() {
                    let index = first + (chunk * CHUNK + i) as u64;
                    restart(game, start);
                    *result = play_out(game, &mut game_rng(seed, index));
                }
            },
        )
    };
    match threads {
        None if !forked_since_global_pool() => work(out),
        None => pool(rayon::current_num_threads())?.install(|| work(out)),
        Some(n) => pool(n)?.install(|| work(out)),
    }
    Ok(())
}

/// Whether this process is a fork of one that used rayon's global pool: the fork has
/// the pool's state but not its threads, so work sent there would wait forever (a
/// `ProcessPoolExecutor` forks its workers from a process that may have run playouts).
fn forked_since_global_pool() -> bool {
    static GLOBAL_POOL_PID: OnceLock<u32> = OnceLock::new();
    *GLOBAL_POOL_PID.get_or_init(std::process::id) != std::process::id()
}

/// Puts `game` back to `start`, reusing its allocations when `start` is a fresh game.
pub fn restart<G: Game>(game: &mut G, start: &G) {
    if start.history().is_empty() {
        game.reset();
    } else {
        game.clone_from(start);
    }
}

/// A cached thread pool with `threads` threads, of this process (a forked child starts
/// its own pools: it inherits the parent's cache but not the threads behind it).
pub(crate) fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    type Pools = (u32, HashMap<usize, Arc<rayon::ThreadPool>>);
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let mut guard = POOLS
        .get_or_init(|| Mutex::new((std::process::id(), HashMap::new())))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let (pid, pools) = &mut *guard;
    if *pid != std::process::id() {
        // The parent's pools have no threads here; dropping one would signal them, so
        // leave them be.
        std::mem::forget(std::mem::take(pools));
        *pid = std::process::id();
    }
    let threads = threads.max(1);
    if let Some(pool) = pools.get(&threads) {
        return Ok(pool.clone());
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?,
    );
    pools.insert(threads, pool.clone());
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Tabik, TabikConfig};

    #[test]
    fn same_results_for_any_thread_count_and_split() {
        let start = Tabik::new(TabikConfig { size: 5, pie: true }).unwrap();
        let mut one = vec![PlayoutResult::default(); 600];
        run(&start, 7, 0, &mut one, Some(1)).unwrap();
        let mut two = vec![PlayoutResult::default(); 600];
        run(&start, 7, 0, &mut two[..250], Some(2)).unwrap();
        run(&start, 7, 250, &mut two[250..], Some(2)).unwrap();
        assert_eq!(one, two);
        let replayed = replay(&start, 7, 321);
        assert_eq!(replayed.history().len() as u32, one[321].length);
        assert_eq!(
            replayed.winner().map_or(-1, |s| s.index() as i8),
            one[321].winner
        );
    }
}
