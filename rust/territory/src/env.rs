//! A batch of games stepped together, for reinforcement learning: every game takes one
//! action per step, finished games start again at once, and observations, legal masks,
//! rewards and flags are written into buffers the caller owns.
//!
//! Work is split into chunks of games over a rayon pool when `threads` is more than 1;
//! results do not depend on the number of threads.

use std::fmt;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::game::Seat;
use crate::learn::Learn;
use crate::playout::{game_rng, pool};

const CHUNK: usize = 64;

/// Runs `work` on a pool of `threads` threads (here, for one thread, or if no pool
/// can be started).
fn run_on<R: Send>(threads: usize, work: impl FnOnce() -> R + Send) -> R {
    if threads == 1 {
        return work();
    }
    match pool(threads) {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// An action that cannot be played in one game of the batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    /// The index of the game in the batch.
    pub index: usize,
    pub message: String,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.index, self.message)
    }
}

impl std::error::Error for StepError {}

/// The buffers one step writes, for `batch` games: `observations` (batch x observation
/// length), `masks` (batch x number of actions), `rewards` (batch x 2, per seat),
/// `dones` and `to_move` (the seat to move in each game after the step).
pub struct Outputs<'a> {
    pub observations: &'a mut [f32],
    pub masks: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub dones: &'a mut [bool],
    pub to_move: &'a mut [i8],
}

/// `batch` games of one kind, all started from `start`.
pub struct VecEnv<G: Learn> {
    start: G,
    games: Vec<G>,
    /// One generator per game, for [`VecEnv::sample_actions`].
    rngs: Vec<Xoshiro256PlusPlus>,
    threads: usize,
}

impl<G: Learn> VecEnv<G> {
    /// `batch` copies of `start`; `seed` drives [`VecEnv::sample_actions`] only (the games
    /// themselves have no randomness); `threads` 1 runs on the calling thread.
    pub fn new(start: G, batch: usize, seed: u64, threads: usize) -> VecEnv<G> {
        VecEnv {
            games: vec![start.clone(); batch],
            rngs: (0..batch as u64).map(|i| game_rng(seed, i)).collect(),
            start,
            threads: threads.max(1),
        }
    }

    pub fn batch(&self) -> usize {
        self.games.len()
    }

    pub fn games(&self) -> &[G] {
        &self.games
    }

    pub fn observation_len(&self) -> usize {
        self.start.observation_len()
    }

    pub fn num_actions(&self) -> usize {
        self.start.num_actions()
    }

    /// Starts every game again; rewards are 0 and dones false.
    pub fn reset(&mut self, out: Outputs<'_>) {
        self.apply(None, out);
    }

    /// Plays `actions[i]` in game `i` for every game, restarting games that end.
    ///
    /// # Errors
    /// If an action is out of range or illegal in its game; then no game has changed.
    pub fn step(&mut self, actions: &[usize], out: Outputs<'_>) -> Result<(), StepError> {
        if actions.len() != self.games.len() {
            return Err(StepError {
                index: actions.len().min(self.games.len()),
                message: format!(
                    "expected {} actions, one per game, got {}",
                    self.games.len(),
                    actions.len()
                ),
            });
        }
        let games = &self.games;
        let error = run_on(self.threads, || {
            games
                .par_iter()
                .zip(actions.par_iter())
                .enumerate()
                .with_min_len(CHUNK)
                .find_map_first(|(index, (game, &action))| {
                    let mv = match game.move_of(action) {
                        Some(mv) => mv,
                        None => {
                            return Some(StepError {
                                index,
                                message: format!(
                                    "action must be from 0 to {}, got {action}",
                                    game.num_actions() - 1
                                ),
                            })
                        }
                    };
                    game.check(mv).err().map(|e| StepError {
                        index,
                        message: format!(
                            "action {action} ({}) is illegal: {e}",
                            game.move_text(mv)
                        ),
                    })
                })
        });
        if let Some(error) = error {
            return Err(error);
        }
        self.apply(Some(actions), out);
        Ok(())
    }

    /// Writes a uniformly random legal action of each game into `out`, from each game's
    /// own generator (seeded from the env's seed and the game's index).
    pub fn sample_actions(&mut self, out: &mut [usize]) {
        let (games, rngs) = (&self.games, &mut self.rngs);
        let work = || {
            games
                .par_iter()
                .zip(rngs.par_iter_mut())
                .zip(out.par_iter_mut())
                .with_min_len(CHUNK)
                .for_each(|((game, rng), action)| {
                    let count = game.legal_count();
                    *action = if count == 0 {
                        0
                    } else {
                        game.nth_legal_action(rng.random_range(0..count))
                    };
                })
        };
        run_on(self.threads, work);
    }

    /// Plays the (validated) actions, or restarts every game for `None`, and fills `out`.
    fn apply(&mut self, actions: Option<&[usize]>, out: Outputs<'_>) {
        let (obs_len, n_actions) = (self.observation_len(), self.num_actions());
        let batch = self.games.len();
        assert!(
            out.observations.len() == batch * obs_len
                && out.masks.len() == batch * n_actions
                && out.rewards.len() == 2 * batch
                && out.dones.len() == batch
                && out.to_move.len() == batch,
            "output buffers have the wrong sizes"
        );
        let start = &self.start;
        let games = &mut self.games;
        let work = move || {
            games
                .par_chunks_mut(CHUNK)
                .zip(out.observations.par_chunks_mut(CHUNK * obs_len))
                .zip(out.masks.par_chunks_mut(CHUNK * n_actions))
                .zip(out.rewards.par_chunks_mut(2 * CHUNK))
                .zip(out.dones.par_chunks_mut(CHUNK))
                .zip(out.to_move.par_chunks_mut(CHUNK))
                .enumerate()
                .for_each(
                    |(chunk, (((((games, obs), masks), rewards), dones), to_move))| {
                        for (i, game) in games.iter_mut().enumerate() {
                            let mut reward = [0.0; 2];
                            let mut done = false;
                            match actions {
                                None => crate::playout::restart(game, start),
                                Some(actions) => {
                                    let action = actions[chunk * CHUNK + i];
                                    let mv = game.move_of(action).expect("validated");
                                    game.play_unchecked(mv);
                                    if game.is_over() {
                                        reward = game.returns();
                                        done = true;
                                        crate::playout::restart(game, start);
                                    }
                                }
                            }
                            rewards[2 * i..2 * i + 2].copy_from_slice(&reward);
                            dones[i] = done;
                            to_move[i] = game.to_move().map_or(-1, |s: Seat| s.index() as i8);
                            game.observe(&mut obs[i * obs_len..(i + 1) * obs_len]);
                            game.legal_mask(&mut masks[i * n_actions..(i + 1) * n_actions]);
                        }
                    },
                )
        };
        run_on(self.threads, work);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::{Tabik, TabikConfig};

    struct Buffers {
        obs: Vec<f32>,
        masks: Vec<bool>,
        rewards: Vec<f32>,
        dones: Vec<bool>,
        to_move: Vec<i8>,
    }

    impl Buffers {
        fn new<G: Learn>(env: &VecEnv<G>) -> Buffers {
            let b = env.batch();
            Buffers {
                obs: vec![0.0; b * env.observation_len()],
                masks: vec![false; b * env.num_actions()],
                rewards: vec![0.0; 2 * b],
                dones: vec![false; b],
                to_move: vec![0; b],
            }
        }

        fn out(&mut self) -> Outputs<'_> {
            Outputs {
                observations: &mut self.obs,
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
                to_move: &mut self.to_move,
            }
        }
    }

    #[test]
    fn same_results_on_any_number_of_threads_and_errors_change_nothing() {
        let start = Tabik::new(TabikConfig { size: 3, pie: true }).unwrap();
        let mut runs = Vec::new();
        for threads in [1, 2] {
            let mut env = VecEnv::new(start.clone(), 200, 4, threads);
            let mut buf = Buffers::new(&env);
            env.reset(buf.out());
            let mut actions = vec![0; 200];
            let mut finished = 0;
            for _ in 0..60 {
                env.sample_actions(&mut actions);
                env.step(&actions, buf.out()).unwrap();
                finished += buf.dones.iter().filter(|&&d| d).count();
            }
            let before: Vec<String> = env.games().iter().map(|g| g.position()).collect();
            let mut bad = actions.clone();
            env.sample_actions(&mut bad);
            bad[137] = env.num_actions();
            let err = env.step(&bad, buf.out()).unwrap_err();
            assert_eq!(err.index, 137);
            let after: Vec<String> = env.games().iter().map(|g| g.position()).collect();
            assert_eq!(before, after);
            assert!(finished > 100);
            runs.push((buf.obs.clone(), buf.masks.clone(), finished, after));
        }
        assert!(runs[0] == runs[1]);
        assert_eq!(runs[0].3.len(), 200);
        let _ = start.legal_moves();
    }
}
