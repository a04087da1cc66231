//! Seeded UCT searches pinned: the root's visits and values for fixed seeds, from the
//! start position and from mid-game roots (undone back to, not reset), per game. A change
//! in how a search plays its rollouts or restores its root must leave these unchanged.

use territory::rules::playout::game_rng;
use territory::search::{analyse, UctConfig};
use territory::{Game, Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

/// `game` after `moves` random moves (seeded), or at the start for 0.
fn after<G: Game>(game: &G, moves: usize) -> G {
    let mut game = game.clone();
    let mut rng = game_rng(7, moves as u64);
    for _ in 0..moves {
        let mv = game.random_move(&mut rng).expect("the game runs");
        game.play_unchecked(mv);
    }
    game
}

/// FNV-1a over the visits and the bits of the values of searches with seeds 0..3 from
/// `game` after 0 and `mid` random moves, on 1 and 2 threads.
fn checksum<G: Game>(game: &G, mid: usize, iterations: u64) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut add = |x: u64| {
        hash ^= x;
        hash = hash.wrapping_mul(0x100_0000_01b3);
    };
    for moves in [0, mid] {
        let root = after(game, moves);
        for (seed, threads) in [(0, 1), (1, 1), (2, 1), (3, 2)] {
            let config = UctConfig {
                iterations,
                seed,
                threads,
                ..UctConfig::default()
            };
            let a = analyse(&root, &config);
            assert_eq!(a.visits.iter().sum::<u64>(), iterations);
            a.visits.iter().for_each(|&v| add(v));
            a.values.iter().for_each(|v| add(v.to_bits()));
            add(a.value.to_bits());
        }
    }
    hash
}

#[test]
fn tabik_searches_pinned() {
    let game = Tabik::new(TabikConfig { size: 5, pie: true }).unwrap();
    assert_eq!(checksum(&game, 9, 600), 7136674457941997755);
}

#[test]
fn nume_searches_pinned() {
    let game = Nume::new(NumeConfig {
        n: 3,
        ..NumeConfig::default()
    })
    .unwrap();
    assert_eq!(checksum(&game, 11, 600), 11997934887802355548);
    let komi = Nume::new(NumeConfig {
        n: 2,
        komi_phase: true,
        ..NumeConfig::default()
    })
    .unwrap();
    assert_eq!(checksum(&komi, 1, 400), 14926854495509955940);
}

#[test]
fn migong_searches_pinned() {
    let game = Migong::new(MigongConfig::default()).unwrap();
    assert_eq!(checksum(&game, 6, 200), 4352264030222951784);
}
