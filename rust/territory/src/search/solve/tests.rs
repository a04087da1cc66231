use std::collections::HashSet;

use super::*;
use crate::rules::game::Game;
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

/// Every running position reachable from `start`, once each.
fn positions_from<G: Game>(start: &G) -> Vec<G> {
    let mut positions = Vec::new();
    reachable(&mut start.clone(), &mut HashSet::new(), &mut positions);
    positions
}

/// Every position of Tabik `size` (no pie) that play reaches and that is not over.
fn tabik_positions(size: usize) -> Vec<Tabik> {
    positions_from(&Tabik::new(TabikConfig { size, pie: false }).unwrap())
}

fn agrees_with_minimax<G: Symmetric>(start: G) -> usize {
    let positions = positions_from(&start);
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

/// Nume with the komi phase: `komi ...` and `side ...` leave seat 1 then seat 0 to move
/// twice in a row when seat 1 takes Black, so a solver negating every child's value
/// (whoever moves next) gives wrong values here.
#[test]
fn solver_agrees_with_minimax_when_the_same_seat_moves_twice() {
    let start = Nume::new(NumeConfig {
        square: Some(2),
        komi_phase: true,
        ..NumeConfig::default()
    })
    .unwrap();
    let mut g = start.clone();
    g.play_str("komi 0.5 black").unwrap();
    let me = g.to_move();
    g.play_str("side black").unwrap();
    assert_eq!(
        g.to_move(),
        me,
        "seat 1 took Black and places the first stone"
    );
    let n = agrees_with_minimax(start);
    assert!(n > 1000, "{n}");
}

#[test]
fn symmetries_of_each_board() {
    let count = |g: &dyn Fn() -> Option<Symmetries>| g().map_or(1, |s| s.len());
    for size in [2, 3, 4, 5] {
        let t = Tabik::new(TabikConfig { size, pie: true }).unwrap();
        assert_eq!(count(&|| t.symmetries()), 8);
    }
    for square in [Some(2), Some(3), Some(4)] {
        let g = Nume::new(NumeConfig {
            square,
            ..NumeConfig::default()
        })
        .unwrap();
        assert_eq!(count(&|| g.symmetries()), 8);
    }
    for n in [1, 2, 3, 4] {
        let g = Nume::new(NumeConfig {
            n,
            ..NumeConfig::default()
        })
        .unwrap();
        assert_eq!(count(&|| g.symmetries()), 6, "hex n={n}");
    }
    assert!(crate::Migong::new(Default::default())
        .unwrap()
        .symmetries()
        .is_none());
}

/// The canonical key of a position under every symmetry is the same; different
/// positions (here, the eight placements across the middle of a 4x4 side are one
/// position up to symmetry, the others are not) get different keys.
#[test]
fn canonical_keys_identify_symmetric_positions() {
    let t = Tabik::new(TabikConfig {
        size: 4,
        pie: false,
    })
    .unwrap();
    let symmetries = t.symmetries().unwrap();
    let key = |moves: &[&str]| {
        let mut g = t.clone();
        for m in moves {
            g.play_str(m).unwrap();
        }
        let mut features = Vec::new();
        g.features(&mut features);
        symmetries.canonical_key(g.turn_key(), &features).0
    };
    let edge_middle = [
        "b1-c1", "c1-b1", "b4-c4", "c4-b4", "a2-a3", "a3-a2", "d2-d3", "d3-d2",
    ];
    let first = key(&[edge_middle[0]]);
    for m in edge_middle {
        assert_eq!(key(&[m]), first, "{m}");
    }
    let mut distinct = HashSet::new();
    for m in t.legal_moves() {
        distinct.insert(key(&[&t.move_text(m).to_string()]));
    }
    assert_eq!(distinct.len(), 48 / 8, "six placements up to symmetry");
    assert_ne!(key(&["b1-c1", "a2-a3"]), key(&["b1-c1", "d2-d3"]));
    assert_eq!(key(&["b1-c1", "a2-a3"]), key(&["c1-b1", "d2-d3"]));
}

/// Of the symmetries that give the smallest key, the first: the identity on a position
/// every symmetry maps onto itself (the empty board), and the earliest of a tie.
#[test]
fn the_canonical_keys_symmetry_is_the_first_that_gives_it() {
    assert_eq!(crate::search::symmetry::smallest(&[5, 3, 3, 7]), (3, 1));
    assert_eq!(crate::search::symmetry::smallest(&[9, 8, 7]), (7, 2));
    let t = Tabik::new(TabikConfig { size: 4, pie: false }).unwrap();
    let symmetries = t.symmetries().unwrap();
    let mut features = Vec::new();
    t.features(&mut features);
    let mut keys = vec![0; symmetries.len()];
    symmetries.keys(t.turn_key(), &features, &mut keys);
    assert!(keys.iter().all(|&k| k == keys[0]), "{keys:?}");
    assert_eq!(symmetries.canonical_key(t.turn_key(), &features), (keys[0], 0));
}

/// A table far too small for the search gives the same values (with more work).
#[test]
fn a_tiny_table_gives_the_same_values() {
    let g = Tabik::new(TabikConfig { size: 3, pie: true }).unwrap();
    let big = solve(&g, None).unwrap();
    let tiny = solve_with(
        &g,
        &SolveLimits {
            memory: 1024,
            ..SolveLimits::default()
        },
    )
    .unwrap();
    assert_eq!(tiny.move_values, big.move_values);
    assert!(tiny.nodes > big.nodes, "{} {}", tiny.nodes, big.nodes);
    assert!(tiny.table_bytes <= 1024, "{}", tiny.table_bytes);
}

#[test]
fn the_table_reports_its_bytes_as_entries_of_16_bytes() {
    // The table starts at 4,096 entries and doubles as it fills, up to the budget.
    let small = solve(&Tabik::new(TabikConfig { size: 2, pie: true }).unwrap(), None).unwrap();
    assert_eq!(small.table_bytes, 4096 * 16);
    let larger = solve(&Tabik::new(TabikConfig { size: 3, pie: true }).unwrap(), None).unwrap();
    assert!(larger.table_bytes >= 4096 * 16, "{}", larger.table_bytes);
    assert!((larger.table_bytes / 16).is_power_of_two(), "{}", larger.table_bytes);
    assert_eq!(larger.table_bytes % 16, 0);
}

#[test]
fn cancel_and_time_limit_stop_the_search() {
    let g = Tabik::new(TabikConfig { size: 5, pie: true }).unwrap();
    let cancel = AtomicBool::new(true);
    let progress = SolveProgress::default();
    let limits = SolveLimits {
        cancel: Some(&cancel),
        progress: Some(&progress),
        ..SolveLimits::default()
    };
    assert_eq!(solve_with(&g, &limits), Err(SolveError::Cancelled));
    let limit = Duration::from_millis(200);
    let began = Instant::now();
    let limits = SolveLimits {
        time_limit: Some(limit),
        progress: Some(&progress),
        ..SolveLimits::default()
    };
    assert_eq!(solve_with(&g, &limits), Err(SolveError::TimeLimit(limit)));
    assert!(began.elapsed() < Duration::from_secs(2));
    assert!(progress.nodes.load(Ordering::Relaxed) > 1000);
    assert!(progress.table_bytes.load(Ordering::Relaxed) > 0);
}

#[test]
fn solve_errors_say_what_stopped_the_search_and_what_to_do() {
    let said = [
        SolveError::NodeLimit(500),
        SolveError::TimeLimit(Duration::from_millis(1500)),
        SolveError::Cancelled,
        SolveError::GameOver,
    ]
    .map(|e| e.to_string());
    assert_eq!(
        said,
        [
            "not solved within max_nodes = 500 positions (raise max_nodes, or None for no limit)",
            "not solved within time_limit = 1.5 s (raise time_limit, or None for no limit)",
            "the search was cancelled",
            "the game is over: there is no player to move",
        ]
    );
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

/// Any order of the shallow positions' moves gives the same solution: here the moves
/// reversed, or rotated by the position's key.
fn same_solution_in_any_order<G: Symmetric>(start: G) {
    let plain = solve(&start, None).unwrap();
    let mut searches_differ = false;
    for depth in [1, 3, 64] {
        let mut reverse = |_: &G, moves: &mut [G::Move]| moves.reverse();
        let mut rotate = |g: &G, moves: &mut [G::Move]| {
            let n = moves.len();
            moves.rotate_left((g.key() % n as u64) as usize);
        };
        let orders: [&mut MoveOrder<'_, G>; 2] = [&mut reverse, &mut rotate];
        for order in orders {
            let ordered = solve_ordered(&start, &SolveLimits::default(), depth, order).unwrap();
            assert_eq!(ordered.value, plain.value, "depth {depth}");
            assert_eq!(ordered.best_moves, plain.best_moves, "depth {depth}");
            assert_eq!(ordered.move_values, plain.move_values, "depth {depth}");
            searches_differ |= ordered.nodes != plain.nodes;
        }
    }
    assert!(searches_differ, "the order is used");
}

#[test]
fn a_move_order_changes_the_search_not_the_solution() {
    for pie in [true, false] {
        same_solution_in_any_order(Tabik::new(TabikConfig { size: 3, pie }).unwrap());
    }
    for komi in [None, Some(0)] {
        same_solution_in_any_order(Nume::new(NumeConfig { square: Some(2), komi, ..NumeConfig::default() }).unwrap());
    }
    same_solution_in_any_order(Nume::new(NumeConfig { n: 1, komi: Some(0), ..NumeConfig::default() }).unwrap());
    same_solution_in_any_order(
        Nume::new(NumeConfig { square: Some(2), komi: None, komi_phase: true, ..NumeConfig::default() }).unwrap(),
    );
}

#[test]
fn the_table_doubles_when_three_quarters_full() {
    let mut table = Table::new(1 << 20);
    assert_eq!((table.entries.len(), table.max_entries), (1 << 12, 1 << 16));
    let entry = |key: u64| Entry {
        key,
        work: 1,
        best: 0,
        value: 1,
        flags: Bound::Exact as u8,
    };
    for key in 1..=3 * (1 << 12) / 4 {
        table.store(entry(key));
    }
    assert_eq!(table.entries.len(), 1 << 12, "not yet past three quarters");
    table.store(entry(1 << 40));
    assert_eq!(table.entries.len(), 1 << 13);
    assert_eq!(table.stored, 3 * (1 << 12) / 4 + 1);
    for key in (1..=3 * (1 << 12) / 4).chain([1 << 40]) {
        assert_eq!(table.get(key).map(|e| e.key), Some(key), "{key}");
    }
}

/// The positions searched on small boards, pinned: the table's cut-offs, its replacement
/// (by the work an entry took) and the move ordering decide them, and a change to any shows.
#[test]
fn positions_searched_are_pinned() {
    let tabik = |size| Tabik::new(TabikConfig { size, pie: true }).unwrap();
    let tiny = SolveLimits {
        memory: 1024,
        ..SolveLimits::default()
    };
    // Komi off: equal scores draw, so some values are exact (Tabik's never are).
    let drawn = |n, square| Nume::new(NumeConfig { n, square, komi: None, ..NumeConfig::default() }).unwrap();
    let counts = [
        solve(&tabik(2), None).unwrap().nodes,
        solve(&tabik(3), None).unwrap().nodes,
        solve_with(&tabik(3), &tiny).unwrap().nodes, // entries replaced by the work they took
        solve(&drawn(2, Some(2)), None).unwrap().nodes,
        solve(&drawn(1, None), None).unwrap().nodes,
    ];
    assert_eq!(counts, [22, 688, 1257, 96, 3971]);
}

#[test]
fn a_move_order_is_used_only_shallower_than_its_depth() {
    let g = Tabik::new(TabikConfig { size: 3, pie: true }).unwrap();
    let mut asked = 0;
    let mut reverse = |_: &Tabik, moves: &mut [<Tabik as Game>::Move]| {
        asked += 1;
        moves.reverse();
    };
    // At depth 0 the order is never asked for: the search is the plain one, position for
    // position (688, as pinned above).
    assert_eq!(solve_ordered(&g, &SolveLimits::default(), 0, &mut reverse).unwrap().nodes, 688);
    assert_eq!(asked, 0);
    let nodes = [1, 3, 64].map(|depth| {
        let mut reverse = |_: &Tabik, moves: &mut [<Tabik as Game>::Move]| moves.reverse();
        solve_ordered(&g, &SolveLimits::default(), depth, &mut reverse).unwrap().nodes
    });
    assert_eq!(nodes, [688, 1245, 1562]);
}

#[test]
fn swaps_find_each_moves_index_in_the_list_as_generated() {
    let generated: Vec<u8> = (0..6).collect();
    let mut moves = generated.clone();
    let mut swaps = Swaps::default();
    swaps.swap(&mut moves, 0, 4);
    swaps.swap(&mut moves, 1, 1); // no swap: nothing recorded
    swaps.swap(&mut moves, 1, 4);
    swaps.swap(&mut moves, 2, 5);
    assert_eq!(moves, [4, 0, 5, 3, 1, 2]);
    for (i, &mv) in moves.iter().enumerate() {
        assert_eq!(generated[swaps.original_index(i)], mv, "index {i}");
    }
}

#[test]
fn the_tables_move_goes_first_then_the_killers_in_the_order_tried() {
    let game = Tabik::new(TabikConfig { size: 3, pie: true }).unwrap();
    let mut solver = Solver::new(&game, &SolveLimits::default(), None, 0);
    let generated = game.legal_moves();
    assert!(generated.len() > 5);
    let ordered = |solver: &Solver<'_, Tabik>, first, depth| {
        let mut moves = generated.clone();
        let swaps = solver.order(&mut moves, first, depth);
        for (i, &mv) in moves.iter().enumerate() {
            assert_eq!(generated[swaps.original_index(i)], mv);
        }
        moves
    };
    assert_eq!(ordered(&solver, Some(3), 0)[..2], [generated[3], generated[1]]);
    assert_eq!(ordered(&solver, None, 0), generated);
    // A table move past the list (from another position of the same key) is passed over.
    assert_eq!(ordered(&solver, Some(generated.len()), 0), generated);
    solver.remember_killer(generated[4], 1);
    solver.remember_killer(generated[2], 1); // the killers of depth 1: [2, 4]
    let moves = ordered(&solver, Some(4), 1);
    assert_eq!(moves[..4], [generated[4], generated[2], generated[1], generated[3]]);
    assert_eq!(ordered(&solver, None, 1)[..3], [generated[2], generated[4], generated[0]]);
    assert_eq!(ordered(&solver, None, 0), generated, "killers are per depth");
}

/// Sets up the solver's symmetric keys for `game` at depth 0, as `solve_root` does.
fn root_keys(solver: &mut Solver<'_, Tabik>, game: &Tabik) {
    if let Some(symmetries) = &solver.symmetries {
        let mut features = Vec::new();
        game.features(&mut features);
        solver.symmetric_keys = vec![0; symmetries.len()];
        symmetries.keys(game.turn_key(), &features, &mut solver.symmetric_keys);
    }
}

/// A stored bound on the wrong side of the window says too little to end a search: an
/// upper bound of 0 on a lost position, probed with alpha -1, and a lower bound of 0 on a
/// won one, probed with beta 1, leave the search to find -1 and +1.
#[test]
fn a_bound_inside_the_window_does_not_end_the_search() {
    let mut positions = tabik_positions(2);
    let mut checked = [0, 0];
    for game in &mut positions {
        let value = minimax(&mut game.clone());
        let bound = match value {
            -1 => Bound::Upper,
            1 => Bound::Lower,
            _ => continue,
        };
        let limits = SolveLimits::default();
        let mut solver = Solver::new(game, &limits, None, 0);
        root_keys(&mut solver, game);
        let (key, symmetry) = solver.key(game, 0);
        let flags = bound as u8 | symmetry << 2;
        solver.table.store(Entry { key, work: 1, best: 0, value: 0, flags });
        assert_eq!(solver.negamax(game, -1, 1, 0).unwrap(), value, "{:?}", game.history());
        checked[(value + 1) as usize / 2] += 1;
    }
    assert!(checked[0] >= 3 && checked[1] >= 3, "{checked:?} lost and won positions");
}

/// At a depth the move order reaches, the table's move is still tried first: found in
/// the reordered list by the move, not by its index there.
#[test]
fn an_ordered_search_tries_the_tables_move_first() {
    let game = Tabik::new(TabikConfig { size: 3, pie: false }).unwrap();
    let generated = game.legal_moves();
    // Neither end of the list, whichever way the order turns it.
    let best = generated.len() - 2;
    let mut first_tried = Vec::new();
    let mut reverse = |g: &Tabik, moves: &mut [<Tabik as Game>::Move]| {
        if g.history().len() == 1 {
            first_tried.extend(g.history().last());
        }
        moves.reverse();
    };
    let limits = SolveLimits { max_nodes: Some(50), ..SolveLimits::default() };
    let mut solver = Solver::new(&game, &limits, Some(&mut reverse), 2);
    root_keys(&mut solver, &game);
    let (key, symmetry) = solver.key(&game, 0);
    // A lower bound of 0 does not cut the window (-1, 1) off: the search goes on.
    let flags = Bound::Lower as u8 | symmetry << 2;
    solver.table.store(Entry { key, work: 1, best: best as u16, value: 0, flags });
    let _ = solver.negamax(&mut game.clone(), -1, 1, 0);
    drop(solver);
    assert_eq!(first_tried.first(), Some(&generated[best]));
}

/// In an ordered search the table keeps the best move's index in the list as generated:
/// on won positions whose first two generated moves lose, the entry's move wins.
#[test]
fn an_ordered_search_stores_the_best_moves_index_as_generated() {
    let positions = tabik_positions(3);
    let mut checked = 0;
    for game in positions.iter().filter(|p| p.history().len() == 2) {
        let solution = solve(game, None).unwrap();
        let generated = game.legal_moves();
        if solution.value != 1 || generated[..2].iter().any(|m| solution.best_moves.contains(m)) {
            continue;
        }
        let mut reverse = |_: &Tabik, moves: &mut [<Tabik as Game>::Move]| moves.reverse();
        let limits = SolveLimits::default();
        let mut solver = Solver::new(game, &limits, Some(&mut reverse), 2);
        root_keys(&mut solver, game);
        assert_eq!(solver.negamax(&mut game.clone(), -1, 1, 0).unwrap(), 1);
        let (key, _) = solver.key(game, 0);
        let stored = generated[solver.table.get(key).unwrap().best as usize];
        assert!(solution.best_moves.contains(&stored), "{:?}: {stored:?}", game.history());
        checked += 1;
    }
    assert!(checked >= 3, "{checked} positions");
}

/// On a position that is not won every move is searched, and of the moves that reach its
/// value the table keeps the first tried (here, as generated): a later move that only
/// ties it does not replace it.
#[test]
fn the_table_keeps_the_first_move_that_reached_the_value() {
    let positions = tabik_positions(3);
    let mut checked = 0;
    for game in positions.iter().filter(|p| p.history().len() <= 3) {
        let solution = solve(game, None).unwrap();
        if solution.value == 1 || solution.best_moves.len() < 2 {
            continue;
        }
        let generated = game.legal_moves();
        let limits = SolveLimits::default();
        let mut solver = Solver::new(game, &limits, None, 0);
        root_keys(&mut solver, game);
        assert_eq!(solver.negamax(&mut game.clone(), -1, 1, 0).unwrap(), solution.value);
        let (key, _) = solver.key(game, 0);
        let first = generated.iter().position(|m| solution.best_moves.contains(m)).unwrap();
        assert_eq!(solver.table.get(key).unwrap().best as usize, first, "{:?}", game.history());
        checked += 1;
    }
    assert!(checked >= 3, "{checked} positions");
}
