//! Bindings of the engine's search: position keys, UCT analysis, the exact solver and
//! matches between native agents. The GIL is released while the engine works; UCT and
//! matches are interruptible by Ctrl-C ([`crate::interrupt`]).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::bulk::matches::{self, Agent, MatchGame};
use territory::rules::run::Stop;
use territory::search::{self, Progress, SolveError, SolveLimits, SolveProgress, UctConfig, Watch, MAX_ITERATIONS};
use territory::Game;

use crate::interrupt::{interruptible, interruptible_with, stopped, PyStop, Tick};
use crate::playouts::{run_error, with_native_game, MAX_THREADS};

pyo3::import_exception!(territory.errors, NodeLimitError);
pyo3::import_exception!(territory.errors, TimeLimitError);

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
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        return Err(PyValueError::new_err(format!(
            "iterations must be from 1 to {MAX_ITERATIONS} (MAX_UCT_ITERATIONS), got {iterations}"
        )));
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
/// Raises `StoppedError` once `stop` is set; setting `finish` ends the search at once with
/// the statistics it has; `progress(iterations, best, value)` is called about every
/// [`SEARCH_PROGRESS_EVERY`] while a long search runs.
#[pyfunction]
#[pyo3(signature = (state, iterations, c, seed, threads, stop = None, finish = None, progress = None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn uct_analyse(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    iterations: u64,
    c: f64,
    seed: u64,
    threads: usize,
    stop: Option<PyRef<'_, PyStop>>,
    finish: Option<PyRef<'_, PyStop>>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<(Vec<String>, Vec<u64>, Vec<f64>, f64)> {
    let config = uct_config(iterations, c, seed, threads)?;
    let own = Stop::new();
    let flag = stop.as_deref().map_or(&own, PyStop::flag);
    with_native_game!(state, |_Class, game| {
        running(&game)?;
        let long = iterations >= 1_000;
        let figures = Progress::default();
        let mut report = progress_reporter(&game, &figures, progress.as_ref());
        let tick = Tick { every: SEARCH_PROGRESS_EVERY, on_tick: &mut report };
        let watch = watch(finish.as_deref(), progress.as_ref().map(|_| &figures));
        let a = interruptible_with(py, long, flag, Some(tick), |stop| {
            search::analyse_watched(&game, &config, stop, watch)
        })?
        .map_err(|_| stopped())?;
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

/// How often a UCT or PUCT search calls its `progress`.
pub(crate) const SEARCH_PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// A search's [`Watch`]: `finish`'s flag (none: never set), `figures` if kept.
pub(crate) fn watch<'a>(finish: Option<&'a PyStop>, figures: Option<&'a Progress>) -> Watch<'a> {
    Watch { finish: finish.map_or(Watch::NONE.finish, PyStop::flag), progress: figures }
}

/// The tick calling `callback(simulations, best move or None, value)` with `figures`.
pub(crate) fn progress_reporter<'a, 'py: 'a, G: Game>(
    game: &'a G,
    figures: &'a Progress,
    callback: Option<&'a Bound<'py, PyAny>>,
) -> impl FnMut(Python<'_>) -> PyResult<()> + 'a {
    move |_| match callback {
        Some(callback) => {
            let (done, best, value) = figures.read();
            let best = best.and_then(|a| game.move_of(a)).map(|m| game.move_text(m).to_string());
            callback.call1((done, best, value)).map(drop)
        }
        None => Ok(()),
    }
}

/// How often `solve` calls its `progress`.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Solves `state`: (value, best moves, [(move, value)], nodes, table bytes). Stops with
/// `NodeLimitError` or `TimeLimitError` (args: message, nodes, table bytes, seconds)
/// and on Ctrl-C, with `StoppedError` once `stop` is set; calls `progress(nodes,
/// table_bytes, seconds)` about once a second. With `order` (a network reading the
/// game's positions), the moves of positions less than `order_depth` moves deep are
/// tried in the order of its logits (before the table's move and the killers).
#[pyfunction]
#[pyo3(signature = (state, max_nodes = None, memory = None, time_limit = None, progress = None, stop = None,
                    order = None, order_depth = 6))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    max_nodes: Option<u64>,
    memory: Option<u64>,
    time_limit: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
    stop: Option<PyRef<'_, PyStop>>,
    order: Option<PyRef<'_, crate::network::PyNetwork>>,
    order_depth: usize,
) -> PyResult<(i8, Vec<String>, Vec<(String, i8)>, u64, u64)> {
    let time_limit = match time_limit {
        Some(t) if t.is_finite() && t > 0.0 && t < 1e12 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "time_limit must be a number of seconds > 0, or None for no limit, got {t}"
            )))
        }
        None => None,
    };
    let figures = SolveProgress::default();
    let began = Instant::now();
    let searched = || {
        (
            figures.nodes.load(Ordering::Relaxed),
            figures.table_bytes.load(Ordering::Relaxed),
            began.elapsed().as_secs_f64(),
        )
    };
    with_native_game!(state, |_Class, game| {
        if let Some(network) = &order {
            crate::network::check_reads(&network.inner, &game)?;
        }
        let own = Stop::new();
        let mut report = |_: Python<'_>| match &progress {
            Some(callback) => callback.call1(searched()).map(drop),
            None => Ok(()),
        };
        let tick = Tick {
            every: PROGRESS_EVERY,
            on_tick: &mut report,
        };
        let flag = stop.as_deref().map_or(&own, PyStop::flag);
        let order = order.as_deref().map(|n| (&*n.inner, order_depth));
        let result = interruptible_with(py, true, flag, Some(tick), |stop| {
            let limits = SolveLimits {
                max_nodes,
                time_limit,
                memory: memory.unwrap_or(search::solve::DEFAULT_MEMORY),
                cancel: Some(stop.flag()),
                progress: Some(&figures),
            };
            solve_in_order(&game, &limits, order)
        })?;
        match result {
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
                s.table_bytes,
            )),
            Err(e @ SolveError::NodeLimit(_)) => {
                let (nodes, bytes, seconds) = searched();
                Err(NodeLimitError::new_err((
                    e.to_string(),
                    nodes,
                    bytes,
                    seconds,
                )))
            }
            Err(e @ SolveError::TimeLimit(_)) => {
                let (nodes, bytes, seconds) = searched();
                Err(TimeLimitError::new_err((
                    e.to_string(),
                    nodes,
                    bytes,
                    seconds,
                )))
            }
            // A signal or the progress callback returned their error above: `stop` was set.
            Err(SolveError::Cancelled) => Err(stopped()),
            Err(e @ SolveError::GameOver) => Err(PyValueError::new_err(e.to_string())),
        }
    })
}

/// [`search::solve_with`], or with the moves of shallow positions ordered by a network.
fn solve_in_order<G: search::Symmetric + territory::Learn>(
    game: &G,
    limits: &SolveLimits<'_>,
    order: Option<(&search::Network, usize)>,
) -> Result<search::Solution<G::Move>, SolveError> {
    match order {
        None => search::solve_with(game, limits),
        Some((network, depth)) => search::solve_ordered(game, limits, depth, &mut search::prior_order::<G>(network)),
    }
}

/// Whether `count` games between `agents` may take long (see [`interruptible`]).
pub(crate) fn long_match(agents: &[Agent; 2], count: usize) -> bool {
    count >= 64 || agents.iter().any(|a| !matches!(a, Agent::Random))
}

/// An agent from its description: ("random",), ("uct", iterations, c, seed, threads) or
/// ("puct", network, iterations, c_puct, seed, rollout_weight, expansion_visits,
/// noise_fraction, noise_alpha, policy_temperature): Dirichlet noise at each root, 0 for
/// none.
pub(crate) fn agent(spec: &Bound<'_, PyAny>) -> PyResult<Agent> {
    let kind: String = spec.get_item(0)?.extract()?;
    match kind.as_str() {
        "random" => Ok(Agent::Random),
        "uct" => {
            let (_, iterations, c, seed, threads): (String, u64, f64, u64, usize) =
                spec.extract()?;
            Ok(Agent::Uct(uct_config(iterations, c, seed, threads)?))
        }
        "puct" => {
            #[allow(clippy::type_complexity)]
            let (
                _,
                network,
                iterations,
                c_puct,
                seed,
                rollout_weight,
                expansion_visits,
                noise_fraction,
                noise_alpha,
                policy_temperature,
            ): (String, PyRef<'_, crate::network::PyNetwork>, u32, f32, u64, f32, u32, f32, f32, f32) =
                spec.extract()?;
            Ok(Agent::Puct(crate::network::guided(
                &network,
                iterations,
                c_puct,
                seed,
                rollout_weight,
                expansion_visits,
                noise_fraction,
                noise_alpha,
                policy_temperature,
            )?))
        }
        _ => Err(PyValueError::new_err(format!(
            "unknown native agent kind {kind:?}"
        ))),
    }
}

/// An error unless every PUCT agent's network reads the positions of `start`'s game
/// (a match would otherwise stop on the engine's assertion).
pub(crate) fn check_agents_fit<G: territory::Learn>(agents: &[Agent], start: &G) -> PyResult<()> {
    for agent in agents {
        if let Agent::Puct(guided) = agent {
            crate::network::check_reads(&guided.network, start)?;
        }
    }
    Ok(())
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
    with_native_game!(state, |_Class, start| {
        check_agents_fit(&agents, &start)?;
        let mut out = vec![MatchGame::default(); count];
        if !record_actions {
            interruptible(py, long_match(&agents, count), |stop| {
                matches::run(
                    &start, &agents, seed, first, swap_seats, &mut out, threads, stop,
                )
            })?
            .map_err(|e| run_error(e, threads))?;
            return match_arrays(py, &out);
        }
        let (actions, offsets) = interruptible(py, long_match(&agents, count), |stop| {
            matches::run_recorded(
                &start, &agents, seed, first, swap_seats, &mut out, threads, stop,
            )
        })?
        .map_err(|e| run_error(e, threads))?;
        let dict = match_arrays(py, &out)?;
        dict.set_item("actions", PyArray1::from_vec(py, actions))?;
        dict.set_item("offsets", PyArray1::from_vec(py, offsets))?;
        Ok(dict)
    })
}

/// The action `agent` chooses in each of `states` (running games of one class and
/// configuration), one search after the other as a match runs them, with no Python in
/// between: timing this call times the engine's searches alone
/// (`territory.train.equal_time_uct_iterations`). The search of state `i` is seeded
/// from `(seed, i)` as a match's game `i` is.
#[pyfunction]
#[pyo3(signature = (states, agent, seed = 0))]
fn choose_actions(py: Python<'_>, states: Vec<Bound<'_, PyAny>>, agent: &Bound<'_, PyAny>, seed: u64) -> PyResult<Vec<usize>> {
    let agent = self::agent(agent)?;
    if states.is_empty() {
        return Ok(Vec::new());
    }
    fn choose_all<G: territory::Learn>(py: Python<'_>, games: &[G], agent: &Agent, seed: u64) -> PyResult<Vec<usize>> {
        check_agents_fit(std::slice::from_ref(agent), &games[0])?;
        interruptible(py, true, |stop| {
            games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let mut rng = territory::rules::playout::game_rng(seed, i as u64);
                    let mv = agent.choose(g, &mut rng, stop)?;
                    Ok(g.action_of(mv).expect("a chosen move has an action"))
                })
                .collect::<Result<Vec<usize>, territory::rules::run::Interrupted>>()
        })?
        .map_err(|_| stopped())
    }
    for &kind in territory::GameKind::ALL {
        let chosen = territory::with_game!(kind, G => crate::puct::roots::<G>(&states)?
            .map(|games| choose_all(py, &games, &agent, seed)));
        if let Some(chosen) = chosen {
            return chosen;
        }
    }
    Err(crate::playouts::not_a_game(&states[0]))
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
    m.add("MAX_UCT_ITERATIONS", MAX_ITERATIONS)?;
    m.add_function(wrap_pyfunction!(uct_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(run_match, m)?)?;
    m.add_function(wrap_pyfunction!(choose_actions, m)?)?;
    Ok(())
}
