//! Runs one UCT search on one thread and prints iterations per second: from the start
//! position, or from a mid-game root after `MID` seeded random moves.
//! `cargo run --release --example uct_search -- GAME ITERATIONS [MID]` (Tabik size 8,
//! Nume n 4, Migong default: the games of `benches/search.py`). Under callgrind,
//! `(I(2N) - I(N)) / N` is the instructions per iteration.

use std::time::Instant;

use territory::rules::playout::game_rng;
use territory::search::{analyse, UctConfig};
use territory::{Game, Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

fn run<G: Game>(start: G, iterations: u64, mid: usize) {
    let mut root = start;
    let mut rng = game_rng(7, 0);
    for _ in 0..mid {
        let mv = root.random_move(&mut rng).expect("the game runs");
        root.play_unchecked(mv);
    }
    let config = UctConfig {
        iterations,
        ..UctConfig::default()
    };
    let began = Instant::now();
    let analysis = analyse(&root, &config);
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "{} after {mid} moves: {iterations} iterations, {:.0} iterations/s, value {:.3}",
        G::NAME,
        iterations as f64 / seconds,
        analysis.value
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("tabik", String::as_str);
    let iterations = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(40_000);
    let mid = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    match name {
        "tabik" => run(
            Tabik::new(TabikConfig { size: 8, pie: true }).unwrap(),
            iterations,
            mid,
        ),
        "nume" => run(
            Nume::new(NumeConfig {
                n: 4,
                ..NumeConfig::default()
            })
            .unwrap(),
            iterations,
            mid,
        ),
        "migong" => run(
            Migong::new(MigongConfig::default()).unwrap(),
            iterations,
            mid,
        ),
        _ => {
            eprintln!("unknown game {name:?}; expected tabik, nume or migong");
            std::process::exit(2);
        }
    }
}
