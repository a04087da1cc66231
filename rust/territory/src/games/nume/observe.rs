//! Nume observations, masks and counting of legal actions (docs/games/nume.md, "Observation").

use super::{Nume, NumeConfig, Phase, NO_NUMBER};
use crate::observe::{fill_plane, Learn};
use crate::rules::game::{Color, Game, Seat};
use crate::rules::position::PositionError;

const PLANES: usize = 12;

impl Nume {
    /// Grid width and height: axial (q, r) on hex boards, (column, row) on square ones.
    fn grid_side(&self) -> usize {
        match self.config.square {
            Some(k) => k,
            None => 2 * self.config.n + 1,
        }
    }
}

impl Learn for Nume {
    fn position(&self) -> String {
        self.write_position()
    }

    fn from_position(config: NumeConfig, text: &str) -> Result<Nume, PositionError> {
        Nume::read_position(config, text)
    }

    /// Numbers, group prices and komi are divided by the number of cells.
    const WHOLE_OBSERVATIONS: bool = false;

    fn observation_shape(&self) -> [usize; 3] {
        let side = self.grid_side();
        [PLANES, side, side]
    }

    fn observe_as(&self, seat: Seat, out: &mut [f32]) {
        let side = self.grid_side();
        let area = side * side;
        out[..PLANES * area].fill(0.0);
        let n = self.n_cells() as f32;
        let scaled = |v: f64| (v / n as f64).min(2.0) as f32;
        let own = self.color_of(seat);
        let groups = self.groups_now();
        for cell in 0..self.n_cells() {
            let (q, r) = self.board.position(cell);
            let g = r as usize * side + q as usize;
            out[6 * area + g] = 1.0;
            let Some(color) = Color::BOTH
                .into_iter()
                .find(|c| self.stones[c.index()].contains(cell))
            else {
                continue;
            };
            out[(color != own) as usize * area + g] = 1.0;
            if self.numbers[cell] != NO_NUMBER {
                out[2 * area + g] = 1.0;
                out[3 * area + g] = scaled(self.numbers[cell] as f64);
            }
            let root = groups.find(cell);
            out[4 * area + g] = groups.size[root] as f32 / n;
            out[5 * area + g] = scaled(groups.price(root) as f64);
        }
        let komi = |color: Color| match self.komi {
            Some((k, to)) if to == color => scaled(k as f64 + 0.5),
            _ => 0.0,
        };
        let values = [
            (own == Color::First) as u8 as f32,
            komi(own),
            komi(own.other()),
            (self.phase == Phase::ChooseKomi) as u8 as f32,
            (self.phase == Phase::ChooseSide) as u8 as f32,
        ];
        for (i, value) in values.into_iter().enumerate() {
            if value != 0.0 {
                fill_plane(out, 7 + i, area, value);
            }
        }
    }

    fn ownership_as(&self, color: Color, out: &mut [f32]) {
        for (cell, value) in out.iter_mut().enumerate().take(self.n_cells()) {
            *value = if self.stones[color.index()].contains(cell) {
                1.0
            } else if self.stones[color.other().index()].contains(cell) {
                -1.0
            } else {
                0.0
            };
        }
    }

    fn legal_count(&self) -> usize {
        let n = self.n_cells();
        match self.phase {
            Phase::ChooseKomi => 2 * (n + 1),
            Phase::ChooseSide => 2,
            Phase::Stones => {
                let (joining, starting) = self.placements();
                joining.count() + (n + 1) * starting.count()
            }
        }
    }

    fn nth_legal_action(&self, r: usize) -> usize {
        let n = self.n_cells();
        match self.phase {
            Phase::ChooseKomi => self.komi_base() + r,
            Phase::ChooseSide => self.side_base() + r,
            Phase::Stones => {
                let (joining, starting) = self.placements();
                let plain = joining.count();
                if r < plain {
                    joining.nth(r).expect("r is below the count")
                } else {
                    let r = r - plain;
                    let cell = starting.nth(r / (n + 1)).expect("r is below the count");
                    n + cell * (n + 1) + r % (n + 1)
                }
            }
        }
    }

    fn legal_mask(&self, out: &mut [bool]) {
        out.fill(false);
        let n = self.n_cells();
        match self.phase {
            Phase::ChooseKomi => out[self.komi_base()..self.side_base()].fill(true),
            Phase::ChooseSide => out[self.side_base()..self.side_base() + 2].fill(true),
            Phase::Stones => {
                let (joining, starting) = self.placements();
                for cell in joining {
                    out[cell] = true;
                }
                for cell in starting {
                    let first = n + cell * (n + 1);
                    out[first..first + n + 1].fill(true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;

    /// Planes 0 and 1 mark each stone (own, other) with 1; plane 4 holds its group's
    /// size over the cells, never 0 under a stone.
    #[test]
    fn stones_and_their_groups_sizes_have_their_own_planes() {
        let mut g = Nume::new(Default::default()).unwrap();
        let mut rng = crate::rules::playout::game_rng(4, 0);
        for _ in 0..16 {
            let mv = g.random_move(&mut rng).unwrap();
            g.play_unchecked(mv);
        }
        let area = g.grid_side() * g.grid_side();
        let mut out = vec![0.0; g.observation_len()];
        g.observe(&mut out);
        let stones = g.stones[0].count() + g.stones[1].count();
        assert!(stones >= 8);
        let plane = |p: usize| &out[p * area..(p + 1) * area];
        let marked: Vec<usize> = (0..area).filter(|&i| plane(0)[i] + plane(1)[i] != 0.0).collect();
        assert_eq!(marked.len(), stones);
        for &i in &marked {
            assert_eq!(plane(0)[i] + plane(1)[i], 1.0);
            assert!(plane(4)[i] > 0.0 && plane(4)[i] <= 1.0);
        }
        assert_eq!((0..area).filter(|&i| plane(4)[i] != 0.0).count(), stones);
        // Plane 6 marks the board's cells (a hex board leaves grid squares off it); plane
        // 5, a group's price, is 0 where no stone is.
        // Each cell's place on the grid, by cell.
        let grid: Vec<usize> = (0..g.n_cells())
            .map(|cell| {
                let (q, r) = g.board.position(cell);
                r as usize * g.grid_side() + q as usize
            })
            .collect();
        let on_board: Vec<usize> = (0..area).filter(|&i| plane(6)[i] == 1.0).collect();
        assert!(on_board.len() < area && plane(6).iter().all(|&v| v == 0.0 || v == 1.0));
        let mut cells = grid.clone();
        cells.sort();
        assert_eq!(on_board, cells);
        assert!((0..area).all(|i| marked.contains(&i) || plane(5)[i] == 0.0));
        // Planes 2 and 3: a numbered stone, and its number over the cells.
        let mut numbered = 0;
        for (cell, &i) in grid.iter().enumerate() {
            let number = g.numbers[cell];
            let expected = if number == NO_NUMBER {
                (0.0, 0.0)
            } else {
                (1.0, number as f32 / g.n_cells() as f32)
            };
            numbered += (number != NO_NUMBER) as usize;
            assert_eq!((plane(2)[i], plane(3)[i]), expected, "cell {cell}");
        }
        assert!(numbered >= 2 && plane(2).iter().sum::<f32>() == numbered as f32);
        // One more stone: White (seat 1) is to move, and its 8 stones, not Black's 9, are
        // on the observer's own plane.
        let mv = g.random_move(&mut rng).unwrap();
        g.play_unchecked(mv);
        g.observe(&mut out);
        assert_eq!(g.color_of(g.to_move().unwrap()), Color::Second);
        assert_eq!((g.stones[0].count(), g.stones[1].count()), (9, 8));
        assert_eq!(out[..area].iter().filter(|&&v| v == 1.0).count(), 8);
    }

    /// Plane 7 is on for the observer who plays Black; planes 8 and 9 hold the komi
    /// k + 0.5 (over the cells) of the observer's colour and of the other colour: only the
    /// komi's recipient sees it on its own plane.
    #[test]
    fn colour_and_komi_planes_show_the_observers_side() {
        let g = Nume::new(NumeConfig {
            komi: Some(2),
            komi_to: Color::Second,
            ..NumeConfig::default()
        })
        .unwrap();
        let area = g.grid_side() * g.grid_side();
        let komi = (2.5 / g.n_cells() as f64) as f32;
        let mut out = vec![0.0; g.observation_len()];
        let seats = [(Seat::First, 1.0, 0.0, komi), (Seat::Second, 0.0, komi, 0.0)];
        for (seat, black, own, other) in seats {
            assert_eq!(g.color_of(seat), [Color::First, Color::Second][seat as usize]);
            g.observe_as(seat, &mut out);
            assert!(out[7 * area..8 * area].iter().all(|&v| v == black), "{seat:?}: Black's plane");
            assert!(out[8 * area..9 * area].iter().all(|&v| v == own), "{seat:?}: own komi plane");
            assert!(out[9 * area..10 * area].iter().all(|&v| v == other), "{seat:?}: other komi plane");
        }
    }

    /// Planes 10 and 11 are on while seat 0 chooses the komi and while seat 1 chooses
    /// its colour; both are off once the stones are played.
    #[test]
    fn komi_phase_planes_show_the_phase() {
        let mut g = Nume::new(NumeConfig {
            komi_phase: true,
            ..NumeConfig::default()
        })
        .unwrap();
        let area = g.grid_side() * g.grid_side();
        let mut out = vec![0.0; g.observation_len()];
        let mut phase_planes = |g: &Nume| {
            g.observe(&mut out);
            [10, 11].map(|p| out[p * area..(p + 1) * area].iter().fold(0.0f32, |a, &v| a.max(v)))
        };
        assert_eq!(phase_planes(&g), [1.0, 0.0]);
        g.play_str("komi 2.5 white").unwrap();
        assert_eq!(phase_planes(&g), [0.0, 1.0]);
        g.play_str("side black").unwrap();
        assert_eq!(phase_planes(&g), [0.0, 0.0]);
    }
}
