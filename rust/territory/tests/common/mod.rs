//! Shared by the integration tests: every game and option set worth testing, a seeded
//! random player that fails fast past a game's length bound, and game parameters read
//! from `key=value` text (the `params` lines of `tests/data/*.perft`).

#![allow(dead_code)] // each test binary uses part of this module

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use territory::games::migong::{Border, GroupSize};
use territory::{Color, Game, Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

pub fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Every Tabik size, with and without the pie rule.
pub fn tabik_configs() -> Vec<TabikConfig> {
    (2..=16)
        .flat_map(|size| [true, false].map(|pie| TabikConfig { size, pie }))
        .collect()
}

/// Every Nume board (hex n 1..8, square 2..16) with the default komi; then the komi
/// phase, no komi and komi to White on a few boards.
pub fn nume_configs() -> Vec<NumeConfig> {
    let base = NumeConfig::default();
    let mut configs: Vec<NumeConfig> = (1..=8)
        .map(|n| NumeConfig { n, ..base })
        .chain((2..=16).map(|k| NumeConfig {
            square: Some(k),
            ..base
        }))
        .collect();
    for (n, square) in [
        (1, None),
        (2, None),
        (8, None),
        (4, Some(2)),
        (4, Some(3)),
        (4, Some(16)),
    ] {
        configs.push(NumeConfig {
            n,
            square,
            komi_phase: true,
            ..base
        });
    }
    configs.push(NumeConfig {
        n: 2,
        komi: None,
        ..base
    });
    configs.push(NumeConfig {
        square: Some(4),
        komi: Some(7),
        komi_to: Color::Second,
        ..base
    });
    configs
}

/// A seeded explicit border.
pub fn explicit_border(seed: u64) -> Border {
    let mut r = rng(seed);
    Border::Explicit(std::array::from_fn(|_| Color::BOTH[r.random_range(0..2)]))
}

/// Every border option (an explicit one from a seed) by both group sizes, both pies.
pub fn migong_configs() -> Vec<MigongConfig> {
    let borders = [
        Border::Alternate,
        Border::AllBlue,
        Border::AllYellow,
        explicit_border(1),
    ];
    let mut configs = Vec::new();
    for border in borders {
        for group_size in [GroupSize::Extent, GroupSize::Wedges] {
            for pie in [true, false] {
                configs.push(MigongConfig {
                    pie,
                    border,
                    group_size,
                });
            }
        }
    }
    configs
}

pub fn tabiks() -> Vec<Tabik> {
    tabik_configs()
        .into_iter()
        .map(|c| Tabik::new(c).unwrap())
        .collect()
}

pub fn numes() -> Vec<Nume> {
    nume_configs()
        .into_iter()
        .map(|c| Nume::new(c).unwrap())
        .collect()
}

pub fn migongs() -> Vec<Migong> {
    migong_configs()
        .into_iter()
        .map(|c| Migong::new(c).unwrap())
        .collect()
}

/// Plays `game` to the end with `random_move`, checking every move against the legal
/// list and failing (instead of looping) once the game outlasts its bound.
pub fn play_random<G: Game, R: rand::Rng>(game: &mut G, rng: &mut R) {
    let limit = game.max_game_length();
    while let Some(mv) = game.random_move(rng) {
        assert!(
            game.history().len() < limit,
            "{} {game:?} ran past its maximum length {limit}",
            G::NAME
        );
        if let Err(e) = game.check(mv) {
            let mv = game.move_text(mv);
            panic!("random_move gave {mv}, which check rejects: {e}");
        }
        game.play_unchecked(mv);
    }
    assert!(game.is_over() && game.legal_moves().is_empty());
}

/// Game parameters from `key=value` pairs, values as JSON scalars (`8`, `true`, `null`,
/// `0.5`, `"alternate"`); keys and values as in the Python API.
pub struct Params(Vec<(String, String)>);

impl Params {
    pub fn parse(text: &str) -> Params {
        Params(
            text.split_whitespace()
                .map(|pair| {
                    let (k, v) = pair.split_once('=').expect("key=value");
                    (k.to_string(), v.trim_matches('"').to_string())
                })
                .collect(),
        )
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn flag(&self, key: &str, default: bool) -> bool {
        self.get(key).map_or(default, |v| v == "true")
    }

    pub fn tabik(&self) -> Tabik {
        let size = self.get("size").map_or(8, |v| v.parse().unwrap());
        Tabik::new(TabikConfig {
            size,
            pie: self.flag("pie", true),
        })
        .unwrap()
    }

    pub fn migong(&self) -> Migong {
        let border = match self.get("border").unwrap_or("alternate") {
            "alternate" => Border::Alternate,
            "blue" => Border::AllBlue,
            "yellow" => Border::AllYellow,
            letters => {
                let colors: Vec<Color> = letters
                    .bytes()
                    .map(|b| {
                        if b == b'Y' {
                            Color::Second
                        } else {
                            Color::First
                        }
                    })
                    .collect();
                Border::Explicit(colors.try_into().expect("84 border letters"))
            }
        };
        let group_size = match self.get("group_size").unwrap_or("extent") {
            "wedges" => GroupSize::Wedges,
            _ => GroupSize::Extent,
        };
        Migong::new(MigongConfig {
            pie: self.flag("pie", true),
            border,
            group_size,
        })
        .unwrap()
    }

    pub fn nume(&self) -> Nume {
        let base = NumeConfig::default();
        let komi = match self.get("komi") {
            None => base.komi,
            Some("null") => None,
            Some(v) => Some(v.strip_suffix(".5").expect("k.5").parse().unwrap()),
        };
        Nume::new(NumeConfig {
            n: self.get("n").map_or(base.n, |v| v.parse().unwrap()),
            square: match self.get("square") {
                None | Some("null") => None,
                Some(v) => Some(v.parse().unwrap()),
            },
            komi,
            komi_to: if self.get("komi_to") == Some("white") {
                Color::Second
            } else {
                Color::First
            },
            komi_phase: self.flag("komi_phase", false),
        })
        .unwrap()
    }
}
