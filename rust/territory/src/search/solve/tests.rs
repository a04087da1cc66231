use std::collections::HashSet;

use super::*;
use crate::{Nume, NumeConfig, Tabik, TabikConfig};

/// Plain minimax without pruning or table: the value for the player to move.
fn minimax<G: Game>(game: &mut G) -> i8 {
    let me = game.to_move().unwrap();
    let mut best = -2;
    for mv in game.legal_moves() {
        game.play_unchecked(mv);
        let v = match game.to_move() {
            None => result_for(game, me),
            Some(s) if s == me => minimax(game),
            Some(_) => -minimax(game),
        };
        game.undo();
        best = best.max(v);
    }
    best
}

/// Every running position reachable from `game`, once each (by key).
fn reachable<G: Game>(game: &mut G, seen: &mut HashSet<u64>, out: &mut Vec<G>) {
    if game.is_over() || !seen.insert(game.key()) {
        return;
    }
    out.push(game.clone());
    for mv in game.legal_moves() {
        game.play_unchecked(mv);
        reachable(game, seen, out);
        game.undo();
    }
}

fn agrees_with_minimax<G: Game>(start: G) -> usize {
    let mut positions = Vec::new();
    reachable(&mut start.clone(), &mut HashSet::new(), &mut positions);
    for p in &positions {
        let s = solve(p, None).unwrap();
        assert_eq!(s.value, minimax(&mut p.clone()), "{:?}", p.history());
        for &(mv, v) in &s.move_values {
            let mut q = p.clone();
            let me = q.to_move().unwrap();
            q.play_unchecked(mv);
            let exact = match q.to_move() {
                None => result_for(&q, me),
                Some(s) if s == me => minimax(&mut q),
                Some(_) => -minimax(&mut q),
            };
            assert_eq!(v, exact);
        }
    }
    positions.len()
}

#[test]
fn solver_agrees_with_minimax_on_tabik_2x2() {
    for pie in [true, false] {
        let n = agrees_with_minimax(Tabik::new(TabikConfig { size: 2, pie }).unwrap());
        assert!(n > 10, "{n}");
    }
}

#[test]
fn solver_agrees_with_minimax_on_nume_square_2x2() {
    for komi in [None, Some(0)] {
        let start = Nume::new(NumeConfig {
            square: Some(2),
            komi,
            ..NumeConfig::default()
        })
        .unwrap();
        let n = agrees_with_minimax(start);
        assert!(n > 100, "{n}");
    }
}

#[test]
fn node_limit_and_game_over() {
    let g = Tabik::new(TabikConfig { size: 3, pie: true }).unwrap();
    assert_eq!(solve(&g, Some(10)), Err(SolveError::NodeLimit(10)));
    let mut g = Tabik::new(TabikConfig {
        size: 2,
        pie: false,
    })
    .unwrap();
    crate::rules::playout::play_out(&mut g, &mut crate::rules::playout::game_rng(0, 0));
    assert_eq!(solve(&g, None), Err(SolveError::GameOver));
}
