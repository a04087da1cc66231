//! The Python class `territory.Nume`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::nume::{MAX_KOMI, MAX_N, MAX_SQUARE};
use territory::{Color, Game, Nume, NumeConfig, Seat};

use crate::params;

/// A game of Nume (docs/RULES.md).
/// `Nume(n=4, square=None, komi=0.5, komi_to="black", komi_phase=False)`.
#[pyclass(module = "territory", name = "Nume")]
pub struct PyNume {
    pub game: Nume,
    pub names: std::sync::Arc<crate::game_class::MoveNames>,
}

crate::game_class!(PyNume, Nume);
crate::learn_methods!(PyNume, Nume);

#[pymethods]
impl PyNume {
    #[new]
    #[pyo3(text_signature = "(n=4, square=None, komi=0.5, komi_to=\"black\", komi_phase=False)")]
    #[pyo3(signature = (
        n = params::default(4),
        square = params::default(None::<usize>),
        komi = params::default(0.5),
        komi_to = params::default("black"),
        komi_phase = params::default(false),
    ))]
    fn new(
        py: Python<'_>,
        n: Py<PyAny>,
        square: Py<PyAny>,
        komi: Py<PyAny>,
        komi_to: Py<PyAny>,
        komi_phase: Py<PyAny>,
    ) -> PyResult<Self> {
        let n = params::int_in(n.bind(py), "n", 1, MAX_N as i64)?;
        let square = square.bind(py);
        let square = if square.is_none() {
            None
        } else {
            Some(
                params::int_in(square, "square", 2, MAX_SQUARE as i64).map_err(|_| {
                    pyo3::exceptions::PyValueError::new_err(format!(
                        "square must be None or an int from 2 to {MAX_SQUARE}, got {}",
                        crate::game_class::short_repr(square)
                    ))
                })?,
            )
        };
        let komi = params::half_point(komi.bind(py), "komi", MAX_KOMI)?;
        let komi_to = match params::choice(komi_to.bind(py), "komi_to", &["black", "white"])? {
            "black" => Color::First,
            _ => Color::Second,
        };
        let komi_phase = params::boolean(komi_phase.bind(py), "komi_phase")?;
        let config = NumeConfig {
            n,
            square,
            komi: komi.map(|v| (v - 0.5) as u64),
            komi_to,
            komi_phase,
        };
        PyNume::from_config(config)
    }

    /// The parameters, as keyword arguments of the constructor.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let config = self.game.config();
        let dict = PyDict::new(py);
        dict.set_item("n", config.n)?;
        dict.set_item("square", config.square)?;
        dict.set_item("komi", config.komi.map(|k| k as f64 + 0.5))?;
        dict.set_item(
            "komi_to",
            <Nume as Game>::COLOR_NAMES[config.komi_to.index()],
        )?;
        dict.set_item("komi_phase", config.komi_phase)?;
        Ok(dict)
    }

    /// The komi in force as (value, colour), or None (no komi, or not chosen yet).
    #[getter]
    fn komi(&self) -> Option<(f64, &'static str)> {
        self.game
            .komi()
            .map(|(k, to)| (k as f64 + 0.5, <Nume as Game>::COLOR_NAMES[to.index()]))
    }

    /// The position: `{"stones": {cell: (colour, number or None)}}`.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stones = PyDict::new(py);
        for cell in 0..self.game.num_cells() {
            if let Some((color, number)) = self.game.stone_at(cell) {
                stones.set_item(
                    self.game.cell_name(cell),
                    (<Nume as Game>::COLOR_NAMES[color.index()], number),
                )?;
            }
        }
        let board = PyDict::new(py);
        board.set_item("stones", stones)?;
        Ok(board)
    }
}
