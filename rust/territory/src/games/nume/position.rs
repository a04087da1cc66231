//! Nume position strings (docs/games/nume.md, "Position string"):
//! `<board> <to move> <phase> <komi> <colours>`; a stone is `b` or `w`, followed by its
//! number in parentheses when it carries one: `b(5)`.

use std::sync::Arc;

use super::{Nume, NumeConfig, Phase, MAX_NUMBER, NO_NUMBER};
use crate::rules::bitset::Bits;
use crate::rules::game::{Color, Game, Seat};
use crate::observe::Learn;
use crate::rules::position::{self, PositionError};

const FIELDS: [&str; 5] = ["board", "to move", "phase", "komi", "colours"];

impl Nume {
    fn position_rows(&self) -> Vec<Vec<Option<usize>>> {
        position::rows(&self.board, self.config.square.is_some(), &[])
    }

    /// The last mover read from the position alone (no history needed: Nume has no
    /// pass, so the last action was the last stone, or a komi-phase move).
    pub(super) fn last_mover_of_position(&self) -> Option<Seat> {
        match self.phase {
            Phase::ChooseKomi => None,
            Phase::ChooseSide => Some(Seat::First),
            Phase::Stones if (self.stones[0] | self.stones[1]).is_empty() => {
                self.config.komi_phase.then_some(Seat::Second)
            }
            Phase::Stones => Some(self.seat_of(self.color_to_place().other())),
        }
    }

    /// The position as one line ([`Learn::position`](crate::Learn::position)).
    pub(super) fn write_position(&self) -> String {
        let board = position::write_board(&self.position_rows(), |cell| {
            let (color, number) = self.stone_at(cell)?;
            let stone = ["b", "w"][color.index()];
            Some(match number {
                Some(w) => format!("{stone}({w})"),
                None => stone.to_string(),
            })
        });
        let phase = match self.phase {
            Phase::ChooseKomi => "k",
            Phase::ChooseSide => "s",
            Phase::Stones => "-",
        };
        let komi = match self.komi {
            Some((k, to)) => format!("{k}.5{}", ["b", "w"][to.index()]),
            None => "-".to_string(),
        };
        let colours = if self.black_seat == Seat::First {
            "bw"
        } else {
            "wb"
        };
        format!(
            "{board} {} {phase} {komi} {colours}",
            position::seat_char(self.to_move())
        )
    }

    /// The game set up at a position ([`Learn::from_position`](crate::Learn::from_position)).
    pub(super) fn read_position(config: NumeConfig, text: &str) -> Result<Nume, PositionError> {
        let mut game = Nume::new(config).map_err(|e| PositionError::new(1, e.to_string()))?;
        let f = position::fields(text, &FIELDS)?;
        let stones = position::read_board(&f[0], &game.position_rows(), |rest| {
            let color = match rest.as_bytes()[0] {
                b'b' => Color::First,
                b'w' => Color::Second,
                _ => {
                    return Err(format!(
                    "unexpected '{}': a cell is a stone b or w (then its number in parentheses, \
                         like b(5), if it has one), or a number of empty cells",
                    rest.chars().next().unwrap_or(' ')
                ))
                }
            };
            let Some(inner) = rest[1..].strip_prefix('(') else {
                return Ok(((color, None), 1));
            };
            let close = inner.find(')').ok_or("a '(' without its ')'")?;
            let w = position::number(&inner[..close], MAX_NUMBER as u64).ok_or_else(|| {
                format!(
                    "{} is not a stone's number: a whole number from 0 to {MAX_NUMBER}",
                    crate::rules::error::Excerpt::new(&inner[..close])
                )
            })?;
            Ok(((color, Some(w as u32)), close + 3))
        })?;
        for &(cell, (color, number), _) in &stones {
            game.stones[color.index()].insert(cell);
            game.numbers[cell] = number.unwrap_or(NO_NUMBER);
        }
        let column_of = |cell: usize| {
            stones
                .iter()
                .find(|s| s.0 == cell)
                .map_or(f[0].column, |s| s.2)
        };
        let board = game.board.clone();
        for color in Color::BOTH {
            let own = game.stones[color.index()];
            let numbered: Bits = own
                .iter()
                .filter(|&c| game.numbers[c] != NO_NUMBER)
                .collect();
            for cell in numbered {
                if let Some(n) = (board.neighbours(cell) & numbered)
                    .iter()
                    .find(|&n| n < cell)
                {
                    return Err(PositionError::new(
                        column_of(cell),
                        format!(
                            "the stones on {} and {} both carry numbers, but the later of two \
                             neighbouring stones of a colour joins a group and carries none",
                            board.name(n),
                            board.name(cell)
                        ),
                    ));
                }
            }
            let mut error = None;
            board.components(own, |group| {
                if error.is_none() && !group.intersects(numbered) {
                    let first = group.first().expect("groups are not empty");
                    error = Some(PositionError::new(
                        column_of(first),
                        format!(
                            "the group of {} has no numbered stone: the stone that started it carries one",
                            board.name(first)
                        ),
                    ));
                }
            });
            if let Some(error) = error {
                return Err(error);
            }
        }
        let (black, white) = (game.stones[0].count(), game.stones[1].count());
        if black != white && black != white + 1 {
            return Err(PositionError::new(
                f[0].column,
                format!(
                    "{black} black and {white} white stones: Black moves first and turns alternate"
                ),
            ));
        }
        // Rebuild the group forest, stone by stone in cell order.
        let (mut placed, mut adjacent) = ([Bits::EMPTY; 2], [Bits::EMPTY; 2]);
        for &(cell, (color, number), _) in &stones {
            let c = color.index();
            game.groups
                .place(cell, c, number, board.neighbours(cell) & placed[c]);
            placed[c].insert(cell);
            adjacent[c] |= board.neighbours(cell);
        }
        game.groups.log.clear();
        game.adjacent = adjacent;

        let n = game.n_cells() as u64;
        let empty_board = stones.is_empty();
        game.phase = match f[2].choice(&["k", "s", "-"])? {
            0 => Phase::ChooseKomi,
            1 => Phase::ChooseSide,
            _ => Phase::Stones,
        };
        if game.phase != Phase::Stones && !(config.komi_phase && empty_board) {
            return Err(
                f[2].error("the komi phase ('k', 's') needs komi_phase=True and an empty board")
            );
        }
        game.komi = match f[3].text {
            "-" => None,
            text => {
                let bad = || f[3].error("expected '-' or a komi like '2.5b' or '0.5w'");
                let last = text.char_indices().last().map_or(0, |(i, _)| i);
                let (value, to) = text.split_at(last);
                let to = match to {
                    "b" => Color::First,
                    "w" => Color::Second,
                    _ => return Err(bad()),
                };
                let k = value
                    .strip_suffix(".5")
                    .and_then(|k| position::number(k, u64::MAX))
                    .ok_or_else(bad)?;
                Some((k, to))
            }
        };
        let expected_komi = config.komi.map(|k| (k, config.komi_to));
        match game.phase {
            Phase::ChooseKomi if game.komi.is_some() => {
                return Err(f[3].error("the komi is not chosen yet in phase 'k'"))
            }
            Phase::ChooseSide | Phase::Stones if config.komi_phase => match game.komi {
                None => return Err(f[3].error("the komi phase chose a komi")),
                Some((k, _)) if k > n => {
                    return Err(f[3].error(format!("the komi phase offers komi up to {n}.5")))
                }
                _ => {}
            },
            Phase::Stones if game.komi != expected_komi => {
                return Err(f[3].error("the komi must be the game's komi parameter (komi, komi_to)"))
            }
            _ => {}
        }
        game.black_seat = match f[4].choice(&["bw", "wb"])? {
            0 => Seat::First,
            _ => Seat::Second,
        };
        if game.black_seat == Seat::Second && !(config.komi_phase && game.phase == Phase::Stones) {
            return Err(
                f[4].error("seat 0 plays Black unless seat 1 chose Black in the komi phase")
            );
        }
        let to_move = position::seat_char(game.to_move()).to_string();
        if f[1].text != to_move {
            return Err(f[1].error(format!(
                "in this position the seat to move is '{to_move}' (Black moves first, turns alternate, \
                 the game ends when the board is full)"
            )));
        }
        let fresh = Nume::new(config).expect("valid config");
        if game.position() != fresh.position() {
            game.rebuild_key();
            game.setup = Some(Arc::new(game.clone()));
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_through_random_games() {
        for (index, config) in [
            NumeConfig::default(),
            NumeConfig {
                komi_phase: true,
                ..NumeConfig::default()
            },
            NumeConfig {
                square: Some(5),
                komi: None,
                ..NumeConfig::default()
            },
            NumeConfig {
                n: 1,
                komi_phase: true,
                komi_to: Color::Second,
                ..NumeConfig::default()
            },
        ]
        .into_iter()
        .enumerate()
        {
            for game_index in 0..5 {
                let mut g = Nume::new(config).unwrap();
                let mut rng = crate::rules::playout::game_rng(index as u64, game_index);
                loop {
                    let p = g.position();
                    let h = Nume::from_position(config, &p).unwrap_or_else(|e| panic!("{p}: {e}"));
                    assert_eq!(h.position(), p);
                    assert_eq!(h.key(), g.key(), "a position read back keeps its key: {p}");
                    assert_eq!(h.legal_moves(), g.legal_moves(), "{p}");
                    assert_eq!(h.to_move(), g.to_move());
                    assert_eq!(h.last_mover(), g.last_mover(), "{p}");
                    assert_eq!(h.scores(), g.scores(), "{p}");
                    assert_eq!(h.groups(), g.groups(), "{p}");
                    let Some(mv) = g.random_move(&mut rng) else {
                        break;
                    };
                    g.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn examples() {
        let c = NumeConfig {
            square: Some(3),
            ..NumeConfig::default()
        };
        let mut g = Nume::new(c).unwrap();
        assert_eq!(g.position(), "3/3/3 0 - 0.5b bw");
        for mv in ["a1=2", "c3=0", "b1"] {
            g.play_str(mv).unwrap();
        }
        assert_eq!(g.position(), "2w(0)/3/b(2)b1 1 - 0.5b bw");
        for (text, column) in [
            ("2w(0)/3/b(2)b(1)1 1 - 0.5b bw", 13),
            ("2w(0)/3/bb1 1 - 0.5b bw", 9),
            ("2w(0)/3/b(2)b1 0 - 0.5b bw", 16),
            ("2w(0)/3/b(2)b1 1 - 1.5b bw", 20),
            ("2w/3/b(2)b1 1 - 0.5b bw", 2),
            ("2w(x)/3/b(2)b1 1 - 0.5b bw", 2),
            ("2w(0)/3/b(2)b1 1 - 0.5b wb", 25),
            ("3/3/3 0 k - bw", 9),
        ] {
            let err = Nume::from_position(c, text).unwrap_err();
            assert_eq!(err.column, column, "{text}: {err}");
        }
        // Seat 1 plays Black only when it chose Black in the komi phase, which is over.
        let komi_phase = NumeConfig {
            komi_phase: true,
            ..c
        };
        let err = Nume::from_position(komi_phase, "3/3/3 1 s 0.5b wb").unwrap_err();
        assert_eq!(err.column, 16, "{err}");
        assert!(err.to_string().contains("seat 0 plays Black unless"), "{err}");
        // The komi phase is played on the empty board.
        let err = Nume::from_position(komi_phase, "2b(0)/3/3 1 s 0.5b bw").unwrap_err();
        assert_eq!(err.column, 13, "{err}");
        // In phase 'k' no komi is chosen yet.
        let err = Nume::from_position(komi_phase, "3/3/3 0 k 0.5b bw").unwrap_err();
        assert_eq!(err.to_string(), "column 11: komi field '0.5b': the komi is not chosen yet in phase 'k'");
        // The komi phase offers komi up to the number of cells, 9.5 here.
        assert_eq!(Nume::from_position(komi_phase, "3/3/3 1 s 9.5b bw").unwrap().komi(), Some((9, Color::First)));
        let err = Nume::from_position(komi_phase, "3/3/3 1 s 10.5b bw").unwrap_err();
        assert_eq!(err.to_string(), "column 11: komi field '10.5b': the komi phase offers komi up to 9.5");
        // Past phase 'k' the komi phase has chosen a komi.
        for text in ["3/3/3 1 s - bw", "3/3/3 1 - - wb"] {
            let err = Nume::from_position(komi_phase, text).unwrap_err();
            assert_eq!(err.to_string(), "column 11: komi field '-': the komi phase chose a komi", "{text}");
        }
        let chosen = Nume::from_position(komi_phase, "3/3/3 1 - 0.5b wb").unwrap();
        assert_eq!(chosen.position(), "3/3/3 1 - 0.5b wb");
    }
}
