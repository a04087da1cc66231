//! The Python class `territory.Toy`: the bindings of the scaffold docs/adding-a-game.md
//! walks through. `native_class!` makes the class and every shared method; this file
//! adds the constructor and the board.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::Game;

use crate::params;

crate::native_class! {
    /// A game of Toy (the scaffold of docs/adding-a-game.md). `Toy(size=5)`.
    Toy
}

#[pymethods]
impl Toy {
    #[new]
    #[pyo3(text_signature = "(size=5)")]
    #[pyo3(signature = (size = params::unset()))]
    fn new(py: Python<'_>, size: Py<PyAny>) -> PyResult<Self> {
        Toy::from_config(params::config([size.bind(py)])?)
    }

    /// The position: `{"stones": {cell: colour}}`.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stones = PyDict::new(py);
        for cell in 0..self.game.num_cells() {
            if let Some(color) = self.game.stone_at(cell) {
                let name = self.game.cell_name(cell);
                stones.set_item(name, <territory::Toy as Game>::COLOR_NAMES[color.index()])?;
            }
        }
        let board = PyDict::new(py);
        board.set_item("stones", stones)?;
        Ok(board)
    }
}
