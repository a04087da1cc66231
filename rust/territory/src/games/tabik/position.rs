//! Tabik position strings (docs/games/tabik.md, "Position string"):
//! `<board> <to move> <pie> <passes> <last mover>`, the board from the top row down,
//! a stone `b` or `w` followed by `>` for a rod to its east and `^` for one to its north.

use std::sync::Arc;

use super::{Tabik, TabikConfig, TabikMove};
use crate::rules::bitset::Bits;
use crate::observe::Learn;
use crate::rules::position::{self, PositionError};

const FIELDS: [&str; 5] = ["board", "to move", "pie", "passes", "last mover"];

impl Tabik {
    /// The position as one line ([`Learn::position`](crate::Learn::position)).
    pub(super) fn write_position(&self) -> String {
        let rows = position::rows(&self.board, true, &[]);
        let ([black, white], [east, north]) = (self.stone_sets(), self.rod_sets());
        let board = position::write_board(&rows, |cell| {
            let stone = if black.contains(cell) {
                'b'
            } else if white.contains(cell) {
                'w'
            } else {
                return None;
            };
            let mut text = stone.to_string();
            if east.contains(cell) {
                text.push('>');
            }
            if north.contains(cell) {
                text.push('^');
            }
            Some(text)
        });
        let turn = position::write_turn(
            self.pie,
            &self.start,
            &self.history,
            TabikMove::Pass,
            self.swapped,
        );
        format!("{board} {turn}")
    }

    /// The game set up at a position ([`Learn::from_position`](crate::Learn::from_position)).
    pub(super) fn read_position(config: TabikConfig, text: &str) -> Result<Tabik, PositionError> {
        let mut game = Tabik::new(config).map_err(|e| PositionError::new(1, e.to_string()))?;
        let f = position::fields(text, &FIELDS)?;
        let rows = position::rows(&game.board, true, &[]);
        let pieces = position::read_board(&f[0], &rows, |rest| {
            let b = rest.as_bytes();
            let color = match b[0] {
                b'b' => 0,
                b'w' => 1,
                _ => {
                    return Err(format!(
                        "unexpected '{}': a square is a stone b or w (then > or ^ for its rods), \
                         or a number of empty squares",
                        rest.chars().next().unwrap_or(' ')
                    ))
                }
            };
            let east = b.get(1) == Some(&b'>');
            let north = b.get(1 + east as usize) == Some(&b'^');
            Ok(((color, east, north), 1 + east as usize + north as usize))
        })?;
        let k = game.k;
        let (mut stones, mut rods) = ([Bits::EMPTY; 2], [Bits::EMPTY; 2]);
        for &(cell, (color, east, north), _) in &pieces {
            stones[color].insert(cell);
            for (dir, has) in [east, north].into_iter().enumerate() {
                if has {
                    rods[dir].insert(cell);
                }
            }
        }
        let occupied = stones[0] | stones[1];
        let mut touched = Bits::EMPTY;
        for &(cell, (_, east, north), column) in &pieces {
            let name = game.coord(cell);
            for (has, other, dir) in [
                (east, (cell % k + 1 < k).then_some(cell + 1), "east"),
                (north, (cell + k < k * k).then_some(cell + k), "north"),
            ] {
                if !has {
                    continue;
                }
                match other {
                    None => {
                        return Err(PositionError::new(
                            column,
                            format!("a rod {dir} of {name} would lie off the board"),
                        ))
                    }
                    Some(o) if !occupied.contains(o) => {
                        return Err(PositionError::new(
                            column,
                            format!(
                                "a rod lies between {name} and {} but {} is empty: rods only lie between stones",
                                game.coord(o),
                                game.coord(o)
                            ),
                        ))
                    }
                    Some(o) => touched = touched.with(cell).with(o),
                }
            }
        }
        if let Some(&(cell, _, column)) = pieces.iter().find(|p| !touched.contains(p.0)) {
            return Err(PositionError::new(
                column,
                format!(
                    "the stone on {} touches no rod: every move lays a rod next to the stones it moves",
                    game.coord(cell)
                ),
            ));
        }
        let (black, white) = (stones[0].count(), stones[1].count());
        if black != white {
            return Err(PositionError::new(
                f[0].column,
                format!(
                    "{black} black and {white} white stones: every move keeps the two counts equal"
                ),
            ));
        }
        game.set_board(stones, rods);
        let (start, swapped) = position::read_turn(config.pie, &f[1..])?;
        game.start = start;
        game.swapped = swapped;
        if occupied.any() && start.last_mover.is_none() {
            return Err(f[4].error("stones are on the board, so someone has moved"));
        }
        if occupied.is_empty() {
            let start_position = Tabik::new(config).expect("valid config").position();
            let start_turn = start_position.split_once(' ').map_or("", |(_, turn)| turn);
            position::check_empty_board_turn(&f[1..], start_turn)?;
        }
        if start.passes > 0 {
            let moves = game.choices().count() - game.pie_available() as usize;
            if moves > 0 {
                return Err(f[3].error(format!(
                    "a pass is only legal without other moves, and here {moves} are legal"
                )));
            }
        }
        let fresh = Tabik::new(config).expect("valid config");
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
    use crate::rules::game::Game;

    #[test]
    fn positions_round_trip_through_random_games() {
        for size in [2, 3, 5, 8] {
            for pie in [true, false] {
                let config = TabikConfig { size, pie };
                let mut g = Tabik::new(config).unwrap();
                let mut rng = crate::rules::playout::game_rng(size as u64, pie as u64);
                loop {
                    let p = g.position();
                    let h = Tabik::from_position(config, &p).unwrap_or_else(|e| panic!("{p}: {e}"));
                    assert_eq!(h.position(), p);
                assert_eq!(h.key(), g.key(), "a position read back keeps its key: {p}");
                    assert_eq!(h.legal_moves(), g.legal_moves(), "{p}");
                    assert_eq!(h.to_move(), g.to_move());
                    assert_eq!(h.last_mover(), g.last_mover());
                    assert_eq!(h.outcome(), g.outcome());
                    let Some(mv) = g.random_move(&mut rng) else {
                        break;
                    };
                    g.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn distinct_positions_have_distinct_keys() {
        // Every position of random games, keyed; two different position strings never
        // share a key (the empty-board positions "1 - 0 -" and "1 - 0 0" once did).
        let mut keys = std::collections::HashMap::new();
        for seed in 0..40 {
            let config = TabikConfig {
                size: 3,
                pie: seed % 2 == 0,
            };
            let mut g = Tabik::new(config).unwrap();
            let mut rng = crate::rules::playout::game_rng(seed, 7);
            loop {
                let p = format!("{} {}", config.pie, g.position());
                let set_up = Tabik::from_position(config, &g.position()).unwrap();
                let old = keys.insert((config.pie, set_up.key()), p.clone());
                assert!(
                    old.is_none() || old.as_deref() == Some(p.as_str()),
                    "{old:?} and {p}"
                );
                let Some(mv) = g.random_move(&mut rng) else {
                    break;
                };
                g.play_unchecked(mv);
            }
        }
    }

    #[test]
    fn start_and_example() {
        let mut g = Tabik::new(TabikConfig::default()).unwrap();
        assert_eq!(g.position(), "8/8/8/8/8/8/8/8 0 w 0 -");
        g.play_str("b2-b3").unwrap();
        assert_eq!(g.position(), "8/8/8/8/8/1w6/1b^6/8 1 a 0 0");
        let set_up =
            Tabik::from_position(TabikConfig::default(), "8/8/8/8/8/8/8/8 0 w 0 -").unwrap();
        assert_eq!(set_up, Tabik::new(TabikConfig::default()).unwrap());
    }

    /// A run of empty squares is written from 1, without a leading zero: "02" is refused,
    /// where "2" is read.
    #[test]
    fn a_run_of_empty_squares_has_no_leading_zero() {
        let c = TabikConfig { size: 2, pie: false };
        assert!(Tabik::from_position(c, "2/b>w 1 - 0 0").is_ok());
        for text in ["02/b>w 1 - 0 0", "0/b>w 1 - 0 0"] {
            let err = Tabik::from_position(c, text).unwrap_err().to_string();
            assert_eq!(err, "column 1: a run of empty cells is a number from 1, without leading zeros", "{text}");
        }
    }

    /// A pending pass is refused while moves are left, counting the moves both seats
    /// have: the pie swap is seat 1's alone, so a pass may be pending while it is offered.
    #[test]
    fn a_pending_pass_counts_the_moves_but_the_pie_swap() {
        let c = TabikConfig { size: 2, pie: true };
        let g = Tabik::from_position(c, "b>w/b>w 1 a 1 1").unwrap();
        assert_eq!(g.legal_moves(), [TabikMove::Swap]);
        let err = Tabik::from_position(c, "b>w/2 1 a 1 1").unwrap_err().to_string();
        assert!(err.contains("a pass is only legal without other moves, and here 2 are legal"), "{err}");
    }

    /// Rods lie only between two stones on the board: a rod east of the last column or
    /// north of the top row would lie off it, and one beside an empty square is refused.
    #[test]
    fn rods_lie_only_between_stones_on_the_board() {
        for (size, text, said) in [
            (2, "2/b>w>", "column 5: a rod east of b1 would lie off the board"),
            (2, "b^w/2", "column 1: a rod north of a2 would lie off the board"),
            (3, "3/3/b>w>1", "column 7: a rod lies between b1 and c1 but c1 is empty: rods only lie between stones"),
            (3, "3/b>w^1/b>w1", "column 5: a rod lies between b2 and b3 but b3 is empty: rods only lie between stones"),
        ] {
            let c = TabikConfig { size, pie: false };
            assert_eq!(Tabik::from_position(c, &format!("{text} 0 - 0 1")).unwrap_err().to_string(), said);
        }
    }

    #[test]
    fn bad_positions_say_where() {
        let c = TabikConfig { size: 2, pie: true };
        for (text, column) in [
            ("2/2 0 w 0", 10),
            ("2/2 0 x 0 -", 7),
            ("2/3 0 w 0 -", 3),
            ("2/bx 0 w 0 -", 4),
            ("2/b>w 1 - 0 1", 13),
            ("2/b1 1 - 0 0", 3),
            ("b>w/b>w 0 - 1 1", 15),
            ("b>w/b>w 0 - 1 0", 0),
            // A pass pending, but the seat that passed had a placement left.
            ("2/b>w 0 - 1 0", 11),
            // More white than black stones, or more black than white.
            ("2/w>w 1 - 0 0", 1),
            ("2/b>b 1 - 0 0", 1),
            // An empty board is only the start: nothing placed, nobody passed.
            ("2/2 1 - 0 -", 5),
            ("2/2 0 w 0 1", 7),
            ("2/2 0 - 0 -", 7),
        ] {
            match Tabik::from_position(c, text) {
                Err(err) => assert_eq!(err.column, column, "{text}: {err}"),
                Ok(_) => assert_eq!(column, 0, "{text} was accepted"),
            }
        }
    }
}
