//! What learning code needs from a game beyond the rules: position strings, observation
//! planes, legal action masks, the n-th legal action without listing them, and returns.
//!
//! What all games share is in docs/observations.md and docs/positions.md; each game's
//! planes and position string in docs/games/<game>.md.

use crate::rules::error::InvalidMove;
use crate::rules::game::{Color, Game, MoveErrorOf, Seat};
use crate::rules::params::Configurable;
use crate::rules::position::PositionError;

/// Position strings, observations, masks and counting of legal actions, for every game
/// (part of the [`Contract`](crate::Contract) every game of the registry meets).
pub trait Learn: Game + Configurable {
    /// The position as one line (docs/positions.md).
    fn position(&self) -> String;

    /// The game set up at a position written by [`Learn::position`], with an empty
    /// history.
    ///
    /// # Errors
    /// If the text is malformed or the position impossible; the error gives the column.
    fn from_position(config: Self::Config, text: &str) -> Result<Self, PositionError>;

    /// Whether every observation value is a whole number (-1, 0, 1 or 2), so that the
    /// planes fit in bytes (`VecEnv` with `u8` observations); Nume's scaled values are not.
    const WHOLE_OBSERVATIONS: bool = true;

    /// The shape (planes, height, width) of [`Learn::observe`]'s output; fixed by the
    /// game's parameters.
    fn observation_shape(&self) -> [usize; 3];

    /// Writes the observation planes, from the point of view of `seat`, into `out` (of
    /// the length of the shape's product).
    fn observe_as(&self, seat: Seat, out: &mut [f32]);

    /// The seat whose point of view observations take by default: the seat to move,
    /// seat 0 once the game is over.
    fn viewer(&self) -> Seat {
        self.to_move().unwrap_or(Seat::First)
    }

    /// The observation from the point of view of [`Learn::viewer`].
    fn observe(&self, out: &mut [f32]) {
        self.observe_as(self.viewer(), out);
    }

    /// The number of legal actions (the length of `legal_moves()`), 0 once over.
    fn legal_count(&self) -> usize;

    /// The `n`-th legal action in ascending order, for `n < legal_count()`.
    fn nth_legal_action(&self, n: usize) -> usize;

    /// Sets `out[a]` (of length `num_actions()`) exactly for the legal actions `a`.
    fn legal_mask(&self, out: &mut [bool]);

    /// The number of values of [`Learn::observe`].
    fn observation_len(&self) -> usize {
        self.observation_shape().iter().product()
    }

    /// How many values [`Learn::features_as`] writes: inputs a learned network may read
    /// beside the observation planes, worked out from the position (docs/learning.md).
    /// 0 for a game without any.
    fn feature_len(&self) -> usize {
        0
    }

    /// Writes the features of the position, from the point of view of `seat`, into `out`
    /// (of length [`Learn::feature_len`]).
    fn features_as(&self, _seat: Seat, _out: &mut [f32]) {}

    /// The board's symmetries for training a network on transformed examples (none by
    /// default): for each, `[input_source, action_source]`, so that the network input
    /// (observation planes, then features) of the transformed position is
    /// `input[input_source[i]]` at `i` and its policy over actions `policy[action_source[a]]`
    /// at `a` (docs/learning.md).
    fn training_symmetries(&self) -> Vec<[Vec<usize>; 2]> {
        Vec::new()
    }

    /// The length of [`Learn::network_input`]: the observation, and the features when
    /// `with_features`.
    fn network_input_len(&self, with_features: bool) -> usize {
        self.observation_len() + if with_features { self.feature_len() } else { 0 }
    }

    /// Writes a network's inputs from the point of view of [`Learn::viewer`]: the
    /// observation planes, then the features when `with_features`.
    fn network_input(&self, with_features: bool, out: &mut [f32]) {
        let seat = self.viewer();
        let (planes, features) = out.split_at_mut(self.observation_len());
        self.observe_as(seat, planes);
        if with_features {
            self.features_as(seat, features);
        }
    }

    /// The number of values of [`Learn::ownership_as`]: one per cell of the board.
    fn ownership_len(&self) -> usize {
        self.geometry().len()
    }

    /// Writes who holds each cell, from the side of `color`, into `out` (one value per
    /// cell, in cell order): +1 a stone of `color`, -1 one of the other colour, 0 an
    /// empty cell; a Migong piece counts its wedges of `color` less the other's, over 6.
    /// Taken at a game's end, the targets of a network's ownership head
    /// (docs/learning.md).
    fn ownership_as(&self, color: Color, out: &mut [f32]);

    /// The score margin for `seat`: its score less the other seat's where the higher
    /// score wins, the other's less its own where the lower one wins (Nume, komi
    /// included), so a positive margin is good for `seat`.
    fn score_margin(&self, seat: Seat) -> f32 {
        let scores = self.scores();
        let (own, other): (f64, f64) = (scores[seat].into(), scores[seat.other()].into());
        let margin = if Self::WIN_RULE.lower_score_wins() { other - own } else { own - other };
        margin as f32
    }

    /// The legal action at index `floor(u * L)` of the legal actions (L of them), for
    /// `0 <= u < 1`; `None` once the game is over or for `u` outside `[0, 1)`.
    fn random_action(&self, u: f64) -> Option<usize> {
        if !(0.0..1.0).contains(&u) {
            return None;
        }
        let count = self.legal_count();
        (count > 0).then(|| self.nth_legal_action(((u * count as f64) as usize).min(count - 1)))
    }

    /// The move of [`Learn::random_action`] (what `play_random` plays). Games override
    /// this to find it without counting the legal actions twice.
    fn random_legal_move(&self, u: f64) -> Option<Self::Move> {
        self.random_action(u).and_then(|a| self.move_of(a))
    }

    /// Checks and plays an action number; on error the state is unchanged.
    fn play_action(&mut self, action: usize) -> Result<(), MoveErrorOf<Self>> {
        let mv = self.move_of(action).ok_or(InvalidMove::Action {
            action,
            num_actions: self.num_actions(),
        })?;
        self.play(mv)
    }

    /// +1 for the winner and -1 for the loser once over, 0 for both after a draw or
    /// while the game runs.
    fn returns(&self) -> [f32; 2] {
        if !self.is_over() {
            return [0.0; 2];
        }
        match self.winner() {
            Some(Seat::First) => [1.0, -1.0],
            Some(Seat::Second) => [-1.0, 1.0],
            None => [0.0; 2],
        }
    }
}

/// Fills plane `p` (of `area` values) of `out` with `value`.
#[inline]
pub fn fill_plane(out: &mut [f32], p: usize, area: usize, value: f32) {
    out[p * area..(p + 1) * area].fill(value);
}

/// Fills plane `first + i` with ones for each `flags[i]` that holds (the turn planes of
/// the games with the pie rule and passes: own colour is the first, pie swap available,
/// a pass pending, the seat observed made the last move).
pub fn fill_flag_planes(out: &mut [f32], first: usize, area: usize, flags: [bool; 4]) {
    for (i, flag) in flags.into_iter().enumerate() {
        if flag {
            fill_plane(out, first + i, area, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

    fn check_game<G: Learn>(start: G, games: u64) {
        let mut mask = vec![false; start.num_actions()];
        let mut obs = vec![f32::NAN; start.observation_len()];
        for index in 0..games {
            let mut g = start.clone();
            let mut rng = crate::rules::playout::game_rng(5, index);
            loop {
                let actions: Vec<usize> = g
                    .legal_moves()
                    .into_iter()
                    .map(|m| g.action_of(m).unwrap())
                    .collect();
                assert_eq!(g.legal_count(), actions.len());
                for (i, &a) in actions.iter().enumerate() {
                    assert_eq!(g.nth_legal_action(i), a);
                    let u = (i as f64 + 0.5) / actions.len() as f64;
                    assert_eq!(g.random_legal_move(u), g.move_of(a));
                }
                g.legal_mask(&mut mask);
                let from_mask: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
                assert_eq!(from_mask, actions);
                g.observe(&mut obs);
                assert!(obs
                    .iter()
                    .all(|v| v.is_finite() && (-1.0..=2.0).contains(v)));
                let Some(mv) = g.random_move(&mut rng) else {
                    break;
                };
                g.play_unchecked(mv);
            }
            assert_eq!(g.random_action(0.5), None);
            assert_eq!(g.random_legal_move(0.5), None);
            let r = g.returns();
            assert_eq!(r[0] + r[1], 0.0);
        }
    }

    #[test]
    fn masks_and_nth_match_the_legal_moves() {
        check_game(Tabik::new(TabikConfig { size: 4, pie: true }).unwrap(), 20);
        check_game(Tabik::new(TabikConfig::default()).unwrap(), 3);
        check_game(Migong::new(MigongConfig::default()).unwrap(), 2);
        check_game(
            Nume::new(NumeConfig {
                n: 2,
                komi_phase: true,
                ..NumeConfig::default()
            })
            .unwrap(),
            10,
        );
        check_game(
            Nume::new(NumeConfig {
                square: Some(4),
                ..NumeConfig::default()
            })
            .unwrap(),
            10,
        );
    }
}
