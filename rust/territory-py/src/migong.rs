//! The Python class `territory.Migong`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use territory::migong::{Piece, BORDER_EDGES};
use territory::{Color, Game, Migong, MigongConfig, Seat};

use crate::params;

/// A game of Migong (docs/RULES.md).
/// `Migong(pie=True, border="alternate", group_size="extent")`.
#[pyclass(module = "territory", name = "Migong")]
pub struct PyMigong {
    pub game: Migong,
    pub names: std::sync::Arc<crate::game_class::MoveNames>,
}

crate::game_class!(PyMigong, Migong);
crate::learn_methods!(PyMigong, Migong);

/// A `border` or `group_size` parameter: a string read by the engine, which also gives
/// the message for a bad one (a value that is not a string is read as "", never valid).
fn parse_text<T: std::str::FromStr<Err = territory::ConfigError>>(
    value: &Bound<'_, PyAny>,
) -> PyResult<T> {
    let text = match value.cast::<PyString>() {
        Ok(text) => text.to_cow()?.into_owned(),
        Err(_) => String::new(),
    };
    text.parse::<T>().map_err(|e| {
        PyValueError::new_err(format!("{e}, got {}", crate::game_class::short_repr(value)))
    })
}

#[pymethods]
impl PyMigong {
    #[new]
    #[pyo3(text_signature = "(pie=True, border=\"alternate\", group_size=\"extent\")")]
    #[pyo3(signature = (pie = params::default(true), border = params::default("alternate"), group_size = params::default("extent")))]
    fn new(
        py: Python<'_>,
        pie: Py<PyAny>,
        border: Py<PyAny>,
        group_size: Py<PyAny>,
    ) -> PyResult<Self> {
        let config = MigongConfig {
            pie: params::boolean(pie.bind(py), "pie")?,
            border: parse_text(border.bind(py))?,
            group_size: parse_text(group_size.bind(py))?,
        };
        PyMigong::from_config(config)
    }

    /// The parameters, as keyword arguments of the constructor.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let config = self.game.config();
        let dict = PyDict::new(py);
        dict.set_item("pie", config.pie)?;
        dict.set_item("border", config.border.to_string())?;
        dict.set_item("group_size", config.group_size.to_string())?;
        Ok(dict)
    }

    /// The pieces a colour ("blue" or "yellow") has not placed yet, as sorted strings.
    fn remaining(&self, color: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let color = match params::choice(color, "color", &["blue", "yellow"])? {
            "blue" => Color::First,
            _ => Color::Second,
        };
        let set = self.game.remaining(color);
        let mut pieces: Vec<String> = (0..64u8)
            .filter(|p| set >> p & 1 == 1)
            .map(|p| Piece(p).to_string())
            .collect();
        pieces.sort();
        Ok(pieces)
    }

    /// The colours ('B'/'Y') of the 84 border edges, in the order of docs/conventions.md.
    fn border_colors(&self) -> String {
        self.game
            .border_colors()
            .iter()
            .map(|c| if *c == Color::First { 'B' } else { 'Y' })
            .collect()
    }

    /// The 84 border edges as (cell name, direction 0..5), in the order of
    /// docs/conventions.md (the order of `border_colors()`).
    fn border_edges(&self) -> Vec<(String, usize)> {
        let mut edges = vec![(String::new(), 0); BORDER_EDGES];
        for cell in 0..self.game.num_cells() {
            for &(direction, index) in Migong::border_edges(cell) {
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
