//! A game's own playout loop ([`Game::random_playout`]) makes exactly the moves of the
//! move-by-move loop ([`play_out_observed`]): the same result and final state, and keys
//! that are right after it (it may skip their updates), through undo and further play.

mod common;

use territory::rules::playout::{game_rng, play_out_observed};
use territory::{Game, Learn, Migong, Nume, Tabik};

/// Games set up from text (`from_position`), whose turn state is not the start's.
trait SetUp: Learn {
    fn set_up(&self) -> Self;
}

impl SetUp for Tabik {
    fn set_up(&self) -> Tabik {
        Tabik::from_position(self.config(), &self.position()).unwrap()
    }
}

impl SetUp for Nume {
    fn set_up(&self) -> Nume {
        Nume::from_position(self.config(), &self.position()).unwrap()
    }
}

impl SetUp for Migong {
    fn set_up(&self) -> Migong {
        Migong::from_position(self.config(), &self.position()).unwrap()
    }
}

/// Plays `index % 7` random moves (fewer if the game ends), or up to the first pass
/// when `to_pass`.
fn some_moves<G: Game>(game: &mut G, index: u64, to_pass: bool) {
    let mut rng = game_rng(99, index);
    let mut left = index % 7;
    while let Some(mv) = game.random_move(&mut rng) {
        if !to_pass && left == 0 {
            break;
        }
        game.play_unchecked(mv);
        left = left.saturating_sub(1);
        if to_pass && G::is_pass(mv) {
            break;
        }
    }
}

/// Both loops from `start`, compared; then both games undone move by move and replayed,
/// keys compared all the way.
fn check_same<G: Learn + PartialEq>(start: &G, index: u64) {
    let (mut fast, mut slow) = (start.clone(), start.clone());
    let expected = play_out_observed(&mut slow, &mut game_rng(5, index), |_, _| {});
    let result = fast.random_playout(&mut game_rng(5, index));
    assert_eq!(result, expected, "{start:?}");
    assert!(fast == slow && fast.is_over());
    assert_eq!(fast.key(), slow.key(), "{start:?}");
    assert_eq!(fast.outcome(), slow.outcome());
    assert_eq!(fast.groups(), slow.groups());
    assert_eq!(observation(&fast), observation(&slow));
    let played = fast.history().len() - start.history().len();
    for step in 0..played {
        assert_eq!(fast.undo(), slow.undo());
        assert_eq!(fast.key(), slow.key());
        if step % 5 == 0 {
            assert_eq!(fast.outcome(), slow.outcome());
            assert_eq!(fast.groups(), slow.groups());
            assert_eq!(observation(&fast), observation(&slow));
        }
    }
    assert_eq!(fast.key(), start.key());
    // Once more, undoing right after the playout: the key must follow.
    fast.random_playout(&mut game_rng(6, index));
    slow.random_playout(&mut game_rng(6, index));
    assert_eq!(fast.undo(), slow.undo());
    assert_eq!(fast.key(), slow.key());
    if let Some(mv) = slow.random_move(&mut game_rng(7, index)) {
        fast.play_unchecked(mv);
        slow.play_unchecked(mv);
    }
    assert_eq!(fast.key(), slow.key());
}

fn observation<G: Learn>(game: &G) -> Vec<f32> {
    let mut out = vec![0.0; game.observation_len()];
    game.observe(&mut out);
    out
}

/// A bulk run from `start` (which reuses one game per thread, reset between games) plays
/// the games of one-game runs: a set-up state is reset to its own position every time,
/// not only the first (it was reset to the empty board from the second game on).
fn check_bulk_run<G: Game>(start: &G) {
    let mut bulk = vec![territory::rules::playout::PlayoutResult::default(); 4];
    territory::rules::playout::run(start, 11, 0, &mut bulk, Some(1), &Default::default()).unwrap();
    for (index, result) in bulk.iter().enumerate() {
        let mut one = [territory::rules::playout::PlayoutResult::default()];
        territory::rules::playout::run(
            start,
            11,
            index as u64,
            &mut one,
            Some(1),
            &Default::default(),
        )
        .unwrap();
        assert_eq!(*result, one[0], "game {index}");
    }
    let mut game = start.clone();
    for _ in 0..2 {
        game.random_playout(&mut game_rng(1, 2));
        game.reset();
        assert_eq!(game.key(), start.key());
    }
}

fn check_game<G: SetUp + PartialEq>(starts: Vec<G>, games: u64) {
    for start in starts {
        for index in 0..games {
            if index == 0 {
                let mut later = start.clone();
                some_moves(&mut later, index + 3, false);
                if !later.is_over() {
                    check_bulk_run(&later.set_up());
                }
            }
            check_same(&start, index);
            let mut later = start.clone();
            some_moves(&mut later, index, false);
            check_same(&later, index);
            check_same(&later.set_up(), index);
            let mut passed = start.clone();
            some_moves(&mut passed, index, true);
            check_same(&passed.set_up(), index);
        }
    }
}

#[test]
fn tabik_playouts_match_the_move_by_move_loop() {
    check_game(common::tabiks(), 12);
}

#[test]
fn nume_playouts_match_the_move_by_move_loop() {
    check_game(common::numes(), 12);
}

#[test]
fn migong_playouts_match_the_move_by_move_loop() {
    check_game(common::migongs(), 3);
}
