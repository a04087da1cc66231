//! Toy's part of `Learn`: position strings (`position.rs`), observation planes, legal
//! masks and counting of legal actions. Training symmetries and features keep their
//! defaults (none).

use super::{Toy, ToyConfig, ToyMove};
use crate::observe::{fill_plane, Learn};
use crate::rules::game::{Color, Game, Seat};
use crate::rules::position::PositionError;
use crate::rules::turns;

/// Own stones, the opponent's, then two flags: own colour is black, a pass is pending.
const PLANES: usize = 4;

impl Learn for Toy {
    fn position(&self) -> String {
        self.write_position()
    }

    fn from_position(config: ToyConfig, text: &str) -> Result<Toy, PositionError> {
        Toy::read_position(config, text)
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, self.size, self.size]
    }

    fn observe_as(&self, seat: Seat, out: &mut [f32]) {
        let area = self.board.len();
        out[..PLANES * area].fill(0.0);
        let own = self.color_of(seat);
        for (plane, color) in [own, own.other()].into_iter().enumerate() {
            for cell in self.stones[color.index()] {
                out[plane * area + cell] = 1.0;
            }
        }
        let pass_pending = turns::passes_in_a_row(&self.start, &self.history, ToyMove::Pass) == 1;
        for (plane, flag) in [(2, own == Color::First), (3, pass_pending)] {
            if flag {
                fill_plane(out, plane, area, 1.0);
            }
        }
    }

    fn ownership_as(&self, color: Color, out: &mut [f32]) {
        out.fill(0.0);
        for (color, value) in [(color, 1.0), (color.other(), -1.0)] {
            for cell in self.stones[color.index()] {
                out[cell] = value;
            }
        }
    }

    /// The empty cells and `pass`.
    fn legal_count(&self) -> usize {
        if self.is_over() {
            0
        } else {
            self.empty().count() + 1
        }
    }

    fn nth_legal_action(&self, n: usize) -> usize {
        self.empty().nth(n).unwrap_or(self.board.len())
    }

    fn legal_mask(&self, out: &mut [bool]) {
        out.fill(false);
        if !self.is_over() {
            for cell in self.empty() {
                out[cell] = true;
            }
            out[self.board.len()] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along random games: the count, the n-th action and the mask agree with the moves.
    #[test]
    fn masks_and_counts_match_the_legal_moves() {
        let start = Toy::new(ToyConfig { size: 3 }).unwrap();
        let mut mask = vec![false; start.num_actions()];
        for seed in 0..10 {
            let (mut g, mut rng) = (start.clone(), crate::rules::playout::game_rng(seed, 1));
            loop {
                let actions: Vec<usize> = g
                    .legal_moves()
                    .into_iter()
                    .map(|m| g.action_of(m).unwrap())
                    .collect();
                assert_eq!(g.legal_count(), actions.len());
                assert!(actions
                    .iter()
                    .enumerate()
                    .all(|(i, &a)| g.nth_legal_action(i) == a));
                g.legal_mask(&mut mask);
                assert_eq!(
                    (0..mask.len()).filter(|&a| mask[a]).collect::<Vec<_>>(),
                    actions
                );
                let Some(mv) = g.random_move(&mut rng) else {
                    break;
                };
                g.play_unchecked(mv);
            }
        }
    }
}
