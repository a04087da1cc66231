//! `clone_from` (written by hand so that it reuses allocations) makes an exact copy, over
//! whatever state the target was in, lazy playout state (keys, Nume's group forest)
//! included on either side.

mod common;

use territory::rules::playout::game_rng;
use territory::{Game, Learn};

/// `game` after `moves` seeded random moves (fewer if it ends), then, when `lazy`, a
/// random playout (which leaves keys and Nume's forest to be caught up).
fn position<G: Game>(start: &G, seed: u64, moves: usize, lazy: bool) -> G {
    let mut game = start.clone();
    let mut rng = game_rng(seed, moves as u64);
    for _ in 0..moves {
        match game.random_move(&mut rng) {
            Some(mv) => game.play_unchecked(mv),
            None => break,
        }
    }
    if lazy {
        game.random_playout(&mut rng);
    }
    game
}

fn same<G: Learn + PartialEq>(a: &G, b: &G) {
    assert!(a == b);
    assert_eq!(a.key(), b.key());
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.groups(), b.groups());
    assert_eq!(a.legal_moves(), b.legal_moves());
}

/// Both play on to the end and take everything back alike.
fn plays_alike<G: Learn + PartialEq>(mut a: G, mut b: G, seed: u64) {
    let mut rng = game_rng(3, seed);
    while let Some(mv) = a.random_move(&mut rng) {
        a.play_unchecked(mv);
        b.play_unchecked(mv);
    }
    same(&a, &b);
    while a.undo().is_some() {
        assert!(b.undo().is_some());
        assert_eq!(a.key(), b.key());
    }
    same(&a, &b);
}

/// `start` set up at its position after a few random moves (a game with a set-up
/// position, which `reset` and equality read).
fn set_up<G: Learn + PartialEq>(start: &G, seed: u64) -> G {
    let played = position(start, seed, 4, false);
    G::from_position(played.configuration(), &played.position()).expect("a position written reads back")
}

fn check<G: Learn + PartialEq>(starts: Vec<G>) {
    // Over a game of other parameters (another board): everything is copied.
    let last = starts.len() - 1;
    for (from, to) in (0..last).map(|i| (i + 1, i)).chain([(last, 0), (0, last)]) {
        let (source, mut target) = (position(&starts[from], 7, 3, false), position(&starts[to], 8, 3, false));
        target.clone_from(&source);
        same(&target, &source);
        plays_alike(source, target, from as u64);
    }
    for start in &starts {
        // A set-up position over a game without one, and the reverse.
        let with = set_up(start, 4);
        let mut target = position(start, 5, 2, false);
        target.clone_from(&with);
        same(&target, &with);
        let mut back = set_up(start, 6);
        back.clone_from(start);
        same(&back, start);
    }
    for start in starts {
        for (i, (moves, lazy)) in [(0, false), (3, false), (7, true), (1, true)]
            .into_iter()
            .enumerate()
        {
            let source = position(&start, 1, moves, lazy);
            let mut target = position(&start, 2, 5 - i, i % 2 == 0);
            target.clone_from(&source);
            same(&target, &source);
            same(&source.clone(), &source);
            plays_alike(source, target, i as u64);
        }
    }
}

#[test]
fn tabik_clone_from_copies_exactly() {
    check(common::tabiks());
}

#[test]
fn nume_clone_from_copies_exactly() {
    check(common::numes());
}

#[test]
fn migong_clone_from_copies_exactly() {
    check(common::migongs());
}
