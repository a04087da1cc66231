//! Tabik's board symmetries for the solver: every symmetry of the square (8), since its
//! rules only speak of orthogonal adjacency. A position's features: its stones (cell and
//! colour) and its rods (edges).

use super::{Tabik, TabikMove};
use crate::rules::board::Cell;
use crate::rules::game::Game;
use crate::search::symmetry::{square_symmetries, Feature, Symmetric, Symmetries};

impl Symmetric for Tabik {
    /// Slots: the k * k squares, then the east edge at each square (k * k + i), then the
    /// north edge at each square (2 * k * k + i).
    fn symmetries(&self) -> Option<Symmetries> {
        let board = self.geometry();
        let (n, k) = (board.len(), self.config().size);
        let images = square_symmetries(board)
            .into_iter()
            .map(|cells| {
                let edge = |a: usize, b: usize| {
                    let (a, b) = (cells[a] as usize, cells[b] as usize);
                    let (low, high) = (a.min(b), a.max(b));
                    (if high == low + 1 {
                        n + low
                    } else {
                        2 * n + low
                    }) as u32
                };
                let mut image = cells.clone();
                image.extend((0..n).map(|i| if i % k + 1 < k { edge(i, i + 1) } else { 0 }));
                image.extend((0..n).map(|i| if i + k < n { edge(i, i + k) } else { 0 }));
                image
            })
            .collect();
        Some(Symmetries::new(images, 2))
    }

    fn features(&self, out: &mut Vec<Feature>) {
        let n = self.geometry().len() as u32;
        let ([black, white], [east, north]) = (self.stone_sets(), self.rod_sets());
        out.extend(black.iter().map(|i| (i as u32, 0)));
        out.extend(white.iter().map(|i| (i as u32, 1)));
        out.extend(east.iter().map(|i| (n + i as u32, 0)));
        out.extend(north.iter().map(|i| (2 * n + i as u32, 0)));
    }

    /// A placement adds two stones and a rod; a stone swap changes the colour of two
    /// stones (each loses one colour and gains the other) and adds a rod.
    fn toggled_features(&self, mv: TabikMove, out: &mut Vec<Feature>) {
        let n = self.geometry().len();
        let rod = |a: Cell, b: Cell| {
            let (low, high) = (usize::from(a.min(b)), usize::from(a.max(b)));
            (if high == low + 1 {
                n + low
            } else {
                2 * n + low
            }) as u32
        };
        match mv {
            TabikMove::Place { black, white } => out.extend([
                (u32::from(black), 0),
                (u32::from(white), 1),
                (rod(black, white), 0),
            ]),
            TabikMove::StoneSwap { first, second } => out.extend([
                (u32::from(first), 0),
                (u32::from(first), 1),
                (u32::from(second), 0),
                (u32::from(second), 1),
                (rod(first, second), 0),
            ]),
            TabikMove::Swap | TabikMove::Pass => {}
        }
    }

    fn turn_key(&self) -> u64 {
        self.key() ^ self.board_key()
    }
}
