//! `check`, the move generator and `random_move` agree, on random positions of every
//! game and option set: for every action number `a`, `check(move_of(a))` accepts exactly
//! the generated moves, and `random_move` only returns listed moves.
//!
//! The default run samples a few positions per game (fast in debug builds); the ignored
//! test checks every position of more games:
//! `cargo test --release -p territory --test legality -- --ignored`.

mod common;

use common::{migongs, numes, play_random, rng, tabiks};
use territory::{Game, IllegalMove, Learn};

/// Everything about one position: the legal list against `check` on every action, the
/// action numbering and move strings of listed moves, `random_move`, and play/undo.
fn check_position<G: Game + Learn + PartialEq>(game: &G, seed: u64) {
    let moves = game.legal_moves();
    assert_eq!(moves.is_empty(), game.is_over());
    let actions: Vec<usize> = moves
        .iter()
        .map(|&mv| {
            game.action_of(mv)
                .unwrap_or_else(|| panic!("listed move {} has no action", game.move_text(mv)))
        })
        .collect();
    assert!(
        actions.windows(2).all(|w| w[0] < w[1]),
        "legal moves not in strictly ascending action order: {moves:?}"
    );
    for a in 0..game.num_actions() {
        let mv = game.move_of(a).expect("every action in range has a move");
        let text = game.move_text(mv);
        assert_eq!(game.action_of(mv), Some(a), "{text}");
        let listed = actions.binary_search(&a).is_ok();
        let checked = game.check(mv);
        assert_eq!(
            checked.is_ok(),
            listed,
            "{} {game:?}: action {a} ({text}): check says {checked:?}, listed: {listed}",
            G::NAME
        );
    }
    assert_eq!(game.move_of(game.num_actions()), None);
    if let (Some(pass), false) = (G::PASS, game.is_over()) {
        if let Err(refused) = game.check(pass) {
            let counted = IllegalMove::PassNotAllowed { legal: moves.len() }.into();
            assert_eq!(
                refused,
                counted,
                "{} {game:?}: a refused pass counts the legal moves",
                G::NAME
            );
        }
    }
    for &mv in &moves {
        assert_eq!(game.parse_move(&game.move_text(mv).to_string()), Ok(mv));
    }
    let mut r = rng(seed);
    for _ in 0..8 {
        match game.random_move(&mut r) {
            Some(mv) => assert!(
                moves.contains(&mv),
                "random_move gave {}, not listed",
                game.move_text(mv)
            ),
            None => assert!(game.is_over()),
        }
    }
    // Every listed move plays and undoes cleanly (a sample of them on long lists, and the
    // pass and the pie swap always): the game played differs from the game (another
    // history), and undone it is the game again, down to its position and legal moves.
    let mut copy = game.clone();
    let (scores, to_move, position) = (
        format!("{:?}", game.scores()),
        game.to_move(),
        game.position(),
    );
    let special = moves
        .iter()
        .filter(|&&mv| G::is_pass(mv) || G::is_pie_swap(mv));
    for &mv in moves.iter().step_by(moves.len() / 50 + 1).chain(special) {
        copy.play(mv).unwrap();
        assert!(
            copy != *game,
            "{}: played {}, still equal",
            G::NAME,
            game.move_text(mv)
        );
        assert_eq!(copy.undo(), Some(mv));
        assert!(copy == *game && copy.to_move() == to_move);
        assert_eq!(
            copy.position(),
            position,
            "{}: {} undone",
            G::NAME,
            game.move_text(mv)
        );
        assert_eq!(format!("{:?}", copy.scores()), scores);
    }
    assert_eq!(copy.legal_moves(), moves);
}

/// Plays `games` random games from `start`; checks about `positions` positions of each,
/// spread over the game (the start, the pie turn, the end and evenly between), or every
/// position.
fn check_games<G: Game + Learn + PartialEq>(start: &G, games: u64, positions: Option<usize>) {
    for index in 0..games {
        let mut end = start.clone();
        play_random(&mut end, &mut rng(1000 + index));
        let length = end.history().len();
        let every = positions.map_or(1, |p| (length / p.max(1)).max(1));
        let mut game = start.clone();
        for (ply, &mv) in end.history().iter().enumerate() {
            if ply % every == 0 || ply == 1 || ply + 1 == length {
                check_position(&game, ply as u64);
            }
            game.play(mv).unwrap();
        }
        check_position(&game, 0);
        assert!(game.is_over());
    }
}

/// Positions per game so that one game costs about `budget` action checks.
fn positions_for<G: Game>(game: &G, budget: usize) -> Option<usize> {
    Some((budget / game.num_actions()).max(2))
}

#[test]
fn tabik_check_agrees_with_generator() {
    for start in tabiks() {
        check_games(&start, 2, positions_for(&start, 20_000));
    }
}

#[test]
fn nume_check_agrees_with_generator() {
    for start in numes() {
        check_games(&start, 1, positions_for(&start, 40_000));
    }
}

#[test]
fn migong_check_agrees_with_generator() {
    for start in migongs() {
        check_games(&start, 1, positions_for(&start, 20_000));
    }
}

#[test]
#[ignore = "minutes in debug builds; run with --release -- --ignored"]
fn every_position_of_many_games() {
    for start in tabiks() {
        check_games(&start, 20, None);
    }
    for start in numes() {
        check_games(&start, 3, positions_for(&start, 3_000_000));
    }
    for start in migongs() {
        check_games(&start, 5, None);
    }
}
