//! Counting bits with `popcnt` and selecting them with `pdep` (where the CPU has them) and
//! with the portable code give bit-for-bit the same playouts, traces and searches
//! (`territory::rules::cpu`).
//!
//! The path is chosen once per process, on first use, from the CPU and the environment
//! variable `TERRITORY_PORTABLE`: the test runs this test binary again, in a child process
//! with `TERRITORY_PORTABLE=1`, and compares what the two processes computed. Where there
//! is one path only (features known at compile time, or not x86-64: `cpu::DISPATCHES`
//! false) there is nothing to compare, and the test says so.

use std::process::Command;

use territory::bulk::metrics::{self, GameTrace};
use territory::bulk::vec_env::{Outputs, VecEnv};
use territory::observe::Learn;
use territory::rules::bitset::{select64, Bits};
use territory::rules::cpu;
use territory::rules::playout::{self, PlayoutResult};
use territory::search::uct::{analyse, UctConfig};
use territory::{Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

const BEGIN: &str = "<<<outputs";
const END: &str = "outputs>>>";

/// Everything the hot loops compute for `start`: playouts, traces and a search.
fn outputs<G: Learn>(start: &G, games: usize) -> String {
    let mut results = vec![PlayoutResult::default(); games];
    playout::run(start, 11, 3, &mut results, Some(1), &Default::default()).unwrap();
    // Bit for bit, not just equal as floats.
    let score_bits: Vec<[u64; 2]> = results.iter().map(|r| r.scores.map(f64::to_bits)).collect();
    let mut traces = vec![GameTrace::default(); games / 4];
    metrics::run_random(start, 12, 0, &mut traces, Some(1), &Default::default()).unwrap();
    let config = UctConfig {
        iterations: 300,
        seed: 5,
        ..UctConfig::default()
    };
    let analysis = analyse(start, &config);
    format!(
        "{}\n{results:?}\n{score_bits:?}\n{traces:?}\n{analysis:?}\n{}\n",
        G::NAME,
        vec_env_steps(start)
    )
}

/// A hash of everything 40 VecEnv steps of random actions write, for 6 games.
fn vec_env_steps<G: Learn>(start: &G) -> u64 {
    let batch = 6;
    let mut env = VecEnv::new(start.clone(), batch, 9, 1);
    let mut obs = vec![0.0f32; batch * env.observation_len()];
    let mut masks = vec![false; batch * env.num_actions()];
    let (mut rewards, mut dones, mut to_move) = (
        vec![0.0f32; 2 * batch],
        vec![false; batch],
        vec![0i8; batch],
    );
    let mut actions = vec![0usize; batch];
    let mut hash = 0u64;
    for step in 0..40 {
        let out = Outputs {
            observations: &mut obs,
            masks: &mut masks,
            rewards: &mut rewards,
            dones: &mut dones,
            to_move: &mut to_move,
        };
        if step == 0 {
            env.reset(out);
        } else {
            env.step(&actions, out).unwrap();
        }
        env.sample_actions(&mut actions);
        let words = obs
            .iter()
            .map(|x| u64::from(x.to_bits()))
            .chain(masks.iter().map(|&m| m as u64))
            .chain(rewards.iter().map(|x| u64::from(x.to_bits())))
            .chain(dones.iter().map(|&d| d as u64))
            .chain(to_move.iter().map(|&t| t as u64));
        for word in words {
            hash = territory::rules::zobrist::mix(hash ^ word);
        }
    }
    hash
}

/// Bit counts and selections of many words, and the outputs of every game on boards
/// whose bit sets take one to four 64-bit words.
fn everything() -> String {
    let mut out = String::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..2000 {
        for word in [x, x & x >> 1, x & x >> 1 & x >> 2] {
            let ones = word.count_ones();
            let bits = Bits([word, !word, word ^ 1, 0]);
            let selected: Vec<usize> = (0..ones as usize).map(|n| select64(word, n)).collect();
            let nth: Vec<Option<usize>> = (0..130).step_by(7).map(|n| bits.nth(n)).collect();
            out += &format!("{ones} {} {selected:?} {nth:?}\n", bits.count());
        }
        x = territory::rules::zobrist::mix(x);
    }
    out += &outputs(&Tabik::new(TabikConfig::default()).unwrap(), 400);
    for (size, pie) in [(12, false), (16, true)] {
        out += &outputs(&Tabik::new(TabikConfig { size, pie }).unwrap(), 24);
    }
    out += &outputs(&Nume::new(NumeConfig::default()).unwrap(), 400);
    let square = NumeConfig {
        square: Some(11),
        komi_phase: true,
        ..NumeConfig::default()
    };
    out += &outputs(&Nume::new(square).unwrap(), 40);
    out += &outputs(&Migong::new(MigongConfig::default()).unwrap(), 80);
    out
}

/// Run by [`both_paths_compute_the_same`] in the child process.
#[test]
#[ignore = "run by both_paths_compute_the_same, in a child process"]
fn portable_child() {
    assert!(
        !cpu::accelerated(),
        "TERRITORY_PORTABLE=1 did not select the portable path"
    );
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    assert!(!cpu::vector_accelerated(), "TERRITORY_PORTABLE=1 left the AVX2 path on");
    let computed = everything();
    // Read again from the cache the first call filled (not detected afresh).
    assert_eq!(cpu::level(), cpu::Level::Portable, "the portable path was left");
    println!("{BEGIN}\n{computed}{END}");
}

#[test]
fn both_paths_compute_the_same() {
    if !cpu::DISPATCHES {
        println!(
            "one path only (CPU features known at compile time, or not x86-64): nothing to compare"
        );
        assert!(cpu::accelerated());
        return;
    }
    if std::env::var_os("TERRITORY_PORTABLE").is_some() {
        println!("TERRITORY_PORTABLE is set: the whole run is portable, nothing to compare");
        return;
    }
    // In this process the path is the fast one wherever the CPU allows.
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        cpu::accelerated(),
        std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi2")
    );
    #[cfg(target_arch = "x86_64")]
    assert_eq!(cpu::vector_accelerated(), std::is_x86_feature_detected!("avx2"));
    let here = everything();

    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "portable_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TERRITORY_PORTABLE", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8(child.stdout).unwrap();
    assert!(
        child.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&child.stderr)
    );
    let begin = stdout.find(BEGIN).expect("no outputs from the child") + BEGIN.len() + 1;
    let end = stdout.find(END).unwrap();
    let portable = &stdout[begin..end];
    assert_eq!(here.len(), portable.len());
    for (line, (a, b)) in here.lines().zip(portable.lines()).enumerate() {
        assert_eq!(a, b, "line {line}");
    }
}
