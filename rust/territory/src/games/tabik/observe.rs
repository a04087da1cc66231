//! Tabik observations, masks and counting of legal actions (docs/games/tabik.md, "Observation").

use super::{Tabik, TabikConfig, TabikMove, MAX_SIZE};
use crate::observe::{fill_flag_planes, Learn};
use crate::rules::board::Cell;
use crate::rules::game::{Color, Game, Seat};
use crate::rules::position::PositionError;
use crate::rules::scoring::Tally;

const PLANES: usize = 8;

/// Group sizes 1, 2, 3 and 4 or more: one feature plane each, per side.
const SIZE_PLANES: usize = 4;
/// Feature planes: the sizes of own and opponent groups, then own and opponent stones in
/// groups of a size their colour holds, then in groups of their colour's score.
const FEATURE_PLANES: usize = 2 * SIZE_PLANES + 4;

impl Tabik {
    /// Whether the last action was a pass (before `history` too).
    fn pass_pending(&self) -> bool {
        match self.history.last() {
            Some(mv) => *mv == TabikMove::Pass,
            None => self.start.passes > 0,
        }
    }

    /// The action numbers of the two placements and the stone swap across the edge whose
    /// first square is `first` (east edge when `east`).
    #[inline]
    fn edge_index(&self, first: usize, east: bool) -> usize {
        let k = self.k;
        if east {
            first / k * (k - 1) + first % k
        } else {
            k * (k - 1) + first
        }
    }
}

impl Learn for Tabik {
    fn position(&self) -> String {
        self.write_position()
    }

    fn from_position(config: TabikConfig, text: &str) -> Result<Tabik, PositionError> {
        Tabik::read_position(config, text)
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, self.k, self.k]
    }

    fn observe_as(&self, seat: Seat, out: &mut [f32]) {
        let area = self.k * self.k;
        out[..PLANES * area].fill(0.0);
        let own = self.color_of(seat);
        let (stones, [east, north]) = (self.stone_sets(), self.rod_sets());
        let planes = [
            stones[own.index()],
            stones[own.other().index()],
            east,
            north,
        ];
        for (p, set) in planes.into_iter().enumerate() {
            for cell in set {
                out[p * area + cell] = 1.0;
            }
        }
        let flags = [
            own == Color::First,
            self.pie_available() && !self.is_over(),
            self.pass_pending(),
            self.last_mover() == Some(seat),
        ];
        fill_flag_planes(out, 4, area, flags);
    }

    /// The eight symmetries of the k x k square: the observation and feature planes are
    /// planes of squares, the rod planes hold the rod east and north of each square (a
    /// rod goes where its edge goes), the score features do not move, and a move's
    /// squares move with the board (`pass` and `swap` stay).
    fn training_symmetries(&self) -> Vec<[Vec<usize>; 2]> {
        let (k, m) = (self.k, self.k - 1);
        let area = k * k;
        let inputs = PLANES * area + self.feature_len();
        let transforms: [fn(usize, usize, usize) -> (usize, usize); 8] = [
            |_, c, r| (c, r),
            |m, c, r| (m - r, c),
            |m, c, r| (m - c, m - r),
            |m, c, r| (r, m - c),
            |m, c, r| (m - c, r),
            |m, c, r| (c, m - r),
            |_, c, r| (r, c),
            |m, c, r| (m - r, m - c),
        ];
        transforms
            .iter()
            .map(|transform| {
                let t = |c: usize, r: usize| transform(m, c, r);
                let mut source: Vec<usize> = (0..inputs).collect();
                for row in 0..k {
                    for col in 0..k {
                        let (c2, r2) = t(col, row);
                        for plane in (0..PLANES).filter(|&p| p != 2 && p != 3) {
                            source[plane * area + r2 * k + c2] = plane * area + row * k + col;
                        }
                        for plane in 0..FEATURE_PLANES {
                            let at = (PLANES + plane) * area;
                            source[at + r2 * k + c2] = at + row * k + col;
                        }
                        for (plane, dc, dr) in [(2, 1, 0), (3, 0, 1)] {
                            if col + dc < k && row + dr < k {
                                let (a, b) = (t(col, row), t(col + dc, row + dr));
                                // The edge's first square: the lower row, then column.
                                let (low, high) = if (a.1, a.0) <= (b.1, b.0) { (a, b) } else { (b, a) };
                                let to_plane = if low.1 == high.1 { 2 } else { 3 };
                                source[to_plane * area + low.1 * k + low.0] = plane * area + row * k + col;
                            }
                        }
                    }
                }
                let square = |cell: Cell| {
                    let (c2, r2) = t(usize::from(cell) % k, usize::from(cell) / k);
                    (r2 * k + c2) as Cell
                };
                let mut actions: Vec<usize> = (0..self.num_actions()).collect();
                for action in 0..self.num_actions() {
                    let moved = match self.move_of(action) {
                        Some(TabikMove::Place { black, white }) => TabikMove::Place {
                            black: square(black),
                            white: square(white),
                        },
                        Some(TabikMove::StoneSwap { first, second }) => TabikMove::StoneSwap {
                            first: square(first),
                            second: square(second),
                        },
                        _ => continue,
                    };
                    actions[self.action_of(moved).expect("a symmetry keeps adjacency")] = action;
                }
                [source, actions]
            })
            .collect()
    }

    fn ownership_as(&self, color: Color, out: &mut [f32]) {
        out.fill(0.0);
        let stones = self.stone_sets();
        for (set, value) in [(stones[color.index()], 1.0), (stones[color.other().index()], -1.0)] {
            for cell in set {
                out[cell] = value;
            }
        }
    }

    fn feature_len(&self) -> usize {
        let area = self.k * self.k;
        FEATURE_PLANES * area + 2 * (area + 1)
    }

    /// What scoring makes of the groups (docs/learning.md): per stone, its group's size
    /// (1, 2, 3, 4+), whether its colour holds that size and whether that size is its
    /// colour's score; then the two scores, one-hot (own, then opponent).
    fn features_as(&self, seat: Seat, out: &mut [f32]) {
        let area = self.k * self.k;
        out.fill(0.0);
        let own = self.color_of(seat);
        let mut tally = Tally::<{ MAX_SIZE * MAX_SIZE + 1 }>::new();
        self.for_each_group(|color, group| tally.add(color, group.count()));
        let held = tally.held();
        self.for_each_group(|color, group| {
            let size = group.count();
            let side = usize::from(color != own);
            let planes = [
                Some(side * SIZE_PLANES + size.min(SIZE_PLANES) - 1),
                tally.holds(color, size).then_some(2 * SIZE_PLANES + side),
                (held[color.index()] as usize == size).then_some(2 * SIZE_PLANES + 2 + side),
            ];
            for cell in group {
                for p in planes.into_iter().flatten() {
                    out[p * area + cell] = 1.0;
                }
            }
        });
        let scores = FEATURE_PLANES * area;
        out[scores + held[own.index()] as usize] = 1.0;
        out[scores + area + 1 + held[own.other().index()] as usize] = 1.0;
    }

    fn legal_count(&self) -> usize {
        if self.is_over() {
            0
        } else {
            self.choices().count().max(1)
        }
    }

    fn nth_legal_action(&self, n: usize) -> usize {
        let choices = self.choices();
        let mv = if choices.count() == 0 {
            TabikMove::Pass
        } else {
            self.nth_choice(&choices, n)
        };
        self.action_of(mv).expect("every Tabik move has an action")
    }

    fn random_legal_move(&self, u: f64) -> Option<TabikMove> {
        if self.is_over() || !(0.0..1.0).contains(&u) {
            return None;
        }
        let choices = self.choices();
        let count = choices.count();
        Some(if count == 0 {
            TabikMove::Pass
        } else {
            self.nth_choice(&choices, ((u * count as f64) as usize).min(count - 1))
        })
    }

    fn legal_mask(&self, out: &mut [bool]) {
        out.fill(false);
        if self.is_over() {
            return;
        }
        let e = self.num_edges();
        let choices = self.choices();
        for (dir, is_east) in [(0, true), (1, false)] {
            for first in choices.place[dir] {
                let a = 2 * self.edge_index(first, is_east);
                out[a] = true;
                out[a + 1] = true;
            }
            for first in choices.swap[dir] {
                out[2 * e + self.edge_index(first, is_east)] = true;
            }
        }
        if choices.pie {
            out[3 * e] = true;
        }
        if choices.count() == 0 {
            out[3 * e + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_end_with_both_scores_one_hot() {
        for size in [4, 8] {
            let g = Tabik::new(TabikConfig { size, pie: true }).unwrap();
            let area = size * size;
            let mut out = vec![9.0; g.feature_len()];
            g.features_as(Seat::First, &mut out);
            // No stones: no group planes; both scores 0, one-hot after the 12 planes (4
            // sizes of each side's groups, then held and scoring sizes of each side).
            let scores = 12 * area;
            assert_eq!(FEATURE_PLANES, 12);
            let ones: Vec<usize> = (0..out.len()).filter(|&i| out[i] == 1.0).collect();
            assert_eq!(ones, [scores, scores + area + 1], "size {size}");
            assert_eq!(out.len(), scores + 2 * (area + 1));
        }
    }

    /// A black group of 40 stones on 16x16 (rows 4 and 6 whole, half of row 5 between
    /// them): the features' tally holds every size a board can have, and the score planes
    /// show both scores.
    #[test]
    fn features_count_the_largest_groups() {
        let mut g = Tabik::new(TabikConfig { size: 16, pie: false }).unwrap();
        for column in "abcdefghijklmnop".chars() {
            g.play_str(&format!("{column}4-{column}3")).unwrap();
            g.play_str(&format!("{column}6-{column}7")).unwrap();
        }
        for pair in ["a5-b5", "c5-d5", "e5-f5", "g5-h5", "i5-j5", "k5-l5", "m5-n5", "o5-p5"] {
            g.play_str(pair).unwrap();
        }
        let largest = g.groups().iter().map(|group| group.cells.len()).max().unwrap();
        assert_eq!(largest, 40);
        let area = 16 * 16;
        let mut out = vec![0.0; g.feature_len()];
        g.features_as(Seat::First, &mut out);
        let scores = g.held().map(|s| s as usize);
        assert_eq!(scores[0], 40);
        let one_hot = |at: usize| (0..=area).position(|i| out[12 * area + at * (area + 1) + i] == 1.0);
        assert_eq!([one_hot(0), one_hot(1)], [Some(scores[0]), Some(scores[1])]);
    }

    /// A game set up from its position string (no history: the turn fields carry the
    /// pass) observes as the game played to it, whose last move was the pass.
    #[test]
    fn a_game_set_up_from_its_position_observes_as_the_game_played() {
        let mut passes_seen = 0;
        for seed in 0..20 {
            let config = TabikConfig { size: 3, pie: seed % 2 == 0 };
            let mut g = Tabik::new(config).unwrap();
            let mut rng = crate::rules::playout::game_rng(seed, 3);
            let mut played = vec![0.0; g.observation_len()];
            let mut set_up = played.clone();
            loop {
                let h = Tabik::from_position(config, &g.position()).unwrap();
                for seat in [Seat::First, Seat::Second] {
                    g.observe_as(seat, &mut played);
                    h.observe_as(seat, &mut set_up);
                    assert_eq!(played, set_up, "{seat:?} at {}", g.position());
                }
                passes_seen += g.pass_pending() as usize;
                let Some(mv) = g.random_move(&mut rng) else {
                    break;
                };
                g.play_unchecked(mv);
            }
        }
        assert!(passes_seen >= 5, "{passes_seen} positions after a pass");
    }

    /// Along random games, played on the board and on each of its images (the same
    /// actions, mapped): the image's inputs (planes and features) are the board's
    /// taken at the symmetry's sources, and its legal actions likewise.
    #[test]
    fn training_symmetries_map_inputs_and_actions_as_the_board_turns() {
        for (size, pie) in [(3, true), (4, false), (5, true)] {
            let start = Tabik::new(TabikConfig { size, pie }).unwrap();
            let symmetries = start.training_symmetries();
            assert_eq!(symmetries.len(), 8);
            let inputs = |g: &Tabik| {
                let mut out = vec![0.0; g.network_input_len(true)];
                g.network_input(true, &mut out);
                out
            };
            let mask = |g: &Tabik| {
                let mut out = vec![false; g.num_actions()];
                g.legal_mask(&mut out);
                out
            };
            for (index, [source, actions]) in symmetries.iter().enumerate() {
                let mut sorted = actions.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..start.num_actions()).collect::<Vec<_>>());
                let (mut state, mut image) = (start.clone(), start.clone());
                let mut rng = crate::rules::playout::game_rng(size as u64, index as u64);
                while !state.is_over() {
                    let (board, turned) = (inputs(&state), inputs(&image));
                    assert!(source.iter().enumerate().all(|(i, &s)| turned[i] == board[s]), "size {size}, symmetry {index}");
                    let (board, turned) = (mask(&state), mask(&image));
                    assert!(actions.iter().enumerate().all(|(a, &s)| turned[a] == board[s]));
                    let action = state.random_action(rand::RngExt::random(&mut rng)).unwrap();
                    state.play_action(action).unwrap();
                    image.play_action(actions.iter().position(|&s| s == action).unwrap()).unwrap();
                }
                assert_eq!(image.scores(), state.scores());
            }
        }
    }

    #[test]
    fn each_stone_has_one_group_size_plane_of_its_side() {
        let mut g = Tabik::new(TabikConfig { size: 6, pie: false }).unwrap();
        let mut rng = crate::rules::playout::game_rng(2, 0);
        let area = 36;
        let mut out = vec![0.0; g.feature_len()];
        for _ in 0..14 {
            let mv = g.random_move(&mut rng).unwrap();
            g.play_unchecked(mv);
            g.features_as(Seat::First, &mut out);
            let own = g.color_of(Seat::First);
            let scores = FEATURE_PLANES * area;
            for square in 0..area {
                let planes: Vec<usize> = (0..2 * SIZE_PLANES).filter(|&p| out[p * area + square] == 1.0).collect();
                let scoring = [0, 1].map(|side| out[(2 * SIZE_PLANES + 2 + side) * area + square] == 1.0);
                match g.stone_at(square) {
                    None => assert!(planes.is_empty() && scoring == [false; 2], "square {square}: {planes:?}"),
                    Some(color) => {
                        assert_eq!(planes.len(), 1, "square {square}");
                        let side = usize::from(color != own);
                        assert_eq!(planes[0] / SIZE_PLANES, side, "square {square}");
                        // Marked when its group's size is its colour's score (one-hot after
                        // the planes); sizes from 4 share a plane, so only 1 to 3 say which.
                        let size = planes[0] % SIZE_PLANES + 1;
                        let score = (0..=area).find(|&s| out[scores + side * (area + 1) + s] == 1.0).unwrap();
                        if size < SIZE_PLANES {
                            assert_eq!(scoring[side], size == score, "square {square}");
                        } else if scoring[side] {
                            assert!(score >= SIZE_PLANES, "square {square}");
                        }
                        assert!(!scoring[1 - side]);
                    }
                }
            }
        }
    }
}
