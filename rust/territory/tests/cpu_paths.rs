//! Counting bits with `popcnt` and selecting them with `pdep` (where the CPU has them) and
//! with the portable code give bit-for-bit the same playouts, traces and searches
//! (`territory::rules::cpu`).
//!
//! The path is chosen once, when the library is loaded, from the CPU and the environment
//! variable `TERRITORY_PORTABLE`: the test runs this test binary again, in a child process
//! with `TERRITORY_PORTABLE=1`, and compares what the two processes computed.

use std::process::Command;

use territory::bulk::metrics::{self, GameTrace};
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
    playout::run(start, 11, 3, &mut results, Some(1)).unwrap();
    // Bit for bit, not just equal as floats.
    let score_bits: Vec<[u64; 2]> = results.iter().map(|r| r.scores.map(f64::to_bits)).collect();
    let mut traces = vec![GameTrace::default(); games / 4];
    metrics::run_random(start, 12, 0, &mut traces, Some(1)).unwrap();
    let config = UctConfig {
        iterations: 300,
        seed: 5,
        ..UctConfig::default()
    };
    let analysis = analyse(start, &config);
    format!(
        "{}\n{results:?}\n{score_bits:?}\n{traces:?}\n{analysis:?}\n",
        G::NAME
    )
}

/// Bit counts and selections of many words, and the outputs of every game on boards
/// whose bit sets take one to four 64-bit words.
fn everything() -> String {
    let mut out = String::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..2000 {
        for word in [x, x & x >> 1, x & x >> 1 & x >> 2] {
            let ones = cpu::popcount(word);
            assert_eq!(ones, word.count_ones(), "{word:#x}");
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
    println!("{BEGIN}\n{}{END}", everything());
}

#[test]
fn both_paths_compute_the_same() {
    if std::env::var_os("TERRITORY_PORTABLE").is_some() {
        return; // the whole run is portable: nothing to compare
    }
    // In this process the path is the fast one wherever the CPU allows.
    #[cfg(target_arch = "x86_64")]
    assert_eq!(cpu::accelerated(), std::is_x86_feature_detected!("popcnt"));
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
