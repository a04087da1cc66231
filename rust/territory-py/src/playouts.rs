//! Bulk random playouts and the replay of one of them, for any game's start state.
//! Games run on the engine's run loop, GIL released, interruptible by Ctrl-C
//! ([`crate::interrupt`]); the Python caller splits long runs into batches for its
//! progress reports.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::rules::playout::{self, PlayoutResult};
use territory::rules::run::RunError;
use territory::Game;

use territory::GameKind;

use crate::game_class::Native;
use crate::interrupt::interruptible;

/// The Python exception of a bulk call that did not finish. An interrupted call never
/// gets here ([`interruptible`] returns the signal's exception instead) unless it was
/// stopped some other way.
pub fn run_error(error: RunError, threads: Option<usize>) -> PyErr {
    match error {
        RunError::Threads(e) => {
            PyRuntimeError::new_err(format!("cannot start {threads:?} threads: {e}"))
        }
        RunError::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
    }
}

/// More threads than this is a mistake, not a machine.
pub const MAX_THREADS: usize = 1024;

/// Checks an optional `threads` argument: `None` (every core) or 1 to [`MAX_THREADS`].
pub fn check_threads(threads: Option<usize>) -> PyResult<()> {
    match threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
        Some(t) => Err(PyValueError::new_err(format!(
            "threads must be None (every core) or from 1 to {MAX_THREADS}, got {t}"
        ))),
        None => Ok(()),
    }
}

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
    check_threads(threads)?;
    with_native_game!(state, |_Class, start| run(
        state.py(),
        &start,
        seed,
        first,
        count,
        threads
    ))
}

/// Evaluates `$body` with `$start` a copy of the engine game inside `$state` and
/// `$class` its Python class, for whichever native class `$state` is (every game of the
/// registry, `territory::GameKind::ALL`).
macro_rules! with_native_game {
    ($state:expr, |$class:ident, $start:ident| $body:expr) => {{
        let mut result = None;
        for &kind in territory::GameKind::ALL {
            result = territory::with_game!(kind, G => match $state.cast::<<G as $crate::game_class::Native>::Class>() {
                Ok(s) => {
                    #[allow(non_camel_case_types, unused)]
                    type $class = <G as $crate::game_class::Native>::Class;
                    let $start: G = <G as $crate::game_class::Native>::unwrap(&s.borrow()).clone();
                    Some($body)
                }
                Err(_) => None,
            });
            if result.is_some() {
                break;
            }
        }
        result.unwrap_or_else(|| Err($crate::playouts::not_a_game($state)))
    }};
}
pub(crate) use with_native_game;

pub(crate) fn not_a_game(state: &Bound<'_, PyAny>) -> PyErr {
    let classes: Vec<String> = GameKind::ALL
        .iter()
        .map(|&kind| {
            territory::with_game!(kind, G => {
                state
                    .py()
                    .get_type::<<G as crate::game_class::Native>::Class>()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            })
        })
        .collect();
    PyTypeError::new_err(format!(
        "expected a native game state (territory.{}), got {}",
        classes.join(", territory."),
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
    interruptible(py, count >= 256, |stop| {
        playout::run(start, seed, first, &mut results, threads, stop)
    })?
    .map_err(|e| run_error(e, threads))?;
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
    let scores =
        PyArray1::from_iter(py, results.iter().flat_map(|r| r.scores)).reshape([count, 2])?;
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
    with_native_game!(state, |Class, start| {
        let game = playout::replay(&start, seed, index);
        Ok(Bound::new(state.py(), Native::wrap(game))?.into_any())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add_function(wrap_pyfunction!(run_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(replay_playout, m)?)?;
    Ok(())
}
