//! Bindings of the engine's search: position keys, UCT analysis, the exact solver and
//! matches between native agents. The GIL is released while the engine works.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::bulk::matches::{self, Agent, MatchGame};
use territory::search::{self, SolveError, UctConfig};
use territory::Game;

use crate::playouts::{with_native_game, MAX_THREADS};

pyo3::import_exception!(territory.agents, NodeLimitError);

/// Checks a required `threads` argument (a search runs on at least one thread).
fn check_search_threads(threads: usize) -> PyResult<()> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "threads must be an int from 1 to {MAX_THREADS}, got {threads}"
        )))
    }
}

fn uct_config(iterations: u64, c: f64, seed: u64, threads: usize) -> PyResult<UctConfig> {
    check_search_threads(threads)?;
    if iterations == 0 {
        return Err(PyValueError::new_err("iterations must be at least 1"));
    }
    if !(c.is_finite() && c >= 0.0) {
        return Err(PyValueError::new_err(format!(
            "c must be a finite number >= 0, got {c}"
        )));
    }
    Ok(UctConfig {
        iterations,
        c,
        seed,
        threads,
    })
}

fn running<G: Game>(game: &G) -> PyResult<()> {
    if game.is_over() {
        Err(PyValueError::new_err(
            "the game is over: there is no move to choose",
        ))
    } else {
        Ok(())
    }
}

/// UCT from `state`: (moves, visits, values, value), per legal move in legal-move order.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn uct_analyse(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    iterations: u64,
    c: f64,
    seed: u64,
    threads: usize,
) -> PyResult<(Vec<String>, Vec<u64>, Vec<f64>, f64)> {
    let config = uct_config(iterations, c, seed, threads)?;
    with_native_game!(state, |_Class, game| {
        running(&game)?;
        let a = py.detach(|| search::analyse(&game, &config));
        Ok((
            a.moves
                .iter()
                .map(|&m| game.move_text(m).to_string())
                .collect(),
            a.visits,
            a.values,
            a.value,
        ))
    })
}

/// Solves `state`: (value, best moves, [(move, value)], nodes).
#[pyfunction]
#[pyo3(signature = (state, max_nodes = None))]
#[allow(clippy::type_complexity)]
fn solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    max_nodes: Option<u64>,
) -> PyResult<(i8, Vec<String>, Vec<(String, i8)>, u64)> {
    with_native_game!(state, |_Class, game| {
        match py.detach(|| search::solve(&game, max_nodes)) {
            Ok(s) => Ok((
                s.value,
                s.best_moves
                    .iter()
                    .map(|&m| game.move_text(m).to_string())
                    .collect(),
                s.move_values
                    .iter()
                    .map(|&(m, v)| (game.move_text(m).to_string(), v))
                    .collect(),
                s.nodes,
            )),
            Err(e @ SolveError::NodeLimit(_)) => Err(NodeLimitError::new_err(e.to_string())),
            Err(e @ SolveError::GameOver) => Err(PyValueError::new_err(e.to_string())),
        }
    })
}

/// An agent from its description: ("random",) or ("uct", iterations, c, seed, threads).
fn agent(spec: &Bound<'_, PyAny>) -> PyResult<Agent> {
    let kind: String = spec.get_item(0)?.extract()?;
    match kind.as_str() {
        "random" => Ok(Agent::Random),
        "uct" => {
            let (_, iterations, c, seed, threads): (String, u64, f64, u64, usize) =
                spec.extract()?;
            Ok(Agent::Uct(uct_config(iterations, c, seed, threads)?))
        }
        _ => Err(PyValueError::new_err(format!(
            "unknown native agent kind {kind:?}"
        ))),
    }
}

/// Plays games `first .. first + count` of the match seeded with `seed` between two
/// native agents, on `threads` threads (None: all cores). Returns a dict of numpy
/// arrays as `run_playouts` does, plus `agent_winner` (int8: 0, 1, or -1 for a draw)
/// and `seats_swapped` (bool: agent 0 sat in seat 1). With `record_actions`, also
/// `actions` (uint32: every game's action numbers, one game after the other) and
/// `offsets` (uint64, `count + 1` entries: game `i`'s actions are
/// `actions[offsets[i]..offsets[i + 1]]`).
#[pyfunction]
#[pyo3(signature = (state, agents, seed, first, count, swap_seats, threads = None, record_actions = false))]
#[allow(clippy::too_many_arguments)]
fn run_match<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: u64,
    first: u64,
    count: usize,
    swap_seats: bool,
    threads: Option<usize>,
    record_actions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    crate::playouts::check_threads(threads)?;
    let agents = [agent(&agents.0)?, agent(&agents.1)?];
    let pool_error = |e| PyRuntimeError::new_err(format!("cannot start {threads:?} threads: {e}"));
    with_native_game!(state, |_Class, start| {
        let mut out = vec![MatchGame::default(); count];
        if !record_actions {
            py.detach(|| matches::run(&start, &agents, seed, first, swap_seats, &mut out, threads))
                .map_err(pool_error)?;
            return match_arrays(py, &out);
        }
        let (actions, offsets) = py
            .detach(|| {
                matches::run_recorded(&start, &agents, seed, first, swap_seats, &mut out, threads)
            })
            .map_err(pool_error)?;
        let dict = match_arrays(py, &out)?;
        dict.set_item("actions", PyArray1::from_vec(py, actions))?;
        dict.set_item("offsets", PyArray1::from_vec(py, offsets))?;
        Ok(dict)
    })
}

fn match_arrays<'py>(py: Python<'py>, out: &[MatchGame]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let r = |f: fn(&MatchGame) -> i8| PyArray1::from_iter(py, out.iter().map(f));
    dict.set_item("winner", r(|g| g.result.winner))?;
    dict.set_item("agent_winner", r(|g| g.agent_winner))?;
    dict.set_item(
        "length",
        PyArray1::from_iter(py, out.iter().map(|g| g.result.length)),
    )?;
    dict.set_item(
        "passes",
        PyArray1::from_iter(py, out.iter().map(|g| g.result.passes)),
    )?;
    dict.set_item(
        "swapped",
        PyArray1::from_iter(py, out.iter().map(|g| g.result.swapped)),
    )?;
    dict.set_item(
        "seats_swapped",
        PyArray1::from_iter(py, out.iter().map(|g| g.seats_swapped)),
    )?;
    let scores = PyArray1::from_iter(py, out.iter().flat_map(|g| g.result.scores))
        .reshape([out.len(), 2])?;
    dict.set_item("scores", scores)?;
    Ok(dict)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(uct_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(run_match, m)?)?;
    Ok(())
}
