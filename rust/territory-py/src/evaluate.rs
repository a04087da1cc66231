//! Per-game traces for the design metrics (`territory.evaluate`): random games or
//! matches between native agents played and measured in one pass, or given games
//! (lists of actions) replayed and measured. Games run on the engine's run loop, GIL
//! released, interruptible by Ctrl-C ([`crate::interrupt`]).

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::bulk::metrics::{self, GameTrace, TraceError};

use crate::interrupt::interruptible;
use crate::playouts::{check_threads, run_error, with_native_game};
use crate::search::{agent, check_agents_fit, long_match};

/// Plays and traces random games `first .. first + count` of the run seeded with `seed`
/// from `state` (the games of `run_playouts` with the same arguments). Returns a dict of
/// numpy arrays, one entry per game, named like the fields of the engine's `GameTrace`.
#[pyfunction]
#[pyo3(signature = (state, seed, first, count, threads = None))]
fn trace_random<'py>(
    state: &Bound<'py, PyAny>,
    seed: u64,
    first: u64,
    count: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let py = state.py();
    let mut traces = vec![GameTrace::default(); count];
    with_native_game!(state, |_Class, start| interruptible(
        py,
        count >= 256,
        |stop| { metrics::run_random(&start, seed, first, &mut traces, threads, stop) }
    )?
    .map_err(|e| run_error(e, threads)))?;
    to_dict(py, &traces)
}

/// Plays and traces games `first .. first + count` of the match between two native
/// agents seeded with `seed` from `state` (the games of `run_match` with the same
/// arguments), each move measured as it is played. Returns the dict of `trace_random`.
#[pyfunction]
#[pyo3(signature = (state, agents, seed, first, count, swap_seats, threads = None))]
#[allow(clippy::too_many_arguments)]
fn trace_match<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: u64,
    first: u64,
    count: usize,
    swap_seats: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let agents = [agent(&agents.0)?, agent(&agents.1)?];
    let mut traces = vec![GameTrace::default(); count];
    with_native_game!(state, |_Class, start| {
        check_agents_fit(&agents, &start)?;
        interruptible(py, long_match(&agents, count), |stop| {
            metrics::run_match(&start, &agents, seed, first, swap_seats, &mut traces, threads, stop)
        })?
        .map_err(|e| run_error(e, threads))
    })?;
    to_dict(py, &traces)
}

/// Traces the games `actions[offsets[g] .. offsets[g + 1]]` (action numbers), each
/// played from `state`. An action that is not legal raises ValueError naming the game
/// and the action's index.
#[pyfunction]
#[pyo3(signature = (state, actions, offsets, threads = None))]
fn trace_actions<'py>(
    state: &Bound<'py, PyAny>,
    actions: PyReadonlyArray1<'py, u32>,
    offsets: PyReadonlyArray1<'py, u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let py = state.py();
    let actions = actions.as_slice()?.to_vec();
    let offsets: Vec<usize> = offsets.as_slice()?.iter().map(|&o| o as usize).collect();
    if offsets.first().is_some_and(|&o| o != 0)
        || offsets.windows(2).any(|w| w[0] > w[1])
        || offsets.last().is_some_and(|&o| o != actions.len())
    {
        return Err(PyValueError::new_err(
            "offsets must rise from 0 to the number of actions",
        ));
    }
    let traces = with_native_game!(state, |_Class, start| interruptible(
        py,
        offsets.len() > 256,
        |stop| { metrics::run_actions(&start, &actions, &offsets, threads, stop) }
    )?
    .map_err(|e| match e {
        TraceError::Run(e) => run_error(e, threads),
        e => PyValueError::new_err(e.to_string()),
    }))?;
    to_dict(py, &traces)
}

fn to_dict<'py>(py: Python<'py>, traces: &[GameTrace]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    macro_rules! field {
        ($name:ident) => {
            dict.set_item(
                stringify!($name),
                PyArray1::from_iter(py, traces.iter().map(|t| t.$name)),
            )?;
        };
    }
    field!(winner);
    field!(moves);
    field!(turns);
    field!(passes);
    field!(swapped);
    field!(branching_sum);
    field!(branching_sq_sum);
    field!(branching_max);
    field!(decisions);
    field!(lead_changes);
    field!(lead_sum);
    field!(lead_sq_sum);
    field!(drama_sum);
    field!(drama_max);
    field!(decisive_at);
    field!(final_lead);
    let scores =
        PyArray1::from_iter(py, traces.iter().flat_map(|t| t.scores)).reshape([traces.len(), 2])?;
    dict.set_item("scores", scores)?;
    Ok(dict)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trace_random, m)?)?;
    m.add_function(wrap_pyfunction!(trace_actions, m)?)?;
    m.add_function(wrap_pyfunction!(trace_match, m)?)?;
    Ok(())
}
