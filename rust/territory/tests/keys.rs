//! Position keys: kept up to date incrementally (equal to a recomputation after every
//! move and undo), equal across transpositions, distinct across distinct positions.

use std::collections::HashMap;

use territory::rules::playout::game_rng;
use territory::{Color, Game, Migong, MigongConfig, Nume, NumeConfig, Seat, Tabik, TabikConfig};

/// Everything that decides the rest of a game, read through the public API.
trait Described: Game {
    fn compute(&self) -> u64;
    fn board_text(&self) -> String;
    fn describe(&self) -> String {
        let pending_pass = self.history().last().is_some_and(|&m| Self::is_pass(m));
        format!(
            "{} to_move={:?} colours={:?} last={:?} pass={} moves={:?}",
            self.board_text(),
            self.to_move(),
            Seat::BOTH.map(|s| self.color_of(s)),
            self.last_mover(),
            pending_pass,
            self.legal_moves()
        )
    }
}

impl Described for Tabik {
    fn compute(&self) -> u64 {
        self.compute_key()
    }
    fn board_text(&self) -> String {
        let stones: Vec<_> = (0..self.num_cells()).map(|c| self.stone_at(c)).collect();
        format!("{stones:?} {:?}", self.rods())
    }
}

impl Described for Nume {
    fn compute(&self) -> u64 {
        self.compute_key()
    }
    fn board_text(&self) -> String {
        let stones: Vec<_> = (0..self.num_cells()).map(|c| self.stone_at(c)).collect();
        format!("{stones:?} komi={:?}", self.komi())
    }
}

impl Described for Migong {
    fn compute(&self) -> u64 {
        self.compute_key()
    }
    fn board_text(&self) -> String {
        let pieces: Vec<_> = (0..self.num_cells()).map(|c| self.piece_at(c)).collect();
        format!("{pieces:?} {:?}", Color::BOTH.map(|c| self.remaining(c)))
    }
}

/// Plays `games` random games from `start`, checking the key against a recomputation
/// after every move and every undo, and that distinct positions get distinct keys.
fn check_random_games<G: Described>(start: &G, games: u64, check_distinct: bool) -> usize {
    let mut seen: HashMap<u64, String> = HashMap::new();
    for index in 0..games {
        let mut g = start.clone();
        let mut rng = game_rng(11, index);
        let mut keys = vec![g.key()];
        assert_eq!(g.key(), g.compute());
        while let Some(mv) = g.random_move(&mut rng) {
            g.play_unchecked(mv);
            assert_eq!(g.key(), g.compute(), "after {:?}", g.history());
            keys.push(g.key());
            if check_distinct {
                let text = g.describe();
                if let Some(old) = seen.insert(g.key(), text.clone()) {
                    assert_eq!(old, text, "two positions share a key");
                }
            }
        }
        while g.undo().is_some() {
            keys.pop();
            assert_eq!(g.key(), *keys.last().unwrap());
            assert_eq!(g.key(), g.compute());
        }
    }
    seen.len()
}

#[test]
fn tabik_keys() {
    for (size, pie) in [(2, true), (3, false), (4, true), (6, true), (16, true)] {
        let start = Tabik::new(TabikConfig { size, pie }).unwrap();
        let distinct = check_random_games(&start, 200, size <= 6);
        assert!(size > 6 || distinct > 10, "{size}: {distinct}");
    }
}

#[test]
fn nume_keys() {
    for config in [
        NumeConfig {
            n: 1,
            ..NumeConfig::default()
        },
        NumeConfig {
            square: Some(2),
            komi: None,
            ..NumeConfig::default()
        },
        NumeConfig {
            n: 2,
            komi_phase: true,
            ..NumeConfig::default()
        },
        NumeConfig {
            square: Some(16),
            ..NumeConfig::default()
        },
    ] {
        let start = Nume::new(config).unwrap();
        check_random_games(&start, 100, config.square != Some(16));
    }
}

#[test]
fn migong_keys() {
    let start = Migong::new(MigongConfig::default()).unwrap();
    check_random_games(&start, 20, true);
}

fn after<G: Game>(start: &G, moves: &[&str]) -> G {
    let mut g = start.clone();
    for m in moves {
        g.play_str(m).unwrap();
    }
    g
}

#[test]
fn transpositions_share_keys() {
    let t = Tabik::new(TabikConfig {
        size: 4,
        pie: false,
    })
    .unwrap();
    let a = after(&t, &["a1-b1", "c3-d3", "a4-a3"]);
    let b = after(&t, &["a4-a3", "c3-d3", "a1-b1"]);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), after(&t, &["a4-a3", "d3-c3", "a1-b1"]).key());
    // The same board with the other side to move differs.
    let t = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
    let a = after(&t, &["a1-b1", "swap", "c3-d3"]);
    let b = after(&t, &["c3-d3", "swap", "a1-b1"]);
    assert_eq!(a.key(), b.key());
    assert_ne!(after(&t, &["a1-b1"]).key(), t.key());

    let n = Nume::new(NumeConfig {
        square: Some(3),
        ..NumeConfig::default()
    })
    .unwrap();
    let a = after(&n, &["a1=2", "c3=1", "c1=0", "a3=5"]);
    let b = after(&n, &["c1=0", "a3=5", "a1=2", "c3=1"]);
    assert_eq!(a.key(), b.key());
    let c = after(&n, &["c1=0", "a3=5", "a1=3", "c3=1"]);
    assert_ne!(a.key(), c.key());
    let big = after(&n, &["c1=0", "a3=5", "a1=2147483647", "c3=1"]);
    assert_ne!(a.key(), big.key());
    assert_eq!(big.key(), big.compute_key());

    // Migong: four placements far apart (rows 1, 13 and columns a, m), two orders.
    let m = Migong::new(MigongConfig {
        pie: false,
        ..MigongConfig::default()
    })
    .unwrap();
    let pick = |g: &Migong, prefix: &str, avoid: &[String]| {
        g.legal_moves()
            .into_iter()
            .map(|mv| g.move_text(mv).to_string())
            .find(|mv| {
                let (cell, piece) = mv.split_once(':').unwrap();
                cell.starts_with(prefix) && !avoid.iter().any(|a| a.ends_with(&format!(":{piece}")))
            })
            .unwrap()
    };
    let a = pick(&m, "g1", &[]);
    let b = pick(&after(&m, &[&a]), "a", &[]);
    let c = pick(&after(&m, &[&a, &b]), "g13", std::slice::from_ref(&a));
    let d = pick(&after(&m, &[&a, &b, &c]), "m", std::slice::from_ref(&b));
    let one = after(&m, &[&a, &b, &c, &d]);
    let two = after(&m, &[&c, &d, &a, &b]);
    assert_eq!(one.key(), two.key());
    assert_eq!(one.key(), after(&m, &[&a, &d, &c, &b]).key());
    assert_ne!(one.key(), after(&m, &[&a, &b, &c]).key());
}
