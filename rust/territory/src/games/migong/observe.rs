//! Migong observations, masks and counting of legal actions (docs/games/migong.md, "Observation").

use std::sync::OnceLock;

use super::{Migong, MigongConfig, MigongMove, CELLS};
use crate::observe::{fill_flag_planes, Learn};
use crate::rules::game::{Color, Game, Seat};
use crate::rules::position::PositionError;

const SIDE: usize = 13;
const AREA: usize = SIDE * SIDE;
const PLANES: usize = 25;

/// The position of each cell on the 13 x 13 grid: row r + 6, column q + 6.
fn grid() -> &'static [usize; CELLS] {
    static GRID: OnceLock<[usize; CELLS]> = OnceLock::new();
    GRID.get_or_init(|| {
        std::array::from_fn(|cell| {
            let (q, r) = Migong::board().position(cell);
            (r + 6) as usize * SIDE + (q + 6) as usize
        })
    })
}

impl Migong {
    fn pass_pending(&self) -> bool {
        match self.history.last() {
            Some(mv) => *mv == MigongMove::Pass,
            None => self.start.passes > 0,
        }
    }
}

impl Learn for Migong {
    fn position(&self) -> String {
        self.write_position()
    }

    fn from_position(config: MigongConfig, text: &str) -> Result<Migong, PositionError> {
        Migong::read_position(config, text)
    }

    fn observation_shape(&self) -> [usize; 3] {
        [PLANES, SIDE, SIDE]
    }

    fn observe_as(&self, seat: Seat, out: &mut [f32]) {
        out[..PLANES * AREA].fill(0.0);
        let own = self.color_of(seat);
        // Yellow bits of a pattern are the opponent's wedges when we play Blue.
        let flip = if own == Color::First { 0u8 } else { 0x3f };
        let grid = grid();
        for (cell, &g) in grid.iter().enumerate() {
            out[18 * AREA + g] = 1.0;
            for &(d, _) in Self::border_edges(cell) {
                let theirs = (self.border_yellow[cell] ^ flip) >> d & 1 == 1;
                out[(12 + d) * AREA + g] = if theirs { -1.0 } else { 1.0 };
            }
            if let Some(piece) = self.pieces[cell] {
                let theirs = piece.0 ^ flip;
                for d in 0..6 {
                    out[(d + 6 * (theirs >> d & 1) as usize) * AREA + g] = 1.0;
                }
            }
        }
        for (p, color) in [(19, own), (20, own.other())] {
            let set = self.remaining[color.index()];
            for (pattern, value) in out[p * AREA..p * AREA + 64].iter_mut().enumerate() {
                *value = (set >> pattern & 1) as f32;
            }
        }
        let flags = [
            own == Color::First,
            self.pie_available() && !self.is_over(),
            self.pass_pending(),
            self.last_mover() == Some(seat),
        ];
        fill_flag_planes(out, 21, AREA, flags);
    }

    fn ownership_as(&self, color: Color, out: &mut [f32]) {
        for (cell, value) in out.iter_mut().enumerate() {
            *value = match self.pieces[cell] {
                Some(piece) => (0..6).map(|d| if piece.wedge(d) == color { 1.0 } else { -1.0 }).sum::<f32>() / 6.0,
                None => 0.0,
            };
        }
    }

    fn legal_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let set = self.remaining[self.mover_color().index()];
        (self.placement_count(set) + self.pie_available() as usize).max(1)
    }

    fn nth_legal_action(&self, n: usize) -> usize {
        let set = self.remaining[self.mover_color().index()];
        let mut r = n;
        for cell in 0..CELLS {
            let mut fitting = self.fit[cell] & set;
            let count = fitting.count_ones() as usize;
            if r < count {
                for _ in 0..r {
                    fitting &= fitting - 1;
                }
                return cell * 64 + fitting.trailing_zeros() as usize;
            }
            r -= count;
        }
        if self.pie_available() && r == 0 {
            CELLS * 64
        } else {
            CELLS * 64 + 1
        }
    }

    fn legal_mask(&self, out: &mut [bool]) {
        out.fill(false);
        if self.is_over() {
            return;
        }
        let set = self.remaining[self.mover_color().index()];
        let mut any = false;
        for (cell, chunk) in out[..CELLS * 64].chunks_exact_mut(64).enumerate() {
            let mut fitting = self.fit[cell] & set;
            any |= fitting != 0;
            while fitting != 0 {
                chunk[fitting.trailing_zeros() as usize] = true;
                fitting &= fitting - 1;
            }
        }
        if self.pie_available() {
            out[CELLS * 64] = true;
            any = true;
        }
        if !any {
            out[CELLS * 64 + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The second of the four flag planes (from 21) is on while the pie swap is there to
    /// take: at the second turn only.
    #[test]
    fn the_pie_flag_is_on_only_while_the_swap_can_be_taken() {
        let mut g = Migong::new(Default::default()).unwrap();
        let mut out = vec![0.0; g.observation_len()];
        let mut pie_flag = |g: &Migong| {
            g.observe(&mut out);
            let plane = &out[22 * AREA..23 * AREA];
            assert!(plane.iter().all(|&v| v == plane[0]));
            plane[0] == 1.0
        };
        assert!(!pie_flag(&g));
        g.play_str("h7:BBBYBB").unwrap();
        assert!(pie_flag(&g));
        g.play_str("i8:YYYYYY").unwrap();
        assert!(!pie_flag(&g));
    }

    /// Plane 18 marks the board's cells; planes 12 to 17 each border edge of a cell, by
    /// its direction: 1 where the edge has the observer's colour, -1 where the other's.
    #[test]
    fn the_board_and_its_border_have_their_planes() {
        let g = Migong::new(Default::default()).unwrap();
        let colors = g.border_colors();
        let mut out = vec![0.0; g.observation_len()];
        for seat in Seat::BOTH {
            g.observe_as(seat, &mut out);
            let on_board = out[18 * AREA..19 * AREA].iter().filter(|&&v| v == 1.0).count();
            assert_eq!(on_board, CELLS);
            let mut edges = 0;
            for (cell, &at) in grid().iter().enumerate() {
                assert_eq!(out[18 * AREA + at], 1.0);
                for &(d, index) in Migong::border_edges(cell) {
                    let own = colors[index] == g.color_of(seat);
                    assert_eq!(out[(12 + d) * AREA + at], if own { 1.0 } else { -1.0 }, "cell {cell}, edge {d}");
                    edges += 1;
                }
            }
            assert_eq!(edges, 84);
        }
    }

    /// Planes 0 to 5 hold a placed piece's wedges of the observer's colour, by direction,
    /// and planes 6 to 11 the other colour's.
    #[test]
    fn a_pieces_wedges_are_on_their_colours_planes() {
        let mut g = Migong::new(Default::default()).unwrap();
        g.play_str("h7:BBBYBB").unwrap();
        let at = grid()[Migong::board().cell(crate::Coord::parse("h7").unwrap()).unwrap() as usize];
        let mut out = vec![0.0; g.observation_len()];
        for (seat, lit) in [(Seat::First, [0, 1, 2, 9, 4, 5]), (Seat::Second, [6, 7, 8, 3, 10, 11])] {
            g.observe_as(seat, &mut out);
            let on: Vec<usize> = (0..12).filter(|p| out[p * AREA + at] == 1.0).collect();
            let mut expected = lit.to_vec();
            expected.sort();
            assert_eq!(on, expected, "{seat:?}");
        }
    }

    /// Planes 19 and 20 hold, in their first 64 values, the observer's and the other
    /// colour's remaining patterns (1 for each pattern still in the set).
    #[test]
    fn the_remaining_patterns_have_their_planes() {
        let mut g = Migong::new(Default::default()).unwrap();
        g.play_str("h7:BBBYBB").unwrap();
        let placed = g.piece_at(Migong::board().cell(crate::Coord::parse("h7").unwrap()).unwrap() as usize);
        let mut out = vec![0.0; g.observation_len()];
        for seat in [Seat::First, Seat::Second] {
            g.observe_as(seat, &mut out);
            let own = g.color_of(seat);
            for (plane, color) in [(19, own), (20, own.other())] {
                let values = &out[plane * AREA..plane * AREA + 64];
                let expected: Vec<f32> = (0..64).map(|p| (g.remaining(color) >> p & 1) as f32).collect();
                assert_eq!(values, expected, "{seat:?}, plane {plane}");
            }
        }
        assert_eq!(g.remaining(Color::First).count_ones(), 62);
        assert_eq!(g.remaining(Color::First) >> placed.unwrap().0 & 1, 0);
    }

    /// Seen by the seat to move, through a game: the first flag plane (21) is on when it
    /// plays the first colour; the third (23) exactly when the last move was a pass (also
    /// in a position read with its pass pending); the fourth (24), the observer made the
    /// last move, then too (a pass leaves the turn with the seat that moved before it).
    #[test]
    fn the_turn_flags_follow_the_game() {
        let config = MigongConfig::default();
        let mut g = Migong::new(config).unwrap();
        let mut rng = crate::rules::playout::game_rng(7, 0);
        let mut out = vec![0.0; g.observation_len()];
        let flags = |out: &[f32]| {
            [21, 23, 24].map(|p| {
                let plane = &out[p * AREA..(p + 1) * AREA];
                assert!(plane.iter().all(|&v| v == plane[0]));
                plane[0] == 1.0
            })
        };
        g.observe(&mut out);
        assert_eq!(flags(&out), [true, false, false], "the start");
        let mut passes = 0;
        while let Some(mv) = g.random_move(&mut rng) {
            g.play(mv).unwrap();
            let Some(seat) = g.to_move() else { break };
            g.observe(&mut out);
            let passed = mv == MigongMove::Pass;
            let first = g.color_of(seat) == Color::First;
            assert_eq!(flags(&out), [first, passed, passed], "after {}", g.move_text(mv));
            if passed {
                passes += 1;
                Migong::from_position(config, &g.position()).unwrap().observe(&mut out);
                assert_eq!(flags(&out), [first, true, true], "read after {}", g.move_text(mv));
            }
        }
        assert!(passes > 0, "the game had a pass before its end");
    }
}
