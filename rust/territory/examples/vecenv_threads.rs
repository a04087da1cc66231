//! Times `VecEnv` phases (sample_actions, step) on 1 and 2 threads, engine only (no
//! Python), interleaving the thread counts and keeping the best of many rounds so that
//! other load on the machine matters less.
//!
//!     cargo run --release -p territory --example vecenv_threads [batch] [rounds]
//!
//! With `VECENV_THREADS=1` (or 2) only that many threads are timed, e.g. to count
//! instructions with `valgrind --tool=callgrind`.

use std::time::Instant;

use territory::bulk::vec_env::{Outputs, VecEnv};
use territory::{Learn, Migong, Nume, Tabik};

/// CPU seconds (user and system) this process has used so far, from /proc (Linux only).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn time_env<G: Learn>(start: &G, batch: usize, threads: usize, steps: usize) -> (f64, f64) {
    let mut env = VecEnv::new(start.clone(), batch, 0, threads);
    let mut obs = vec![0.0; batch * env.observation_len()];
    let mut masks = vec![false; batch * env.num_actions()];
    let (mut rewards, mut dones, mut to_move) =
        (vec![0.0; 2 * batch], vec![false; batch], vec![0; batch]);
    macro_rules! out {
        () => {
            Outputs {
                observations: &mut obs,
                masks: &mut masks,
                rewards: &mut rewards,
                dones: &mut dones,
                to_move: &mut to_move,
            }
        };
    }
    env.reset(out!());
    let mut actions = vec![0; batch];
    let (mut sample, mut step) = (0.0, 0.0);
    for _ in 0..steps {
        let t = Instant::now();
        env.sample_actions(&mut actions);
        let m = Instant::now();
        env.step(&actions, out!()).unwrap();
        sample += (m - t).as_secs_f64();
        step += m.elapsed().as_secs_f64();
    }
    (sample / steps as f64 * 1e6, step / steps as f64 * 1e6)
}

fn run<G: Learn>(name: &str, start: G, batch: usize, rounds: usize, steps: usize) {
    let mut best = [(f64::MAX, f64::MAX); 2];
    let mut cpu = [0.0; 2];
    // VECENV_THREADS=1 or 2 times only that many threads (for instruction counts).
    let only: Option<usize> = std::env::var("VECENV_THREADS")
        .ok()
        .and_then(|t| t.parse().ok());
    for _ in 0..rounds {
        for (t, b) in best.iter_mut().enumerate() {
            if only.is_some_and(|only| only != t + 1) {
                continue;
            }
            let c = cpu_seconds();
            let (s, p) = time_env(&start, batch, t + 1, steps);
            cpu[t] += cpu_seconds() - c;
            if s + p < b.0 + b.1 {
                *b = (s, p);
            }
        }
    }
    let rate = |b: (f64, f64)| batch as f64 / (b.0 + b.1) * 1e6;
    // CPU time per game stepped (creating the envs included): if two threads spend no
    // more CPU than one, they run twice as fast on two free cores.
    let per_game = |c: f64| c / (rounds * steps * batch) as f64 * 1e9;
    println!(
        "{name:7} CPU ns/game (sample+step+env setup): 1 thread {:.0}, 2 threads {:.0}",
        per_game(cpu[0]),
        per_game(cpu[1])
    );
    println!(
        "{name:7} 1 thread: sample {:6.1} us step {:7.1} us {:>12.0}/s | 2 threads: sample {:6.1} us step {:7.1} us {:>12.0}/s | x{:.2}",
        best[0].0, best[0].1, rate(best[0]), best[1].0, best[1].1, rate(best[1]), rate(best[1]) / rate(best[0])
    );
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let batch = args.first().copied().unwrap_or(1024);
    let rounds = args.get(1).copied().unwrap_or(10);
    run(
        "tabik",
        Tabik::new(Default::default()).unwrap(),
        batch,
        rounds,
        100,
    );
    run(
        "nume",
        Nume::new(Default::default()).unwrap(),
        batch,
        rounds,
        100,
    );
    run(
        "migong",
        Migong::new(Default::default()).unwrap(),
        batch,
        rounds,
        20,
    );
}
