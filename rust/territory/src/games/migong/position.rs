//! Migong position strings (docs/games/migong.md, "Position string"):
//! `<board> <to move> <pie> <passes> <last mover>`, the board from row 1 down, `*` for
//! the central border, a piece as its six wedge letters, upper-case (`BYBYBY`) when
//! Blue placed it and lower-case (`bybyby`) when Yellow did.

use std::sync::Arc;

use super::{Migong, MigongConfig, MigongMove, Piece, DIRECTION_NAMES};
use crate::rules::game::{Color, Game, Seat};
use crate::observe::Learn;
use crate::rules::position::{self, PositionError};

const FIELDS: [&str; 5] = ["board", "to move", "pie", "passes", "last mover"];

impl Migong {
    /// The colour that placed the piece on `cell` (pieces of both sets share patterns).
    fn owner(&self, cell: usize) -> Option<Color> {
        self.pieces[cell]?;
        Some(
            if self.placed_by_second[cell >> 6 & 1] >> (cell & 63) & 1 == 1 {
                Color::Second
            } else {
                Color::First
            },
        )
    }

    /// The position as one line ([`Learn::position`](crate::Learn::position)).
    pub(super) fn write_position(&self) -> String {
        let rows = position::rows(Self::board(), false, &[(0, 0)]);
        let board = position::write_board(&rows, |cell| {
            let piece = self.pieces[cell]?.to_string();
            Some(match self.owner(cell) {
                Some(Color::Second) => piece.to_lowercase(),
                _ => piece,
            })
        });
        let turn = position::write_turn(
            self.config.pie,
            &self.start,
            &self.history,
            MigongMove::Pass,
            self.swapped,
        );
        format!("{board} {turn}")
    }

    /// The game set up at a position ([`Learn::from_position`](crate::Learn::from_position)).
    pub(super) fn read_position(config: MigongConfig, text: &str) -> Result<Migong, PositionError> {
        let mut game = Migong::new(config).map_err(|e| PositionError::new(1, e.to_string()))?;
        let f = position::fields(text, &FIELDS)?;
        let rows = position::rows(Self::board(), false, &[(0, 0)]);
        let pieces = position::read_board(&f[0], &rows, |rest| {
            let word = rest.get(..6).unwrap_or(rest);
            let owner = if word.bytes().all(|b| b == b'B' || b == b'Y') {
                Color::First
            } else {
                Color::Second
            };
            let piece = (word.len() == 6)
                .then(|| Piece::parse(&word.to_uppercase()))
                .flatten()
                .filter(|_| {
                    word.bytes().all(|b| matches!(b, b'B' | b'Y'))
                        || word.bytes().all(|b| matches!(b, b'b' | b'y'))
                });
            match piece {
                Some(p) => Ok(((p, owner), 6)),
                None => Err(format!(
                    "'{word}' is not a piece: six letters B/Y (placed by Blue) or b/y (placed by Yellow), \
                     or a number of empty cells"
                )),
            }
        })?;
        let board = Self::board();
        let mut seen: [[Option<usize>; 64]; 2] = [[None; 64]; 2];
        for &(cell, (piece, owner), column) in &pieces {
            let name = board.name(cell);
            if super::FULL_SETS[owner.index()] >> piece.0 & 1 == 0 {
                let (who, letter) = if owner == Color::First {
                    ("Blue", 'B')
                } else {
                    ("Yellow", 'Y')
                };
                return Err(PositionError::new(
                    column,
                    format!("{piece} on {name} is not in {who}'s set (its pieces have at least one {letter} wedge)"),
                ));
            }
            if let Some(first) = seen[owner.index()][piece.0 as usize] {
                return Err(PositionError::new(
                    column,
                    format!(
                        "{piece} on {name} was placed twice by {}: also on {}",
                        ["Blue", "Yellow"][owner.index()],
                        board.name(first)
                    ),
                ));
            }
            seen[owner.index()][piece.0 as usize] = Some(cell);
            for &(d, _) in Self::border_edges(cell) {
                let border = game.border_yellow[cell] >> d & 1;
                if (piece.0 >> d & 1) != border {
                    return Err(PositionError::new(
                        column,
                        format!(
                            "{piece} on {name} does not fit: its {} wedge touches a {} border edge",
                            DIRECTION_NAMES[d],
                            ["B", "Y"][border as usize]
                        ),
                    ));
                }
            }
            for (d, direction) in DIRECTION_NAMES.iter().enumerate() {
                let Some(n) = board.step(cell, d) else {
                    continue;
                };
                let Some(other) = game.pieces[n] else {
                    continue;
                };
                if (piece.0 >> d & 1) != (other.0 >> ((d + 3) % 6) & 1) {
                    return Err(PositionError::new(
                        column,
                        format!(
                            "{piece} on {name} does not fit {other} on {}: its {} wedge differs from the wedge it touches",
                            board.name(n),
                            direction
                        ),
                    ));
                }
            }
            game.set_piece(cell, Some(piece));
            game.placed_by_second[cell >> 6 & 1] |=
                ((owner == Color::Second) as u64) << (cell & 63);
            game.remaining[owner.index()] &= !(1 << piece.0);
        }
        game.recount();
        let (start, swapped) = position::read_turn(config.pie, &f[1..])?;
        game.start = start;
        game.swapped = swapped;
        if !pieces.is_empty() && start.last_mover.is_none() {
            return Err(f[4].error("pieces are on the board, so someone has moved"));
        }
        if pieces.is_empty() {
            let start_position = Migong::new(config).expect("valid config").position();
            let start_turn = start_position.split_once(' ').map_or("", |(_, turn)| turn);
            position::check_empty_board_turn(&f[1..], start_turn)?;
        }
        let passers: &[Seat] = match (start.passes, game.to_move()) {
            (0, _) => &[],
            (1, Some(Seat::First)) => &[Seat::Second],
            (1, _) => &[Seat::First],
            _ => &Seat::BOTH,
        };
        for &seat in passers {
            let color = game.color_of(seat);
            let moves = game.placement_count(game.remaining[color.index()]);
            if moves > 0 {
                return Err(f[3].error(format!(
                    "seat {} passed, but passing is only legal without other moves and it has {moves}",
                    seat.index()
                )));
            }
        }
        let fresh = Migong::new(config).expect("valid config");
        if game.position() != fresh.position() {
            game.rebuild_key();
            game.setup = Some(Arc::new(game.clone()));
        }
        debug_assert_eq!(game.pieces.iter().flatten().count(), pieces.len());
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_through_random_games() {
        for (index, pie) in [(0, true), (1, false), (2, true)] {
            let config = MigongConfig {
                pie,
                ..MigongConfig::default()
            };
            let mut g = Migong::new(config).unwrap();
            let mut rng = crate::rules::playout::game_rng(11, index);
            loop {
                let p = g.position();
                let h = Migong::from_position(config, &p).unwrap_or_else(|e| panic!("{p}: {e}"));
                assert_eq!(h.position(), p);
                assert_eq!(h.key(), g.key(), "a position read back keeps its key: {p}");
                assert_eq!(h.legal_moves(), g.legal_moves(), "{p}");
                assert_eq!(h.to_move(), g.to_move());
                assert_eq!(h.outcome(), g.outcome());
                let Some(mv) = g.random_move(&mut rng) else {
                    break;
                };
                g.play_unchecked(mv);
            }
        }
    }

    #[test]
    fn a_piece_outside_its_placers_set_is_refused() {
        let config = MigongConfig::default();
        for (word, who) in [("YYYYYY", "Blue"), ("bbbbbb", "Yellow")] {
            let text = format!("7/8/9/10/11/12/6*{word}5/12/11/10/9/8/7 1 a 0 0");
            let err = Migong::from_position(config, &text).unwrap_err().to_string();
            assert!(err.contains(&format!("on h7 is not in {who}'s set")), "{err}");
        }
        for word in ["BBBYBB", "bbbybb"] {
            let text = format!("7/8/9/10/11/12/6*{word}5/12/11/10/9/8/7 1 a 0 0");
            Migong::from_position(config, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    /// A pending pass is only read for a seat that has no placement left.
    #[test]
    fn a_pass_by_a_seat_with_moves_is_refused() {
        let text = "7/8/9/10/11/12/6*BBBYBB5/12/11/10/9/8/7 0 - 1 0";
        let err = Migong::from_position(MigongConfig::default(), text).unwrap_err();
        assert_eq!(err.column, 45, "{err}");
        assert!(
            err.to_string().contains("seat 1 passed, but passing is only legal without other moves"),
            "{err}"
        );
    }

    #[test]
    fn start_position() {
        let g = Migong::new(MigongConfig::default()).unwrap();
        assert_eq!(g.position(), "7/8/9/10/11/12/6*6/12/11/10/9/8/7 0 w 0 -");
        let mut h = g.clone();
        h.play_str("h7:BBBYBB").unwrap();
        assert_eq!(
            h.position(),
            "7/8/9/10/11/12/6*BBBYBB5/12/11/10/9/8/7 1 a 0 0"
        );
        h.play_str("swap").unwrap();
        h.play_str("i7:YBBBBY").unwrap();
        assert_eq!(
            h.position(),
            "7/8/9/10/11/12/6*BBBYBBybbbby4/12/11/10/9/8/7 1 s 0 0"
        );
    }
}
