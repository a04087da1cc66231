//! Board symmetries for the solver's transposition table: positions equal up to a
//! rotation or reflection of the board have the same value, so the table keys each
//! position by the smallest of its keys under the board's symmetries.
//!
//! Which symmetries preserve the rules (`RULES.md`) is each game's to say: it implements
//! [`Symmetric`] in its own folder (`games/<game>/symmetry.rs`), from the candidates here
//! ([`square_symmetries`], [`hex_symmetries`]), or keeps the default, no symmetry.
//!
//! A symmetric key is `turn_key ^ XOR of KEY[slot][value]` over the position's features
//! (for instance a stone's cell and colour, or an edge), with the slots moved by the
//! symmetry. The key of a position under a symmetry is thus the key
//! of the transformed position: any key the table holds is the key of a position with
//! the same value, whichever symmetry produced it.

use std::collections::HashMap;

use crate::rules::board::Board;
use crate::rules::game::Game;
use crate::rules::zobrist;

/// One feature of a position: a slot (cell or edge) and what occupies it.
pub type Feature = (u32, u64);

/// Games whose positions the solver can key up to board symmetries.
pub trait Symmetric: Game {
    /// The symmetries of this position's board that preserve the rules (`None`: key
    /// positions by [`Game::key`] alone).
    fn symmetries(&self) -> Option<Symmetries> {
        None
    }

    /// The position's features (slots as [`Symmetries`] numbers them).
    fn features(&self, _out: &mut Vec<Feature>) {}

    /// The features `mv` turned on or off, read in the position after it: the features
    /// after `mv` are those before it, with these toggled (the solver updates its keys
    /// from them).
    fn toggled_features(&self, _mv: Self::Move, _out: &mut Vec<Feature>) {}

    /// The part of the position no board symmetry moves: side to move, pie, passes,
    /// komi state.
    fn turn_key(&self) -> u64 {
        self.key()
    }
}

/// The key tables of each symmetry: `keys[s][slot * values + value]` is the key of
/// `value` on the image of `slot` under symmetry `s` (identity first); values from
/// `values` up are hashed instead.
pub struct Symmetries {
    keys: Vec<Vec<u64>>,
    images: Vec<Vec<u32>>,
    values: usize,
}

fn slot_key(slot: u32, value: u64) -> u64 {
    zobrist::mix(0x5359_4d4b_4559_5300 ^ u64::from(slot) << 48 ^ value)
}

impl Symmetries {
    /// From the image of every slot under each symmetry (identity first), with tables
    /// for the values below `values`.
    pub fn new(images: Vec<Vec<u32>>, values: usize) -> Symmetries {
        let keys = images
            .iter()
            .map(|image| {
                (0..image.len() * values)
                    .map(|i| slot_key(image[i / values], (i % values) as u64))
                    .collect()
            })
            .collect();
        Symmetries {
            keys,
            images,
            values,
        }
    }

    /// The key of `feature` under symmetry `s`.
    #[inline]
    fn feature_key(&self, s: usize, (slot, value): Feature) -> u64 {
        if (value as usize) < self.values {
            self.keys[s][slot as usize * self.values + value as usize]
        } else {
            slot_key(self.images[s][slot as usize], value)
        }
    }

    /// The position's key under each symmetry, into `out`.
    pub fn keys(&self, turn_key: u64, features: &[Feature], out: &mut [u64]) {
        for (s, key) in out.iter_mut().enumerate().take(self.len()) {
            *key = features
                .iter()
                .fold(turn_key, |k, &f| k ^ self.feature_key(s, f));
        }
    }

    /// The keys under each symmetry after a move: `keys` before it, updated in place by
    /// the change of turn key and the toggled features.
    pub fn update(&self, keys: &mut [u64], turn_change: u64, toggled: &[Feature]) {
        for (s, key) in keys.iter_mut().enumerate().take(self.len()) {
            *key = toggled
                .iter()
                .fold(*key ^ turn_change, |k, &f| k ^ self.feature_key(s, f));
        }
    }

    pub fn len(&self) -> usize {
        self.images.len()
    }

    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// The smallest key of the position over the symmetries, and the symmetry giving it.
    pub fn canonical_key(&self, turn_key: u64, features: &[Feature]) -> (u64, u8) {
        let mut keys = vec![0; self.len()];
        self.keys(turn_key, features, &mut keys);
        smallest(&keys)
    }
}

/// The smallest of the keys under each symmetry, and the first symmetry giving it.
pub fn smallest(keys: &[u64]) -> (u64, u8) {
    let mut best = (u64::MAX, 0);
    for (s, &key) in keys.iter().enumerate() {
        if key < best.0 {
            best = (key, s as u8);
        }
    }
    best
}

/// The permutations of the cells of a board that map it onto itself and keep
/// adjacency, among the candidate maps of a cell's position (identity first).
fn cell_symmetries(board: &Board, maps: &[&dyn Fn((i32, i32)) -> (i32, i32)]) -> Vec<Vec<u32>> {
    let index: HashMap<(i32, i32), usize> =
        (0..board.len()).map(|i| (board.position(i), i)).collect();
    let mut found = Vec::new();
    'map: for map in maps {
        let mut image = Vec::with_capacity(board.len());
        for i in 0..board.len() {
            match index.get(&map(board.position(i))) {
                Some(&j) => image.push(j as u32),
                None => continue 'map,
            }
        }
        let keeps_adjacency = (0..board.len()).all(|i| {
            board.neighbours(i).iter().all(|j| {
                board
                    .neighbours(image[i] as usize)
                    .contains(image[j] as usize)
            })
        });
        if keeps_adjacency {
            found.push(image);
        }
    }
    found
}

/// The eight symmetries of a k x k square board of (column, row) positions.
pub fn square_symmetries(board: &Board) -> Vec<Vec<u32>> {
    let m = (0..board.len())
        .map(|i| board.position(i).0)
        .max()
        .unwrap_or(0);
    let maps: [&dyn Fn((i32, i32)) -> (i32, i32); 8] = [
        &|(c, r)| (c, r),
        &|(c, r)| (m - c, r),
        &|(c, r)| (c, m - r),
        &|(c, r)| (m - c, m - r),
        &|(c, r)| (r, c),
        &|(c, r)| (m - r, c),
        &|(c, r)| (r, m - c),
        &|(c, r)| (m - r, m - c),
    ];
    cell_symmetries(board, &maps)
}

/// The six permutations of the cube coordinates of a hex board of axial (q, r) = (x, y)
/// positions with x + y + z constant.
pub fn hex_symmetries(board: &Board) -> Vec<Vec<u32>> {
    let sum = (0..board.len())
        .map(|i| board.position(i).0 + board.position(i).1)
        .max()
        .unwrap_or(0);
    let z = move |q: i32, r: i32| sum - q - r;
    let maps: [&dyn Fn((i32, i32)) -> (i32, i32); 6] = [
        &|(q, r)| (q, r),
        &|(q, r)| (r, q),
        &|(q, r)| (z(q, r), r),
        &|(q, r)| (q, z(q, r)),
        &|(q, r)| (r, z(q, r)),
        &|(q, r)| (z(q, r), q),
    ];
    cell_symmetries(board, &maps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn len_counts_the_symmetries() {
        let none = Symmetries::new(Vec::new(), 2);
        assert!(none.is_empty());
        assert_eq!(none.len(), 0);
        let two = Symmetries::new(vec![vec![0, 1], vec![1, 0]], 2);
        assert!(!two.is_empty());
        assert_eq!(two.len(), 2);
    }

    /// Every (slot, value) has its own key, in the table (values below 600) and beyond
    /// it: Nume's stone values pass 256 on boards of 127 cells or more.
    #[test]
    fn every_slot_and_value_has_its_own_key() {
        let symmetries = Symmetries::new(vec![(0..4).collect()], 600);
        let keys: std::collections::HashSet<u64> = (0..4)
            .flat_map(|slot| (0..700).map(move |value| (slot, value)))
            .map(|feature| symmetries.feature_key(0, feature))
            .collect();
        assert_eq!(keys.len(), 4 * 700);
    }
}
