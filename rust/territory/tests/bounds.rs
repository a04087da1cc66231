//! Every game has a known maximum length (`Game::max_game_length`, derived in
//! each game's docs/games/<game>.md): random games on every option set stay within it, Nume games
//! last exactly that long, and on Tabik 2 x 2 (small enough to search every game) the
//! longest game reaches it.

mod common;

use common::{migongs, numes, play_random, rng, tabiks};
use territory::{Game, Tabik, TabikConfig};

fn lengths<G: Game>(start: &G, games: u64) -> Vec<usize> {
    (0..games)
        .map(|index| {
            let mut game = start.clone();
            play_random(&mut game, &mut rng(index)); // asserts the bound
            game.history().len()
        })
        .collect()
}

#[test]
fn random_games_stay_within_the_bound() {
    for start in tabiks() {
        let bound = start.max_game_length();
        let config = start.config();
        assert_eq!(
            bound,
            2 * config.size * (config.size - 1) + config.pie as usize + 2
        );
        for length in lengths(&start, 10) {
            assert!(length <= bound);
        }
    }
    for start in migongs() {
        let bound = start.max_game_length();
        assert_eq!(bound, if start.config().pie { 254 } else { 253 });
        for length in lengths(&start, 3) {
            assert!(length <= bound);
        }
    }
    for start in numes() {
        let bound = start.max_game_length();
        assert_eq!(
            bound,
            start.num_cells() + 2 * start.config().komi_phase as usize
        );
        for length in lengths(&start, 2) {
            assert_eq!(length, bound, "a Nume game fills every cell");
        }
    }
}

/// The length of the longest game from here (a full search).
fn longest<G: Game>(game: &mut G) -> usize {
    if game.is_over() {
        return game.history().len();
    }
    let mut best = 0;
    for mv in game.legal_moves() {
        game.play_unchecked(mv);
        best = best.max(longest(game));
        game.undo();
    }
    best
}

#[test]
fn tabik_two_by_two_reaches_the_bound() {
    for pie in [true, false] {
        let mut game = Tabik::new(TabikConfig { size: 2, pie }).unwrap();
        assert_eq!(longest(&mut game), game.max_game_length());
        assert_eq!(game.max_game_length(), 4 + pie as usize + 2);
    }
}

#[test]
fn tabik_three_by_three_random_games_come_near_the_bound() {
    // Too many games to search them all: the longest of 2000 random games lays at least
    // 10 of the 12 rods.
    let game = Tabik::new(TabikConfig { size: 3, pie: true }).unwrap();
    let best = lengths(&game, 2000).into_iter().max().unwrap();
    assert!(best <= game.max_game_length() && best + 2 >= game.max_game_length());
}
