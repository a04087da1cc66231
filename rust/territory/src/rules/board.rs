//! Cell geometry shared by Nume (hex and square boards) and Migong: cell indices,
//! names, neighbour sets and, on hex boards, the neighbour in each direction.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::rules::bitset::Bits;
use crate::rules::coords::Coord;
use crate::rules::error::InvalidMove;

/// The six hex directions in axial (dq, dr), in the fixed order of RULES.md:
/// E, NE, NW, W, SW, SE.
pub const HEX_DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
const SQUARE_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const TABLE: usize = 32;
/// A cell index, as moves carry it: boards have at most 256 cells, numbered from 0.
pub type Cell = u8;

/// Marks a (column, row) with no cell; cell indices go up to 255, so the table holds u16.
const NONE: u16 = u16::MAX;

/// A board: cells numbered by index (sorted by row, then column), each with its name and
/// neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Axial (q, r) on hex boards, (column, row) on square boards.
    positions: Vec<(i32, i32)>,
    names: Vec<Coord>,
    neighbours: Vec<Bits>,
    /// Neighbour in each direction (hex: the six of [`HEX_DIRECTIONS`]).
    steps: Vec<[Option<u8>; 6]>,
    all: Bits,
    /// Cell index by (column letter, row number) of the name.
    by_name: Vec<[u16; TABLE]>,
    /// Hexagonal cells (six neighbours) rather than squares (four).
    hex: bool,
}

impl Board {
    /// A hex board of the axial positions accepted by `contains`, with names given by
    /// `(q + name_offset.0, r + name_offset.1)` as column and row.
    pub fn hex(
        span: std::ops::RangeInclusive<i32>,
        contains: impl Fn(i32, i32) -> bool,
        name_offset: (i32, i32),
    ) -> Board {
        let positions = Self::positions(span, contains);
        Self::build(positions, &HEX_DIRECTIONS, |(q, r)| {
            (q + name_offset.0, r + name_offset.1)
        })
    }

    /// A k x k square board with orthogonal adjacency.
    pub fn square(k: usize) -> Board {
        let k = k as i32;
        let positions = Self::positions(0..=k - 1, |_, _| true);
        Self::build(positions, &SQUARE_DIRECTIONS, |p| p)
    }

    /// The k x k square board, built once per size and shared by every game of that size.
    pub fn square_shared(k: usize) -> Arc<Board> {
        Board::shared(("square", k), || Board::square(k))
    }

    /// The board named by `key` (a shape and a size), built by `build` on the first call
    /// with that key and shared by every later call: a game's geometry depends only on
    /// its parameters, so every state of a configuration holds the same board.
    pub fn shared(key: (&'static str, usize), build: impl FnOnce() -> Board) -> Arc<Board> {
        type Boards = HashMap<(&'static str, usize), Arc<Board>>;
        static BOARDS: OnceLock<Mutex<Boards>> = OnceLock::new();
        let boards = BOARDS.get_or_init(Default::default);
        // A panic while the lock was held cannot leave the map half-written.
        let mut boards = boards.lock().unwrap_or_else(|e| e.into_inner());
        boards
            .entry(key)
            .or_insert_with(|| Arc::new(build()))
            .clone()
    }

    fn positions(
        span: std::ops::RangeInclusive<i32>,
        contains: impl Fn(i32, i32) -> bool,
    ) -> Vec<(i32, i32)> {
        let mut positions = Vec::new();
        for r in span.clone() {
            for q in span.clone() {
                if contains(q, r) {
                    positions.push((q, r));
                }
            }
        }
        assert!(positions.len() <= 256, "boards hold at most 256 cells");
        positions
    }

    fn build(
        positions: Vec<(i32, i32)>,
        directions: &[(i32, i32)],
        name_of: impl Fn((i32, i32)) -> (i32, i32),
    ) -> Board {
        let index_of = |p: (i32, i32)| positions.iter().position(|&x| x == p).map(|i| i as u8);
        let steps: Vec<[Option<u8>; 6]> = positions
            .iter()
            .map(|&(q, r)| {
                let mut step = [None; 6];
                for (d, (dq, dr)) in directions.iter().enumerate() {
                    step[d] = index_of((q + dq, r + dr));
                }
                step
            })
            .collect();
        let neighbours = steps
            .iter()
            .map(|s| s.iter().flatten().map(|&i| i as usize).collect())
            .collect();
        let mut by_name = vec![[NONE; TABLE]; TABLE];
        let names = positions
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let (col, row) = name_of(p);
                by_name[col as usize][row as usize] = i as u16;
                Coord::new(col as u8, row as u8)
            })
            .collect();
        Board {
            all: Bits::below(positions.len()),
            positions,
            names,
            neighbours,
            steps,
            by_name,
            hex: directions.len() == HEX_DIRECTIONS.len(),
        }
    }

    /// Whether the cells are hexagons (axial positions) rather than squares.
    pub fn is_hex(&self) -> bool {
        self.hex
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// All cells.
    pub fn all(&self) -> Bits {
        self.all
    }

    /// The cell index of a name, if the cell is on this board.
    pub fn index(&self, name: Coord) -> Option<usize> {
        let (c, r) = (name.col as usize, name.row as usize);
        if c < TABLE && r < TABLE && self.by_name[c][r] != NONE {
            Some(self.by_name[c][r] as usize)
        } else {
            None
        }
    }

    pub fn name(&self, cell: usize) -> Coord {
        self.names[cell]
    }

    /// The cell index of a name, as a move carries it, if the cell is on this board.
    #[inline]
    pub fn cell(&self, name: Coord) -> Option<Cell> {
        self.index(name).map(|i| i as Cell)
    }

    /// The index of a cell a move carries, if it is on this board (only a move built in
    /// code can carry one that is not).
    #[inline]
    pub fn on_board(&self, cell: Cell) -> Option<usize> {
        let i = usize::from(cell);
        (i < self.len()).then_some(i)
    }

    /// [`Board::on_board`], or why the cell is not on this board.
    #[inline]
    pub fn check_cell(&self, cell: Cell) -> Result<usize, InvalidMove> {
        self.on_board(cell).ok_or(InvalidMove::CellIndex {
            cell: usize::from(cell),
            cells: self.len(),
        })
    }

    /// Writes a cell's name (for printing moves); an index off the board, which only a
    /// move built in code can carry, is written `#` and the index.
    pub fn write_name(&self, cell: Cell, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.names.get(usize::from(cell)) {
            Some(name) => write!(f, "{name}"),
            None => write!(f, "#{cell}"),
        }
    }

    /// Axial (q, r) or (column, row).
    pub fn position(&self, cell: usize) -> (i32, i32) {
        self.positions[cell]
    }

    #[inline]
    pub fn neighbours(&self, cell: usize) -> Bits {
        self.neighbours[cell]
    }

    /// The neighbours of every cell, by cell index (for loops that look up many).
    #[inline]
    pub fn neighbour_sets(&self) -> &[Bits] {
        &self.neighbours
    }

    /// The neighbour in direction `d` (an index into [`HEX_DIRECTIONS`] on hex boards).
    #[inline]
    pub fn step(&self, cell: usize, d: usize) -> Option<usize> {
        self.steps[cell][d].map(usize::from)
    }

    /// Visits the connected components of `set`, ordered by their first cell.
    pub fn components(&self, set: Bits, mut visit: impl FnMut(Bits)) {
        let mut left = set;
        while let Some(seed) = left.first() {
            let component = self.flood(seed, set);
            left &= !component;
            visit(component);
        }
    }

    /// The cells reachable from `seed` through cells of `within` (which holds `seed`).
    pub fn flood(&self, seed: usize, within: Bits) -> Bits {
        let mut group = Bits::single(seed);
        let mut frontier = group;
        while let Some(cell) = frontier.first() {
            frontier.remove(cell);
            let fresh = self.neighbours[cell] & within & !group;
            group |= fresh;
            frontier |= fresh;
        }
        group
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_neighbours() {
        let b = Board::square(3);
        assert_eq!((b.len(), b.is_empty()), (9, false));
        assert_eq!(b.neighbours(4).count(), 4);
        assert_eq!(b.neighbours(0).iter().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(b.index(Coord::new(1, 2)), Some(7));
        assert_eq!(b.index(Coord::new(3, 0)), None);
        // Past the name table's edge (32 columns and rows): not on any board.
        for (col, row) in [(31, 0), (32, 0), (0, 32), (40, 40)] {
            assert_eq!(b.index(Coord::new(col, row)), None, "{col} {row}");
        }
    }

    #[test]
    fn cells_of_moves() {
        struct Name<'a>(&'a Board, Cell);
        impl fmt::Display for Name<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_name(self.1, f)
            }
        }
        let b = Board::square(3);
        assert_eq!(b.cell(Coord::new(1, 2)), Some(7));
        assert_eq!(b.cell(Coord::new(3, 0)), None);
        assert_eq!((b.on_board(8), b.on_board(9)), (Some(8), None));
        assert_eq!(b.check_cell(8), Ok(8));
        assert_eq!(
            b.check_cell(9),
            Err(InvalidMove::CellIndex { cell: 9, cells: 9 })
        );
        assert_eq!(Name(&b, 7).to_string(), "b3");
        assert_eq!(Name(&b, 200).to_string(), "#200");
    }

    #[test]
    fn shared_boards_are_built_once() {
        let a = Board::square_shared(5);
        let b = Board::square_shared(5);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(*a, Board::square(5));
        assert!(!Arc::ptr_eq(&a, &Board::square_shared(6)));
        let built = Board::shared(("test-shape", 5), || Board::square(2));
        assert_eq!(built.len(), 4);
        assert_eq!(Board::shared(("test-shape", 5), || unreachable!()).len(), 4);
    }

    #[test]
    fn flood_follows_neighbours() {
        let b = Board::square(3);
        let within: Bits = [0, 1, 4, 8].into_iter().collect();
        assert_eq!(b.flood(0, within).iter().collect::<Vec<_>>(), vec![0, 1, 4]);
    }
}
