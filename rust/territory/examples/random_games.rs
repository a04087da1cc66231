//! Plays random games of one game on one thread and prints games per second.
//! `cargo run --release --example random_games -- tabik 200000 [SIZE]`
//!
//! SIZE, if given, is the board: Tabik's side or Nume's n (Migong has one board).

use std::time::Instant;

use territory::rules::playout::{game_rng, play_out, restart};
use territory::{with_game, Game, GameKind, Nume, NumeConfig, Tabik, TabikConfig};

fn run<G: Game>(start: G, games: u64) {
    let mut game = start.clone();
    let began = Instant::now();
    let mut moves = 0u64;
    for index in 0..games {
        restart(&mut game, &start);
        moves += play_out(&mut game, &mut game_rng(0, index)).length as u64;
    }
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "{}: {games} games, {:.0} games/s, {:.1} actions/game",
        G::NAME,
        games as f64 / seconds,
        moves as f64 / games as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(100_000);
    let name = args.get(1).map_or("tabik", String::as_str);
    let Some(kind) = GameKind::from_name(name) else {
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        eprintln!(
            "unknown game {name:?}; expected one of {}",
            names.join(", ")
        );
        std::process::exit(2);
    };
    let Some(size) = args.get(3) else {
        with_game!(kind, G => run(G::new(Default::default()).unwrap(), games));
        return;
    };
    let Ok(size) = size.parse() else {
        eprintln!("the board size must be a whole number, not {size:?}");
        std::process::exit(2);
    };
    let made = match kind {
        GameKind::Tabik => Tabik::new(TabikConfig {
            size,
            ..Default::default()
        })
        .map(|g| run(g, games)),
        GameKind::Nume => Nume::new(NumeConfig {
            n: size,
            ..Default::default()
        })
        .map(|g| run(g, games)),
        GameKind::Migong => {
            eprintln!("Migong has one board: give no size");
            std::process::exit(2);
        }
    };
    if let Err(e) = made {
        eprintln!("{e}");
        std::process::exit(2);
    }
}
