//! The Python class `territory.Migong`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::games::migong::{Piece, BORDER_EDGES};
use territory::{Color, Game};

use crate::params;

crate::native_class! {
    /// A game of Migong (docs/RULES.md).
    /// `Migong(pie=True, border="alternate", group_size="extent")`.
    Migong
}

#[pymethods]
impl Migong {
    #[new]
    #[pyo3(text_signature = "(pie=True, border=\"alternate\", group_size=\"extent\")")]
    #[pyo3(signature = (pie = params::unset(), border = params::unset(), group_size = params::unset()))]
    fn new(
        py: Python<'_>,
        pie: Py<PyAny>,
        border: Py<PyAny>,
        group_size: Py<PyAny>,
    ) -> PyResult<Self> {
        Migong::from_config(params::config([
            pie.bind(py),
            border.bind(py),
            group_size.bind(py),
        ])?)
    }

    /// The pieces a colour ("blue" or "yellow") has not placed yet, as sorted strings.
    fn remaining(&self, color: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let color = Color::BOTH[params::choice(color, "color", &["blue", "yellow"])?];
        let set = self.game.remaining(color);
        let mut pieces: Vec<String> = (0..64u8)
            .filter(|p| set >> p & 1 == 1)
            .map(|p| Piece(p).to_string())
            .collect();
        pieces.sort();
        Ok(pieces)
    }

    /// The colours ('B'/'Y') of the 84 border edges, in the order of docs/games/migong.md.
    fn border_colors(&self) -> String {
        self.game
            .border_colors()
            .iter()
            .map(|c| if *c == Color::First { 'B' } else { 'Y' })
            .collect()
    }

    /// The 84 border edges as (cell name, direction 0..5), in the order of
    /// docs/games/migong.md (the order of `border_colors()`).
    fn border_edges(&self) -> Vec<(String, usize)> {
        let mut edges = vec![(String::new(), 0); BORDER_EDGES];
        for cell in 0..self.game.num_cells() {
            for &(direction, index) in territory::Migong::border_edges(cell) {
                edges[index] = (self.game.cell_name(cell), direction);
            }
        }
        edges
    }

    /// The position: `{"pieces": {cell: "BYBYBY"}}`.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pieces = PyDict::new(py);
        for cell in 0..self.game.num_cells() {
            if let Some(piece) = self.game.piece_at(cell) {
                pieces.set_item(self.game.cell_name(cell), piece.to_string())?;
            }
        }
        let board = PyDict::new(py);
        board.set_item("pieces", pieces)?;
        Ok(board)
    }
}
