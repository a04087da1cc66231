//! Helpers shared by the fuzz targets: games with parameters chosen by the fuzz input,
//! and the checks every move must pass (modelled on shakmaty's `legals_are_legal`).

use territory::games::migong::{Border, GroupSize, Piece, BORDER_EDGES};
use territory::{
    Color, Game, GroupInfo, Migong, MigongConfig, MigongMove, Nume, NumeConfig, NumeMove, Seat,
    Tabik, TabikConfig, TabikMove,
};

/// Reads the fuzz input front to back; past the end every read gives zeros.
pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// Up to `len` bytes (fewer at the end of the input).
    pub fn bytes(&mut self, len: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(len.min(self.0.len()));
        self.0 = rest;
        head
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A Tabik game of any allowed size, with or without the pie rule.
pub fn tabik(input: &mut Input) -> Tabik {
    let b = input.byte();
    Tabik::new(TabikConfig {
        size: 2 + (b & 0x0f) as usize % 15,
        pie: b & 0x10 == 0,
    })
    .expect("sizes 2 to 16 are allowed")
}

/// A Nume game on any hex or square board, with any komi arrangement.
pub fn nume(input: &mut Input) -> Nume {
    let (b, c) = (input.byte(), input.byte());
    let square = (b & 0x80 != 0).then_some(2 + (b & 0x0f) as usize % 15);
    Nume::new(NumeConfig {
        n: 1 + (b & 0x07) as usize,
        square,
        komi: match c & 0x03 {
            0 => None,
            1 => Some(0),
            2 => Some(territory::games::nume::MAX_KOMI),
            _ => Some((c >> 2) as u64),
        },
        komi_to: if c & 0x04 == 0 {
            Color::First
        } else {
            Color::Second
        },
        komi_phase: b & 0x40 != 0,
    })
    .expect("every parameter is in range")
}

/// A Migong game with any border, pie rule and group size.
pub fn migong(input: &mut Input) -> Migong {
    let b = input.byte();
    let border = match b & 0x03 {
        0 => Border::Alternate,
        1 => Border::AllBlue,
        2 => Border::AllYellow,
        _ => {
            let mut colors = [Color::First; BORDER_EDGES];
            let bits = input.bytes(BORDER_EDGES.div_ceil(8));
            for (i, color) in colors.iter_mut().enumerate() {
                if bits.get(i / 8).is_some_and(|byte| byte >> (i % 8) & 1 == 1) {
                    *color = Color::Second;
                }
            }
            Border::Explicit(colors)
        }
    };
    Migong::new(MigongConfig {
        pie: b & 0x04 == 0,
        border,
        group_size: if b & 0x08 == 0 {
            GroupSize::Extent
        } else {
            GroupSize::Wedges
        },
    })
    .expect("every border is allowed")
}

/// What the fuzz targets need beyond [`Game`].
pub trait FuzzGame: Game + PartialEq {
    /// The move `legal_moves()` lists in place of `mv`, legal exactly when `mv` is: `mv`
    /// itself, except for Nume stones with a number above the number of cells (legal, but
    /// without an action number, so listed with the number 0 instead) and Tabik stone
    /// swaps built with the higher square first (listed with the lower first).
    fn listed_form(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    /// A move value built from the input as code could build it: any cell index 0 to
    /// 255 (on the board or not), any piece or number.
    fn raw_move(input: &mut Input) -> Self::Move;
}

impl FuzzGame for Tabik {
    fn listed_form(&self, mv: TabikMove) -> TabikMove {
        match mv {
            TabikMove::StoneSwap { first, second } if first > second => TabikMove::StoneSwap {
                first: second,
                second: first,
            },
            other => other,
        }
    }

    fn raw_move(input: &mut Input) -> TabikMove {
        let (kind, a, b) = (input.byte(), input.byte(), input.byte());
        match kind % 4 {
            0 => TabikMove::Place { black: a, white: b },
            1 => TabikMove::StoneSwap {
                first: a,
                second: b,
            },
            2 => TabikMove::Swap,
            _ => TabikMove::Pass,
        }
    }
}

impl FuzzGame for Migong {
    fn raw_move(input: &mut Input) -> MigongMove {
        let (kind, cell, piece) = (input.byte(), input.byte(), input.byte());
        match kind % 3 {
            0 => MigongMove::Place {
                cell,
                piece: Piece(piece),
            },
            1 => MigongMove::Swap,
            _ => MigongMove::Pass,
        }
    }
}

impl FuzzGame for Nume {
    fn listed_form(&self, mv: NumeMove) -> NumeMove {
        match mv {
            NumeMove::Place {
                cell,
                number: Some(w),
            } if w <= territory::games::nume::MAX_NUMBER && self.action_of(mv).is_none() => {
                NumeMove::Place {
                    cell,
                    number: Some(0),
                }
            }
            other => other,
        }
    }

    fn raw_move(input: &mut Input) -> NumeMove {
        let (kind, cell) = (input.byte(), input.byte());
        let color = Color::BOTH[(kind >> 4 & 1) as usize];
        match kind % 3 {
            0 => NumeMove::Place {
                cell,
                number: match kind >> 2 & 3 {
                    0 => None,
                    1 => Some(input.byte() as u32),
                    _ => Some(input.u32()),
                },
            },
            1 => NumeMove::Komi {
                k: input.u32() as u64,
                to: color,
            },
            _ => NumeMove::Side(color),
        }
    }
}

/// Everything observable about a position, to compare before and after play and undo.
#[allow(clippy::type_complexity)]
pub fn fingerprint<G: Game>(
    game: &G,
) -> (
    Vec<G::Move>,
    Vec<G::Move>,
    [Option<Seat>; 3],
    (f64, f64),
    Vec<GroupInfo>,
    [Color; 2],
) {
    let scores = game.scores();
    (
        game.history().to_vec(),
        game.legal_moves(),
        [game.to_move(), game.last_mover(), game.winner()],
        (scores.0[0].into(), scores.0[1].into()),
        game.groups(),
        [game.color_of(Seat::First), game.color_of(Seat::Second)],
    )
}

/// A parsed move: it prints as a move string that parses back to it, and its action
/// number (if any) leads back to it.
pub fn check_parsed<G: Game>(game: &G, mv: G::Move) {
    let text = game.move_text(mv).to_string();
    assert_eq!(game.parse_move(&text), Ok(mv), "{text} does not parse back");
    if let Some(a) = game.action_of(mv) {
        assert!(a < game.num_actions(), "{text}: action {a} out of range");
        assert_eq!(game.move_of(a), Some(mv), "{text}: action {a}");
    }
}

/// `check` agrees with the legal moves; a legal move plays and undoes cleanly. Returns
/// whether `mv` was legal.
pub fn check_move<G: FuzzGame>(game: &mut G, mv: G::Move, legal: &[G::Move]) -> bool {
    let verdict = game.check(mv);
    let listed = legal.contains(&game.listed_form(mv));
    let text = game.move_text(mv).to_string();
    assert_eq!(
        verdict.is_ok(),
        listed,
        "check({text}) = {verdict:?} but legal_moves() {} it",
        if listed { "lists" } else { "does not list" }
    );
    let before = game.clone();
    let print = fingerprint(game);
    match game.play(mv) {
        Ok(()) => {
            assert!(listed, "{text} played though not listed");
            assert_eq!(game.history().last(), Some(&mv));
            assert_eq!(game.undo(), Some(mv), "undo of {text}");
            assert_eq!(*game, before, "play and undo of {text}");
            assert_eq!(fingerprint(game), print, "play and undo of {text}");
            true
        }
        Err(e) => {
            assert!(!listed, "{text} is listed but play says {e}");
            assert!(!e.to_string().is_empty());
            assert_eq!(
                fingerprint(game),
                print,
                "failed play of {text} changed the state"
            );
            false
        }
    }
}

/// Parses `text` (any bytes, read as UTF-8 with replacement) and checks what parses.
pub fn fuzz_text<G: FuzzGame>(game: &mut G, text: &str) {
    match game.parse_move(text) {
        Ok(mv) => {
            check_parsed(game, mv);
            let legal = game.legal_moves();
            check_move(game, mv, &legal);
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty());
            // Messages quote at most a short prefix of the input (each character
            // escaped to at most 10).
            assert!(
                message.chars().count() < 200 + 10 * territory::Excerpt::LIMIT,
                "message too long: {message}"
            );
        }
    }
}

/// A seeded random playout from here: the game's own loop
/// ([`Game::random_playout`], which may leave keys and groups to be caught up later) plays
/// the same moves as the move-by-move loop, leaves a state equal to it in everything
/// observable (key included), and undoes back to where it started.
pub fn check_playout<G: FuzzGame>(game: &mut G, seed: u64) {
    let before = game.clone();
    let print = fingerprint(game);
    let key = game.key();
    let mut stepwise = game.clone();
    let mut rng = territory::rules::playout::game_rng(seed, 0);
    while let Some(mv) = stepwise.random_move(&mut rng) {
        stepwise.play_unchecked(mv);
    }
    let result = game.random_playout(&mut territory::rules::playout::game_rng(seed, 0));
    assert_eq!(game.history(), stepwise.history(), "playout moves");
    assert_eq!(result.length as usize, game.history().len() - before.history().len());
    assert_eq!(game.key(), stepwise.key(), "key after a playout");
    assert_eq!(fingerprint(game), fingerprint(&stepwise), "state after a playout");
    while game.history().len() > before.history().len() {
        game.undo();
    }
    assert_eq!(*game, before, "playout undone");
    assert_eq!(game.key(), key, "key after undoing a playout");
    assert_eq!(fingerprint(game), print, "playout undone");
}

/// Plays a game from the fuzz input: each step tries an arbitrary string, an arbitrary
/// action number, a move value built from raw bytes, or a listed move, checks it, and
/// keeps it when legal; now and then it plays a random playout and undoes it
/// ([`check_playout`]).
pub fn fuzz_sequence<G: FuzzGame>(game: &mut G, input: &mut Input) {
    let mut steps = 0;
    while !input.is_empty() && steps < 400 {
        steps += 1;
        let legal = game.legal_moves();
        let op = input.byte();
        let candidate = match op % 4 {
            0 => {
                let len = input.byte() as usize % 24;
                let text = String::from_utf8_lossy(input.bytes(len)).into_owned();
                match game.parse_move(&text) {
                    Ok(mv) => {
                        check_parsed(game, mv);
                        Some(mv)
                    }
                    Err(_) => None,
                }
            }
            1 => {
                let a = input.u32() as usize % (game.num_actions() + 3);
                let mv = game.move_of(a);
                if let Some(mv) = mv {
                    assert_eq!(game.action_of(mv), Some(a));
                }
                mv
            }
            2 => Some(G::raw_move(input)),
            _ if legal.is_empty() => None,
            _ => Some(legal[input.u32() as usize % legal.len()]),
        };
        assert_eq!(legal.is_empty(), game.is_over());
        if op % 4 == 3 && op & 0x60 == 0x60 {
            check_playout(game, u64::from(input.u32()));
            continue;
        }
        if let Some(mv) = candidate {
            if check_move(game, mv, &legal) && op & 0x80 == 0 {
                game.play(mv).expect("legal");
            }
        }
    }
    // Undo everything: back at the start.
    let start = {
        let mut g = game.clone();
        g.reset();
        g
    };
    while game.undo().is_some() {}
    assert_eq!(*game, start);
    assert_eq!(fingerprint(game), fingerprint(&start));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs that once failed a target (`fuzz/regressions/<target>/`), replayed on the
    /// stable compiler: `cargo test --manifest-path fuzz/Cargo.toml --lib`.
    #[test]
    fn regressions() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
        for target in ["parse_tabik", "parse_nume", "parse_migong"] {
            let Ok(entries) = std::fs::read_dir(dir.join(target)) else {
                continue;
            };
            for entry in entries {
                let data = std::fs::read(entry.unwrap().path()).unwrap();
                let mut input = Input(&data);
                match target {
                    "parse_tabik" => {
                        let mut g = tabik(&mut input);
                        fuzz_text(&mut g, &String::from_utf8_lossy(input.0))
                    }
                    "parse_nume" => {
                        let mut g = nume(&mut input);
                        fuzz_text(&mut g, &String::from_utf8_lossy(input.0))
                    }
                    _ => {
                        let mut g = migong(&mut input);
                        fuzz_text(&mut g, &String::from_utf8_lossy(input.0))
                    }
                }
            }
        }
    }
}
