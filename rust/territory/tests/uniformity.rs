//! The random policy draws uniformly over exactly the listed moves: in fixed positions
//! of every game, many draws of `random_move` hit every legal move, nothing else, and
//! pass a chi-square test against the uniform distribution (at p = 1e-6, so the test
//! does not flake; the draws are seeded anyway).

mod common;

use std::collections::HashMap;

use common::rng;
use territory::{Game, Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

/// Upper critical value of chi-square with `df` degrees of freedom at p ~ 1e-6
/// (Wilson-Hilferty; z = 4.9 is a little beyond p = 1e-6's 4.75).
fn chi_square_critical(df: f64) -> f64 {
    let z = 4.9;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Draws `per_move` times the number of legal moves from `random_move`, asserts that
/// every draw is listed, every listed move is drawn, and the counts look uniform.
fn assert_uniform<G: Game>(game: &G, per_move: usize, seed: u64) {
    let moves = game.legal_moves();
    assert!(
        moves.len() >= 2,
        "{} {game:?}: too few moves to test",
        G::NAME
    );
    let index: HashMap<String, usize> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (game.move_text(mv).to_string(), i))
        .collect();
    let draws = per_move * moves.len();
    let mut counts = vec![0usize; moves.len()];
    let mut r = rng(seed);
    for _ in 0..draws {
        let mv = game.random_move(&mut r).expect("the game is not over");
        let mv = game.move_text(mv).to_string();
        let i = *index
            .get(&mv)
            .unwrap_or_else(|| panic!("random_move drew {mv}, which is not a legal move"));
        counts[i] += 1;
    }
    if let Some(i) = counts.iter().position(|&c| c == 0) {
        panic!(
            "{} {:?}: {} was never drawn in {draws} draws",
            G::NAME,
            game.history(),
            game.move_text(moves[i])
        );
    }
    let expected = per_move as f64;
    let statistic: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let critical = chi_square_critical((moves.len() - 1) as f64);
    assert!(
        statistic < critical,
        "{} {:?}: chi-square {statistic:.1} >= {critical:.1} over {} moves",
        G::NAME,
        game.history(),
        moves.len()
    );
}

/// The position after `moves` played from `game`.
fn after<G: Game>(mut game: G, moves: &[&str]) -> G {
    for mv in moves {
        game.play_str(mv).unwrap();
    }
    game
}

/// Positions along a seeded random game from `start` whose legal lists satisfy `want`.
fn positions_where<G: Game>(start: &G, seed: u64, want: impl Fn(&[G::Move]) -> bool) -> Vec<G> {
    let mut end = start.clone();
    common::play_random(&mut end, &mut rng(seed));
    let mut game = start.clone();
    let mut found = Vec::new();
    for &mv in end.history() {
        if want(&game.legal_moves()) {
            found.push(game.clone());
        }
        game.play(mv).unwrap();
    }
    found
}

#[test]
fn tabik_random_policy_is_uniform() {
    let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
    assert_uniform(&start, 200, 1);
    // The pie swap next to placements.
    assert_uniform(&after(start.clone(), &["b2-b3"]), 200, 2);
    // Stone swaps next to placements, and a late position with stone swaps only.
    let with_swaps = positions_where(&start, 7, |moves| {
        moves
            .iter()
            .any(|m| matches!(m, territory::TabikMove::StoneSwap { .. }))
            && moves.len() >= 3
    });
    assert!(with_swaps.len() >= 2);
    assert_uniform(&with_swaps[0], 200, 3);
    assert_uniform(with_swaps.last().unwrap(), 200, 4);
    let big = Tabik::new(TabikConfig {
        size: 16,
        pie: false,
    })
    .unwrap();
    assert_uniform(&after(big, &["p16-p15", "a1-b1"]), 60, 5);
}

#[test]
fn migong_random_policy_is_uniform() {
    let start = Migong::new(MigongConfig::default()).unwrap();
    // Seat 1's first turn: thousands of placements and the pie swap.
    assert_uniform(&after(start.clone(), &["h7:BBBYBB"]), 30, 1);
    // Late positions, few placements left.
    let late = positions_where(&start, 3, |moves| (2..200).contains(&moves.len()));
    assert!(!late.is_empty());
    assert_uniform(&late[0], 200, 2);
    assert_uniform(late.last().unwrap(), 200, 3);
}

#[test]
fn nume_random_policy_is_uniform() {
    let phase = Nume::new(NumeConfig {
        n: 1,
        komi_phase: true,
        ..NumeConfig::default()
    })
    .unwrap();
    assert_uniform(&phase, 200, 1); // komi choices
    assert_uniform(&after(phase.clone(), &["komi 3.5 white"]), 2000, 2); // side choice
    assert_uniform(
        &after(phase, &["komi 0.5 black", "side white", "a3=2"]),
        200,
        3,
    );
    let square = Nume::new(NumeConfig {
        square: Some(3),
        ..NumeConfig::default()
    })
    .unwrap();
    // Plain and numbered placements together.
    assert_uniform(&after(square, &["b2=4", "a1=0", "c3=9"]), 200, 4);
    let big = Nume::new(NumeConfig {
        square: Some(16),
        ..NumeConfig::default()
    })
    .unwrap();
    let late = positions_where(&big, 5, |moves| (2..500).contains(&moves.len()));
    assert_uniform(&late[late.len() / 2], 200, 5);
}
