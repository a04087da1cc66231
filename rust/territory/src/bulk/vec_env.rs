//! A batch of games stepped together, for reinforcement learning: every game takes one
//! action per step, finished games start again at once, and observations, legal masks,
//! rewards and flags are written into buffers the caller owns.
//!
//! Work is split into chunks of games over a pool of the run loop ([`crate::rules::run::pool`]) when `threads` is more than 1
//! and the batch holds enough work for more than one chunk (see [`MIN_CHUNK_VALUES`]);
//! otherwise the calling thread steps every game itself. Games are independent, so
//! results do not depend on the number of threads or on the split.

use std::fmt;
use std::sync::Arc;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::observe::Learn;
use crate::rules::game::Seat;
use crate::rules::playout::game_rng;
use crate::rules::run::pool;

/// The fewest output values (observation and mask values, which a step writes for every
/// game and which dominate its cost) in one chunk of games given to the pool: some tens
/// of microseconds of work, well above the few microseconds of handing a chunk to a
/// thread and waiting for it.
const MIN_CHUNK_VALUES: usize = 1 << 16;

/// The number of games in a chunk, for games of `values` observation and mask values:
/// [`MIN_CHUNK_VALUES`] or more, rounded up to a power of two so that a batch of a power
/// of two splits into equal halves (measured: 15% more steps/s for Tabik on 2 threads
/// than chunks of 78 games). Tabik's 850 values give chunks of 128 games, Nume's 4,816
/// of 16, Migong's 12,291 of 8.
fn chunk_games(values: usize) -> usize {
    MIN_CHUNK_VALUES.div_ceil(values.max(1)).next_power_of_two()
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

/// A type observations are written as: `f32` (the games' own values) or `u8` (for
/// games whose values are all whole numbers, [`Learn::WHOLE_OBSERVATIONS`]: each value
/// v stored as v mod 256, so -1 becomes 255 and the bytes read as `i8` give v back).
pub trait ObservationValue: Copy + Send + Sync + 'static {
    /// Writes `game`'s observation into `out`; `scratch` is a buffer the caller keeps
    /// between games.
    fn write<G: Learn>(game: &G, out: &mut [Self], scratch: &mut Vec<f32>);
}

impl ObservationValue for f32 {
    #[inline]
    fn write<G: Learn>(game: &G, out: &mut [f32], _scratch: &mut Vec<f32>) {
        game.observe(out);
    }
}

/// The byte of each whole observation value, by the top byte of its `f32` bits: 0.0
/// (0x00), 1.0 (0x3F), 2.0 (0x40) and -1.0 (0xBF, stored as 255). A table lookup is
/// several times faster than a float-to-int conversion, which must saturate.
const BYTE_OF_TOP_BITS: [u8; 256] = {
    let mut table = [0u8; 256];
    table[0x3F] = 1;
    table[0x40] = 2;
    table[0xBF] = 255;
    table
};

impl ObservationValue for u8 {
    #[inline]
    fn write<G: Learn>(game: &G, out: &mut [u8], scratch: &mut Vec<f32>) {
        debug_assert!(
            G::WHOLE_OBSERVATIONS,
            "{} has fractional observation values",
            G::NAME
        );
        scratch.resize(out.len(), 0.0);
        game.observe(scratch);
        for (byte, &value) in out.iter_mut().zip(scratch.iter()) {
            *byte = BYTE_OF_TOP_BITS[(value.to_bits() >> 24) as usize];
            debug_assert_eq!(*byte as i8 as f32, value, "not a whole value from -1 to 2");
        }
    }
}

/// A type legal masks are written as: `bool` (one per action) or `u8` (packed bits:
/// action `a` is bit `a % 8` of byte `a / 8`, numpy's `bitorder="little"`).
pub trait MaskValue: Copy + Send + Sync + 'static {
    /// The values of one game's mask, for `num_actions` actions.
    fn len(num_actions: usize) -> usize;
    /// Writes `game`'s legal mask into `out`; `scratch` is a buffer the caller keeps.
    fn write<G: Learn>(game: &G, out: &mut [Self], scratch: &mut Vec<bool>);
}

impl MaskValue for bool {
    #[inline]
    fn len(num_actions: usize) -> usize {
        num_actions
    }

    #[inline]
    fn write<G: Learn>(game: &G, out: &mut [bool], _scratch: &mut Vec<bool>) {
        game.legal_mask(out);
    }
}

impl MaskValue for u8 {
    #[inline]
    fn len(num_actions: usize) -> usize {
        num_actions.div_ceil(8)
    }

    #[inline]
    fn write<G: Learn>(game: &G, out: &mut [u8], scratch: &mut Vec<bool>) {
        scratch.resize(game.num_actions(), false);
        game.legal_mask(scratch);
        // Eight 0/1 bytes as one word; the multiply gathers byte i's bit into bit 56 + i
        // (the shifted copies never overlap, so nothing carries).
        let pack = |word: [u8; 8]| {
            (u64::from_le_bytes(word).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
        };
        let mut chunks = scratch.chunks_exact(8);
        for (byte, bits) in out.iter_mut().zip(&mut chunks) {
            *byte = pack(std::array::from_fn(|i| bits[i] as u8));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let last = out.len() - 1;
            out[last] = pack(std::array::from_fn(|i| rest.get(i).map_or(0, |&b| b as u8)));
        }
    }
}

/// The buffers one step writes, for `batch` games: `observations` (batch x observation
/// length, as `f32` or `u8`), `masks` (batch x number of actions as `bool`, or their
/// packed bits as `u8`), `rewards` (batch x 2, per seat), `dones` and `to_move` (the
/// seat to move in each game after the step).
pub struct Outputs<'a, O: ObservationValue = f32, M: MaskValue = bool> {
    pub observations: &'a mut [O],
    pub masks: &'a mut [M],
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
    pub fn reset<O: ObservationValue, M: MaskValue>(&mut self, out: Outputs<'_, O, M>) {
        match self.split() {
            Some((pool, chunk)) => pool.install(|| self.apply(None, out, chunk)),
            None => self.apply(None, out, self.games.len()),
        }
    }

    /// The pool and the number of games in a chunk when the batch is split over
    /// threads; `None` to step every game on the calling thread (one thread, a batch
    /// with too little work for two chunks, or no pool to be had).
    fn split(&self) -> Option<(Arc<rayon::ThreadPool>, usize)> {
        let chunk = chunk_games(self.observation_len() + self.num_actions());
        if self.threads == 1 || self.games.len() < 2 * chunk {
            return None;
        }
        pool(Some(self.threads)).ok().map(|pool| (pool, chunk))
    }

    /// Plays `actions[i]` in game `i` for every game, restarting games that end.
    ///
    /// # Errors
    /// If an action is out of range or illegal in its game; then no game has changed.
    pub fn step<O: ObservationValue, M: MaskValue>(
        &mut self,
        actions: &[usize],
        out: Outputs<'_, O, M>,
    ) -> Result<(), StepError> {
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
        // Checking and playing in one visit to the pool: its threads are still awake
        // for the second pass.
        let split = self.split();
        let work = |chunk: Option<usize>| {
            let games = &self.games;
            let error = match chunk {
                Some(chunk) => games
                    .par_iter()
                    .zip(actions)
                    .enumerate()
                    .with_min_len(chunk)
                    .find_map_first(|(index, (game, &action))| check(index, game, action)),
                None => games
                    .iter()
                    .zip(actions)
                    .enumerate()
                    .find_map(|(index, (game, &action))| check(index, game, action)),
            };
            match error {
                Some(error) => Err(error),
                None => {
                    self.apply(Some(actions), out, chunk.unwrap_or(games.len()));
                    Ok(())
                }
            }
        };
        match split {
            Some((pool, chunk)) => pool.install(|| work(Some(chunk))),
            None => work(None),
        }
    }

    /// Writes a uniformly random legal action of each game into `out`, from each game's
    /// own generator (seeded from the env's seed and the game's index).
    pub fn sample_actions(&mut self, out: &mut [usize]) {
        let split = self.split();
        let (games, rngs) = (&self.games, &mut self.rngs);
        let sample = |((game, rng), action): ((&G, &mut Xoshiro256PlusPlus), &mut usize)| {
            let count = game.legal_count();
            *action = if count == 0 {
                0
            } else {
                game.nth_legal_action(rng.random_range(0..count))
            };
        };
        match split {
            Some((pool, chunk)) => pool.install(|| {
                games
                    .par_iter()
                    .zip(rngs.par_iter_mut())
                    .zip(out.par_iter_mut())
                    .with_min_len(chunk)
                    .for_each(sample)
            }),
            None => games
                .iter()
                .zip(rngs.iter_mut())
                .zip(out.iter_mut())
                .for_each(sample),
        }
    }

    /// Plays the (validated) actions, or restarts every game for `None`, and fills `out`,
    /// in chunks of `chunk` games: in parallel (inside the pool) unless `chunk` is the
    /// whole batch.
    fn apply<O: ObservationValue, M: MaskValue>(
        &mut self,
        actions: Option<&[usize]>,
        out: Outputs<'_, O, M>,
        chunk: usize,
    ) {
        let (obs_len, n_actions) = (self.observation_len(), M::len(self.num_actions()));
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
        // One chunk of games, the first being game `first` of the batch, with its outputs;
        // always inlined, into each copy of `cpu::dispatch`.
        let step_chunk = crate::rules::cpu::inlined(
            #[inline(always)]
            |first: usize, games: &mut [G], out: Outputs<'_, O, M>| {
                let Outputs {
                    observations: obs,
                    masks,
                    rewards,
                    dones,
                    to_move,
                } = out;
                let (mut scratch, mut mask_scratch) = (Vec::new(), Vec::new());
                for (i, game) in games.iter_mut().enumerate() {
                    let mut reward = [0.0; 2];
                    let mut done = false;
                    match actions {
                        None => crate::rules::playout::restart(game, start),
                        Some(actions) => {
                            let mv = game.move_of(actions[first + i]).expect("validated");
                            game.play_unchecked(mv);
                            if game.is_over() {
                                reward = game.returns();
                                done = true;
                                crate::rules::playout::restart(game, start);
                            }
                        }
                    }
                    rewards[2 * i..2 * i + 2].copy_from_slice(&reward);
                    dones[i] = done;
                    to_move[i] = game.to_move().map_or(-1, |s: Seat| s.index() as i8);
                    O::write(game, &mut obs[i * obs_len..(i + 1) * obs_len], &mut scratch);
                    let mask = &mut masks[i * n_actions..(i + 1) * n_actions];
                    M::write(game, mask, &mut mask_scratch);
                }
            },
        );
        if chunk >= batch {
            crate::rules::cpu::dispatch(
                #[inline(always)]
                || step_chunk(0, &mut self.games, out),
            );
            return;
        }
        self.games
            .par_chunks_mut(chunk)
            .zip(out.observations.par_chunks_mut(chunk * obs_len))
            .zip(out.masks.par_chunks_mut(chunk * n_actions))
            .zip(out.rewards.par_chunks_mut(2 * chunk))
            .zip(out.dones.par_chunks_mut(chunk))
            .zip(out.to_move.par_chunks_mut(chunk))
            .enumerate()
            .for_each(
                |(c, (((((games, observations), masks), rewards), dones), to_move))| {
                    let out = Outputs {
                        observations,
                        masks,
                        rewards,
                        dones,
                        to_move,
                    };
                    crate::rules::cpu::dispatch(
                        #[inline(always)]
                        || step_chunk(c * chunk, games, out),
                    )
                },
            );
    }
}

/// Why `action` cannot be played in game `index` of the batch, if it cannot.
fn check<G: Learn>(index: usize, game: &G, action: usize) -> Option<StepError> {
    let Some(mv) = game.move_of(action) else {
        return Some(StepError {
            index,
            message: format!(
                "action must be from 0 to {}, got {action}",
                game.num_actions() - 1
            ),
        });
    };
    game.check(mv).err().map(|e| StepError {
        index,
        message: format!("action {action} ({}) is illegal: {e}", game.move_text(mv)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
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
        let chunk = chunk_games(start.observation_len() + start.num_actions());
        // 200 games are stepped on the calling thread whatever `threads` is; the larger
        // batch is split into chunks (one a partial chunk) on 2 and 3 threads.
        for batch in [200, 3 * chunk + 37] {
            let mut runs = Vec::new();
            for threads in [1, 2, 3] {
                let mut env = VecEnv::new(start.clone(), batch, 4, threads);
                assert_eq!(env.split().is_some(), threads > 1 && batch > 200);
                let mut buf = Buffers::new(&env);
                env.reset(buf.out());
                let mut actions = vec![0; batch];
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
                assert!(finished > batch / 2);
                runs.push((
                    buf.obs.clone(),
                    buf.masks.clone(),
                    buf.rewards.clone(),
                    finished,
                    after,
                ));
            }
            assert!(runs[0] == runs[1] && runs[0] == runs[2]);
            assert_eq!(runs[0].4.len(), batch);
        }
    }

    #[test]
    fn byte_observations_are_the_whole_values_mod_256() {
        let start = crate::Migong::new(crate::MigongConfig::default()).unwrap();
        assert!(crate::Migong::WHOLE_OBSERVATIONS && !crate::Nume::WHOLE_OBSERVATIONS);
        let batch = 20;
        let mut floats = VecEnv::new(start.clone(), batch, 1, 1);
        let mut bytes = VecEnv::new(start, batch, 1, 1);
        let mut buf = Buffers::new(&floats);
        let mut obs = vec![0u8; buf.obs.len()];
        let (mut masks, mut rewards) = (buf.masks.clone(), buf.rewards.clone());
        let (mut dones, mut to_move) = (buf.dones.clone(), buf.to_move.clone());
        let mut actions = vec![0; batch];
        for _ in 0..30 {
            floats.sample_actions(&mut actions);
            floats.step(&actions, buf.out()).unwrap();
            let out = Outputs {
                observations: &mut obs,
                masks: &mut masks,
                rewards: &mut rewards,
                dones: &mut dones,
                to_move: &mut to_move,
            };
            bytes.step(&actions, out).unwrap();
            assert!(buf.obs.iter().zip(&obs).all(|(&f, &b)| f == b as i8 as f32));
            assert_eq!(buf.masks, masks);
        }
        // Packed masks: bit a % 8 of byte a / 8, per game.
        let n = floats.num_actions();
        let width = n.div_ceil(8);
        let mut packed = vec![0u8; batch * width];
        let out = Outputs {
            observations: &mut obs,
            masks: &mut packed,
            rewards: &mut rewards,
            dones: &mut dones,
            to_move: &mut to_move,
        };
        bytes.reset(out);
        floats.reset(buf.out());
        for (a, &legal) in buf.masks.iter().enumerate() {
            let (game, action) = (a / n, a % n);
            let bit = packed[game * width + action / 8] >> (action % 8) & 1;
            assert_eq!(bit == 1, legal, "game {game} action {action}");
        }
        assert!(obs.contains(&255), "opponent-coloured border edges are -1");
    }
}
