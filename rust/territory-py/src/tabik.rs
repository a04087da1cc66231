//! The Python class `territory.Tabik`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::Game;

use crate::params;

crate::native_class! {
    /// A game of Tabik (docs/RULES.md). `Tabik(size=8, pie=True)`.
    Tabik
}

#[pymethods]
impl Tabik {
    #[new]
    #[pyo3(text_signature = "(size=8, pie=True)")]
    #[pyo3(signature = (size = params::unset(), pie = params::unset()))]
    fn new(py: Python<'_>, size: Py<PyAny>, pie: Py<PyAny>) -> PyResult<Self> {
        Tabik::from_config(params::config([size.bind(py), pie.bind(py)])?)
    }

    /// The position: `{"stones": {cell: colour}, "rods": [(first, second), ...]}`.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stones = PyDict::new(py);
        for cell in 0..self.game.num_cells() {
            if let Some(color) = self.game.stone_at(cell) {
                let name = self.game.cell_name(cell);
                stones.set_item(name, <territory::Tabik as Game>::COLOR_NAMES[color.index()])?;
            }
        }
        let rods: Vec<(String, String)> = self
            .game
            .rods()
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let board = PyDict::new(py);
        board.set_item("stones", stones)?;
        board.set_item("rods", rods)?;
        Ok(board)
    }
}
