//! Solves one small board exactly and prints the figures, with a progress line every 10 s
//! on stderr: `cargo run --release --example solve_board -- GAME [KEY=VALUE ...]
//! [memory=MB]`, e.g. `tabik size=4 pie=0`, `nume square=3 komi=none`, `nume n=2`.
//! (Python's `territory solve` is the documented way; this one runs without Python.)

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use territory::search::{solve_with, SolveLimits, SolveProgress, Symmetric};
use territory::{Nume, NumeConfig, Tabik, TabikConfig};

fn run<G: Symmetric + Sync>(game: G, memory: u64) {
    let progress = SolveProgress::default();
    let began = Instant::now();
    let limits = SolveLimits {
        memory,
        progress: Some(&progress),
        ..SolveLimits::default()
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let solution = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if began.elapsed().as_millis() % 10_000 < 200 {
                    eprintln!(
                        "{:>6.0} s  {:>14} positions  table {} MB",
                        began.elapsed().as_secs_f64(),
                        progress.nodes.load(Ordering::Relaxed),
                        progress.table_bytes.load(Ordering::Relaxed) >> 20
                    );
                }
            }
        });
        let s = solve_with(&game, &limits);
        done.store(true, Ordering::Relaxed);
        s
    })
    .expect("solved");
    let text = |moves: &[G::Move]| {
        moves
            .iter()
            .map(|&m| game.move_text(m).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "value {:+} for the player to move; best moves ({} of {}): {}",
        solution.value,
        solution.best_moves.len(),
        solution.move_values.len(),
        text(&solution.best_moves)
    );
    for v in [0, -1] {
        let moves: Vec<G::Move> = solution
            .move_values
            .iter()
            .filter(|&&(_, x)| x == v)
            .map(|&(m, _)| m)
            .collect();
        if !moves.is_empty() && v == 0 {
            println!("draws ({}): {}", moves.len(), text(&moves));
        }
    }
    println!(
        "positions {}  seconds {:.1}  table {} MB",
        solution.nodes,
        began.elapsed().as_secs_f64(),
        solution.table_bytes >> 20
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(&format!("{key}=")).map(str::to_string))
    };
    let memory = get("memory").map_or(1 << 30, |mb| mb.parse::<u64>().expect("memory in MB") << 20);
    match args.first().map(String::as_str) {
        Some("tabik") => run(
            Tabik::new(TabikConfig {
                size: get("size").map_or(4, |s| s.parse().expect("size")),
                pie: get("pie").is_none_or(|p| p != "0"),
            })
            .expect("config"),
            memory,
        ),
        Some("nume") => {
            let komi = match get("komi").as_deref() {
                Some("none") => None,
                Some(k) => Some(k.parse().expect("komi k for k + 0.5")),
                None => Some(0),
            };
            run(
                Nume::new(NumeConfig {
                    n: get("n").map_or(1, |n| n.parse().expect("n")),
                    square: get("square").map(|k| k.parse().expect("square")),
                    komi,
                    komi_phase: get("komi_phase").is_some_and(|p| p == "1"),
                    ..NumeConfig::default()
                })
                .expect("config"),
                memory,
            )
        }
        _ => eprintln!("usage: solve_board tabik|nume [key=value ...] [memory=MB]"),
    }
}
