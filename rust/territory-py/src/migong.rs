//! The Python class `territory.Migong`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use territory::migong::{Border, GroupSize, Piece, BORDER_EDGES};
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

fn parse_border(value: &Bound<'_, PyAny>) -> PyResult<Border> {
    let text = value
        .cast::<PyString>()
        .ok()
        .map(|s| s.to_cow().map(|c| c.into_owned()))
        .transpose()?;
    match text.as_deref() {
        Some("alternate") => Ok(Border::Alternate),
        Some("blue") => Ok(Border::AllBlue),
        Some("yellow") => Ok(Border::AllYellow),
        Some(s) if s.len() == BORDER_EDGES && s.bytes().all(|b| b == b'B' || b == b'Y') => {
            let mut colors = [Color::First; BORDER_EDGES];
            for (i, b) in s.bytes().enumerate() {
                colors[i] = if b == b'Y' { Color::Second } else { Color::First };
            }
            Ok(Border::Explicit(colors))
        }
        _ => Err(PyValueError::new_err(format!(
            "border must be 'alternate', 'blue', 'yellow' or a string of {BORDER_EDGES} letters B/Y \
             (one per border edge, in the order of docs/conventions.md), got {}",
            crate::game_class::short_repr(value)
        ))),
    }
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
            border: parse_border(border.bind(py))?,
            group_size: match params::choice(
                group_size.bind(py),
                "group_size",
                &["extent", "wedges"],
            )? {
                "extent" => GroupSize::Extent,
                _ => GroupSize::Wedges,
            },
        };
        let game = Migong::new(config).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyMigong::from_game(game))
    }

    /// The parameters, as keyword arguments of the constructor.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let config = self.game.config();
        let dict = PyDict::new(py);
        dict.set_item("pie", config.pie)?;
        let border = match config.border {
            Border::Alternate => "alternate".to_string(),
            Border::AllBlue => "blue".to_string(),
            Border::AllYellow => "yellow".to_string(),
            Border::Explicit(colors) => colors
                .iter()
                .map(|c| if *c == Color::First { 'B' } else { 'Y' })
                .collect(),
        };
        dict.set_item("border", border)?;
        dict.set_item(
            "group_size",
            if config.group_size == GroupSize::Extent {
                "extent"
            } else {
                "wedges"
            },
        )?;
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
