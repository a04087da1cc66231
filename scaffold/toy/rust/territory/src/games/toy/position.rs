//! Toy position strings (docs/games/toy.md, "Position string"):
//! `<board> <to move> <pie> <passes> <last mover>`, the board from the top row down with
//! `b` and `w` for stones and numbers for runs of empty cells, then the shared turn
//! fields (docs/positions.md) (the pie field is always `-`: Toy has no pie rule).

use super::{Toy, ToyConfig, ToyMove};
use crate::rules::bitset::Bits;
use crate::rules::game::Color;
use crate::rules::position::{self, PositionError};

const FIELDS: [&str; 5] = ["board", "to move", "pie", "passes", "last mover"];

impl Toy {
    /// The position as one line ([`Learn::position`](crate::Learn::position)).
    pub(super) fn write_position(&self) -> String {
        let rows = position::rows(&self.board, true, &[]);
        let board = position::write_board(&rows, |cell| {
            let stone = self.stone_at(cell)?;
            Some(["b", "w"][stone.index()].to_string())
        });
        let turn = position::write_turn(false, &self.start, &self.history, ToyMove::Pass, false);
        format!("{board} {turn}")
    }

    /// The game set up at a position ([`Learn::from_position`](crate::Learn::from_position)).
    pub(super) fn read_position(config: ToyConfig, text: &str) -> Result<Toy, PositionError> {
        let mut game = Toy::new(config).map_err(|e| PositionError::new(1, e.to_string()))?;
        let f = position::fields(text, &FIELDS)?;
        let rows = position::rows(&game.board, true, &[]);
        let stones = position::read_board(&f[0], &rows, |rest| match rest.as_bytes()[0] {
            b'b' => Ok((0, 1)),
            b'w' => Ok((1, 1)),
            _ => Err("a cell is a stone b or w, or a number of empty cells".to_string()),
        })?;
        let mut sets = [Bits::EMPTY; 2];
        for &(cell, color, _) in &stones {
            sets[color].insert(cell);
        }
        let (start, _) = position::read_turn(false, &f[1..])?;
        match start.last_mover {
            None if !stones.is_empty() => {
                Err(f[4].error("stones are on the board, so someone has moved"))
            }
            Some(seat) if sets[seat.index()].is_empty() => {
                Err(f[4].error("the last mover placed a stone, and has none on the board"))
            }
            _ => Ok(()),
        }?;
        for (color, set) in sets.into_iter().enumerate() {
            for cell in set {
                game.toggle(Color::BOTH[color], cell as u8);
            }
        }
        game.start = start;
        // The start position, read back, is the start (equal to `Toy::new`'s).
        let fresh = Toy::new(config).expect("a valid config");
        Ok(if game.write_position() == fresh.write_position() {
            fresh
        } else {
            game
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::Learn;
    use crate::rules::game::Game;

    #[test]
    fn positions_round_trip_through_random_games() {
        let config = ToyConfig { size: 3 };
        for seed in 0..20 {
            let mut g = Toy::new(config).unwrap();
            let mut rng = crate::rules::playout::game_rng(seed, 0);
            loop {
                let p = g.position();
                let h = Toy::from_position(config, &p).unwrap_or_else(|e| panic!("{p}: {e}"));
                assert_eq!((h.position(), h.key()), (p.clone(), g.key()), "{p}");
                assert_eq!(
                    (h.legal_moves(), h.outcome()),
                    (g.legal_moves(), g.outcome()),
                    "{p}"
                );
                let Some(mv) = g.random_move(&mut rng) else {
                    break;
                };
                g.play_unchecked(mv);
            }
        }
        assert_eq!(Toy::new(config).unwrap().position(), "3/3/3 0 - 0 -");
    }
}
