//! Nume's board symmetries for the solver: every symmetry of the square (8) for a square
//! board, whose rules only speak of orthogonal adjacency; the six permutations of the
//! cube coordinates (x, y, z) for a hex board, `x + y + z = 3n - 1, 0 <= x, y, z <= 2n`
//! (three rotations by 120 degrees and three reflections). A position's features: its
//! stones (cell, colour and number).

use super::{Nume, NumeMove};
use crate::rules::game::Game;
use crate::search::symmetry::{hex_symmetries, square_symmetries, Feature, Symmetric, Symmetries};

impl Symmetric for Nume {
    fn symmetries(&self) -> Option<Symmetries> {
        let board = self.board();
        let images = if board.is_hex() {
            hex_symmetries(board)
        } else {
            square_symmetries(board)
        };
        // Stone values: 2 * (number + 1) + colour, the numbers listed are 0..=cells.
        Some(Symmetries::new(images, 2 * board.len() + 4))
    }

    /// A stone's value: 2 * (its number + 1) + colour, 0 + colour for no number.
    fn features(&self, out: &mut Vec<Feature>) {
        let (stones, numbers) = self.stones_and_numbers();
        for (color, set) in stones.iter().enumerate() {
            out.extend(set.iter().map(|i| {
                let number = u64::from(numbers[i].wrapping_add(1));
                (i as u32, 2 * number + color as u64)
            }));
        }
    }

    /// A placement adds its stone; the komi-phase moves change no stone.
    fn toggled_features(&self, mv: NumeMove, out: &mut Vec<Feature>) {
        if let NumeMove::Place { cell, .. } = mv {
            let (stones, numbers) = self.stones_and_numbers();
            let i = usize::from(cell);
            let color = u64::from(stones[1].contains(i));
            let number = u64::from(numbers[i].wrapping_add(1));
            out.push((u32::from(cell), 2 * number + color));
        }
    }

    fn turn_key(&self) -> u64 {
        self.key() ^ self.board_key()
    }
}
