//! The Python class `territory.Nume`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::Game;

use crate::params;

crate::native_class! {
    /// A game of Nume (docs/RULES.md).
    /// `Nume(n=4, square=None, komi=0.5, komi_to="black", komi_phase=False)`.
    Nume
}

#[pymethods]
impl Nume {
    #[new]
    #[pyo3(text_signature = "(n=4, square=None, komi=0.5, komi_to=\"black\", komi_phase=False)")]
    #[pyo3(signature = (
        n = params::unset(),
        square = params::unset(),
        komi = params::unset(),
        komi_to = params::unset(),
        komi_phase = params::unset(),
    ))]
    fn new(
        py: Python<'_>,
        n: Py<PyAny>,
        square: Py<PyAny>,
        komi: Py<PyAny>,
        komi_to: Py<PyAny>,
        komi_phase: Py<PyAny>,
    ) -> PyResult<Self> {
        Nume::from_config(params::config([
            n.bind(py),
            square.bind(py),
            komi.bind(py),
            komi_to.bind(py),
            komi_phase.bind(py),
        ])?)
    }

    /// The komi in force as (value, colour), or None (no komi, or not chosen yet).
    #[getter]
    fn komi(&self) -> Option<(f64, &'static str)> {
        self.game
            .komi()
            .map(|(k, to)| (k as f64 + 0.5, <territory::Nume as Game>::COLOR_NAMES[to.index()]))
    }

    /// The position: `{"stones": {cell: (colour, number or None)}}`.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stones = PyDict::new(py);
        for cell in 0..self.game.num_cells() {
            if let Some((color, number)) = self.game.stone_at(cell) {
                stones.set_item(
                    self.game.cell_name(cell),
                    (<territory::Nume as Game>::COLOR_NAMES[color.index()], number),
                )?;
            }
        }
        let board = PyDict::new(py);
        board.set_item("stones", stones)?;
        Ok(board)
    }
}
