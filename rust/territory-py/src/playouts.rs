//! Bulk random playouts and the replay of one of them, for any game's start state.
//! The GIL is released while games run; the Python caller splits long runs into
//! batches, so Ctrl-C and progress reports come between batches.

use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::playout::{self, PlayoutResult};
use territory::Game;

use crate::migong::PyMigong;
use crate::nume::PyNume;
use crate::tabik::PyTabik;

/// More threads than this is a mistake, not a machine.
pub const MAX_THREADS: usize = 1024;

/// Plays games `first .. first + count` of the run seeded with `seed`, each from `state`,
/// on `threads` threads (None: all cores). Returns a dict of numpy arrays: `winner`
/// (int8, -1 for a draw), `length` and `passes` (uint32), `swapped` (bool) and `scores`
/// (float64, shape (count, 2)).
#[pyfunction]
#[pyo3(signature = (state, seed, first, count, threads = None))]
fn run_playouts<'py>(
    state: &Bound<'py, PyAny>,
    seed: u64,
    first: u64,
    count: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    if let Some(t) = threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
        return Err(PyValueError::new_err(format!(
            "threads must be None (every core) or from 1 to {MAX_THREADS}, got {t}"
        )));
    }
    let py = state.py();
    if let Ok(s) = state.cast::<PyTabik>() {
        let start = s.borrow().game.clone();
        return run(py, &start, seed, first, count, threads);
    }
    if let Ok(s) = state.cast::<PyMigong>() {
        let start = s.borrow().game.clone();
        return run(py, &start, seed, first, count, threads);
    }
    if let Ok(s) = state.cast::<PyNume>() {
        let start = s.borrow().game.clone();
        return run(py, &start, seed, first, count, threads);
    }
    Err(not_a_game(state))
}

fn not_a_game(state: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "expected a native game state (territory.Migong, Nume or Tabik), got {}",
        state
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    ))
}

fn run<'py, G: Game>(
    py: Python<'py>,
    start: &G,
    seed: u64,
    first: u64,
    count: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut results = vec![PlayoutResult::default(); count];
    py.detach(|| playout::run(start, seed, first, &mut results, threads))
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!(
                "cannot start {threads:?} threads: {e}"
            ))
        })?;
    let dict = PyDict::new(py);
    dict.set_item(
        "winner",
        PyArray1::from_iter(py, results.iter().map(|r| r.winner)),
    )?;
    dict.set_item(
        "length",
        PyArray1::from_iter(py, results.iter().map(|r| r.length)),
    )?;
    dict.set_item(
        "passes",
        PyArray1::from_iter(py, results.iter().map(|r| r.passes)),
    )?;
    dict.set_item(
        "swapped",
        PyArray1::from_iter(py, results.iter().map(|r| r.swapped)),
    )?;
    let scores: Vec<Vec<f64>> = results.iter().map(|r| r.scores.to_vec()).collect();
    let scores = if scores.is_empty() {
        PyArray2::zeros(py, [0, 2], false)
    } else {
        PyArray2::from_vec2(py, &scores).map_err(|e| PyValueError::new_err(e.to_string()))?
    };
    dict.set_item("scores", scores)?;
    Ok(dict)
}

/// Game `index` of the run seeded with `seed`, played from `state`: a new state of the
/// same class holding the finished game.
#[pyfunction]
fn replay_playout<'py>(
    state: &Bound<'py, PyAny>,
    seed: u64,
    index: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let py = state.py();
    if let Ok(s) = state.cast::<PyTabik>() {
        let game = playout::replay(&s.borrow().game, seed, index);
        return Ok(Bound::new(py, PyTabik::from_game(game))?.into_any());
    }
    if let Ok(s) = state.cast::<PyMigong>() {
        let game = playout::replay(&s.borrow().game, seed, index);
        return Ok(Bound::new(py, PyMigong::from_game(game))?.into_any());
    }
    if let Ok(s) = state.cast::<PyNume>() {
        let game = playout::replay(&s.borrow().game, seed, index);
        return Ok(Bound::new(py, PyNume::from_game(game))?.into_any());
    }
    Err(not_a_game(state))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add_function(wrap_pyfunction!(run_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(replay_playout, m)?)?;
    Ok(())
}
