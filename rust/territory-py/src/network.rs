//! The Python class `territory._core.Network`: a trained policy and value network handed
//! to the engine (`territory::search::Network`), which then runs whole PUCT searches,
//! self-play games and matches without calling back into Python (docs/learning.md).

use std::sync::Arc;

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use territory::search::guided::{self_play_games, Buffers};
use territory::rules::run::Stop;
use territory::search::{Guided, Heads, Network, Progress, TrunkWeights, Weights};
use territory::{Game, Learn};

use crate::interrupt::{interruptible, interruptible_with, stopped, PyStop, Tick};
use crate::search::{progress_reporter, watch, SEARCH_PROGRESS_EVERY};
use crate::puct::{number, puct_config};
use crate::playouts::{run_error, with_native_game};

/// A policy and value network the engine evaluates by itself.
///
/// `Network(w1, b1, w2, b2, wp, bp, wv, bv, *, wm=None, bm=None, wo=None, bo=None,
/// trunk=None, board=None)`: float32 arrays in numpy's layout, as
/// `territory.model.Model.weights` holds them (`w1` of shape (inputs, hidden), `wp` of
/// shape (hidden, actions), `wv` of shape (hidden, 1)); the optional score-margin head
/// `wm` (hidden, 1), `bm` (1,) and ownership head `wo` (hidden, cells), `bo` (cells,).
/// With a convolutional trunk in front of the first layer, `trunk` is the list of its
/// convolutions' (weight, bias) pairs, `c0w`, `c0b` first: weights of shape (filters,
/// channels, 3, 3), biases (filters,), the first on the observation's planes, then two
/// a residual block; `board` is (height, width), and `w1` has a row for each of the
/// trunk's filters x height x width outputs, then one for each feature.
#[pyclass(module = "territory._core", name = "Network", frozen)]
pub struct PyNetwork {
    pub(crate) inner: Arc<Network>,
}

fn vector<'a>(name: &str, a: &'a PyReadonlyArray1<'_, f32>) -> PyResult<&'a [f32]> {
    a.as_slice().map_err(|_| PyValueError::new_err(format!("weight {name} must be a contiguous array")))
}

fn matrix<'a>(name: &str, a: &'a PyReadonlyArray2<'_, f32>) -> PyResult<(&'a [f32], [usize; 2])> {
    let shape = [a.shape()[0], a.shape()[1]];
    let values = a.as_slice().map_err(|_| PyValueError::new_err(format!("weight {name} must be a C-contiguous array")))?;
    Ok((values, shape))
}

/// The (weight, bias) slices of a trunk's convolutions, each weight of shape (filters,
/// channels, 3, 3) with the filters of the first and channels its own for the first, the
/// filters for the others; and the first's channels (the planes) and filters.
#[allow(clippy::type_complexity)]
fn trunk_convs<'a>(
    convs: &'a [(PyReadonlyArrayDyn<'_, f32>, PyReadonlyArray1<'_, f32>)],
) -> PyResult<(Vec<(&'a [f32], &'a [f32])>, usize, usize)> {
    let Some((first, _)) = convs.first() else {
        return Err(PyValueError::new_err("trunk needs at least its first convolution, c0w and c0b"));
    };
    let (filters, planes) = match first.shape() {
        &[filters, planes, 3, 3] => (filters, planes),
        shape => {
            return Err(PyValueError::new_err(format!(
                "weight c0w must be of shape (filters, planes, 3, 3), got shape {shape:?}"
            )))
        }
    };
    let mut slices = Vec::with_capacity(convs.len());
    for (k, (w, b)) in convs.iter().enumerate() {
        let channels = if k == 0 { planes } else { filters };
        if w.shape() != [filters, channels, 3, 3] {
            return Err(PyValueError::new_err(format!(
                "weight c{k}w has shape {:?}; a trunk of {filters} filters on {planes} planes needs \
                 ({filters}, {channels}, 3, 3)",
                w.shape()
            )));
        }
        let w = w.as_slice().map_err(|_| PyValueError::new_err(format!("weight c{k}w must be a C-contiguous array")))?;
        slices.push((w, vector(&format!("c{k}b"), b)?));
    }
    Ok((slices, planes, filters))
}

/// `iterations` from Python (any int: a negative one is refused by [`guided`]'s
/// message rather than by PyO3's "can't convert negative int to unsigned").
fn iteration_count(iterations: i64) -> PyResult<u32> {
    u32::try_from(iterations).ok().filter(|&n| n >= 1).ok_or_else(|| {
        PyValueError::new_err(format!(
            "iterations must be from 1 to {}, got {iterations}",
            territory::search::MAX_ITERATIONS
        ))
    })
}

/// A PUCT player with `network`; the arguments are checked.
#[allow(clippy::too_many_arguments)]
pub(crate) fn guided(
    network: &PyNetwork,
    iterations: u32,
    c_puct: f32,
    seed: u64,
    rollout_weight: f32,
    expansion_visits: u32,
    noise_fraction: f32,
    noise_alpha: f32,
    policy_temperature: f32,
) -> PyResult<Guided> {
    if !(1..=1_000_000).contains(&expansion_visits) {
        return Err(PyValueError::new_err(format!(
            "expansion_visits must be from 1 to 1000000, got {expansion_visits}"
        )));
    }
    if !(1..=territory::search::MAX_ITERATIONS as u32).contains(&iterations) {
        return Err(PyValueError::new_err(format!(
            "iterations must be from 1 to {}, got {iterations}",
            territory::search::MAX_ITERATIONS
        )));
    }
    Ok(Guided {
        network: network.inner.clone(),
        config: puct_config(iterations, c_puct, noise_alpha, noise_fraction, seed)?,
        rollout_weight: number("rollout_weight", rollout_weight, 0.0, 1.0)?,
        expansion_visits,
        policy_temperature: number("policy_temperature", policy_temperature, 0.01, 100.0)?,
    })
}

/// Whether `network` reads `game`'s features after its observation planes; an error
/// unless it reads the positions and gives the actions of `game`.
pub(crate) fn check_reads<G: Learn>(network: &Network, game: &G) -> PyResult<bool> {
    network.reads_features(game).ok_or_else(|| {
        PyValueError::new_err(format!(
            "the network reads {} input values and gives {} actions; this game has {} observation values \
             ({} with its features) and {} actions",
            network.inputs(),
            network.actions(),
            game.observation_len(),
            game.network_input_len(true),
            game.num_actions()
        ))
    })
}

/// [`check_reads`], and an error if `game` is over.
fn check_fits<G: Learn>(network: &Network, game: &G) -> PyResult<bool> {
    let features = check_reads(network, game)?;
    if game.is_over() {
        return Err(PyValueError::new_err("the game is over: a search needs a running game"));
    }
    Ok(features)
}

#[pymethods]
impl PyNetwork {
    #[new]
    #[pyo3(signature = (w1, b1, w2, b2, wp, bp, wv, bv, *, wm = None, bm = None, wo = None, bo = None,
                        trunk = None, board = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        w1: PyReadonlyArray2<'_, f32>,
        b1: PyReadonlyArray1<'_, f32>,
        w2: PyReadonlyArray2<'_, f32>,
        b2: PyReadonlyArray1<'_, f32>,
        wp: PyReadonlyArray2<'_, f32>,
        bp: PyReadonlyArray1<'_, f32>,
        wv: PyReadonlyArray2<'_, f32>,
        bv: PyReadonlyArray1<'_, f32>,
        wm: Option<PyReadonlyArray2<'_, f32>>,
        bm: Option<PyReadonlyArray1<'_, f32>>,
        wo: Option<PyReadonlyArray2<'_, f32>>,
        bo: Option<PyReadonlyArray1<'_, f32>>,
        trunk: Option<Vec<(PyReadonlyArrayDyn<'_, f32>, PyReadonlyArray1<'_, f32>)>>,
        board: Option<(i64, i64)>,
    ) -> PyResult<Self> {
        let (w1, [inputs, hidden]) = matrix("w1", &w1)?;
        let (w2, _) = matrix("w2", &w2)?;
        let (wp, [_, actions]) = matrix("wp", &wp)?;
        let (wv, _) = matrix("wv", &wv)?;
        let weights = Weights {
            w1,
            b1: vector("b1", &b1)?,
            w2,
            b2: vector("b2", &b2)?,
            wp,
            bp: vector("bp", &bp)?,
            wv,
            bv: vector("bv", &bv)?,
        };
        let bad = |e: territory::search::NetworkError| PyValueError::new_err(e.to_string());
        let pair = |w: &str, b: &str, given: (bool, bool)| match given {
            (true, false) | (false, true) => Err(PyValueError::new_err(format!("give both {w} and {b}, or neither"))),
            _ => Ok(()),
        };
        pair("wm", "bm", (wm.is_some(), bm.is_some()))?;
        pair("wo", "bo", (wo.is_some(), bo.is_some()))?;
        let (wm, wo) = (wm.as_ref().map(|a| matrix("wm", a)).transpose()?, wo.as_ref().map(|a| matrix("wo", a)).transpose()?);
        let (bm, bo) = (bm.as_ref().map(|a| vector("bm", a)).transpose()?, bo.as_ref().map(|a| vector("bo", a)).transpose()?);
        let heads = Heads {
            margin: wm.zip(bm).map(|((w, _), b)| (w, b)),
            ownership: wo.zip(bo).map(|((w, _), b)| (w, b)),
        };
        pair("trunk", "board", (trunk.is_some(), board.is_some()))?;
        let convs = trunk.as_deref().map(trunk_convs).transpose()?;
        let trunk = convs.as_ref().zip(board).map(|((convs, planes, filters), board)| {
            let side = |n: i64| usize::try_from(n).ok().filter(|&n| n >= 1);
            let (height, width) = side(board.0).zip(side(board.1)).ok_or_else(|| {
                PyValueError::new_err(format!("board must be (height, width), each at least 1, got {board:?}"))
            })?;
            let blocks = convs.len().saturating_sub(1) / 2;
            Ok::<_, PyErr>(TrunkWeights { planes: *planes, height, width, filters: *filters, blocks, convs })
        });
        let trunk = trunk.transpose()?;
        let inner = Network::new(inputs, hidden, actions, weights)
            .and_then(|n| n.with_heads(heads))
            .and_then(|n| match trunk {
                Some(t) => n.with_trunk(t),
                None => Ok(n),
            })
            .map_err(bad)?;
        Ok(PyNetwork { inner: Arc::new(inner) })
    }

    /// Whether the network has a score-margin head.
    #[getter]
    fn has_margin(&self) -> bool {
        self.inner.has_margin()
    }

    /// The cells of the ownership head (0: the network has none).
    #[getter]
    fn ownership_cells(&self) -> usize {
        self.inner.ownership_cells()
    }

    /// (logits (n, actions), values (n,), margins (n,) or None, ownership (n, cells) or
    /// None) of inputs of shape (n, inputs): every head of the network; None for a head
    /// it does not have.
    #[allow(clippy::type_complexity)]
    fn evaluate_heads<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f32>>,
        Option<Bound<'py, PyArray1<f32>>>,
        Option<Bound<'py, PyArray2<f32>>>,
    )> {
        let (values, n) = self.check_obs(&obs)?;
        let (actions, cells) = (self.inner.actions(), self.inner.ownership_cells());
        let mut logits = vec![0.0f32; n * actions];
        let mut out = vec![0.0f32; n];
        let mut margins = vec![0.0f32; n];
        let mut ownership = vec![0.0f32; n * cells];
        let mut scratch = Default::default();
        for (k, row) in values.chunks(self.inner.inputs()).enumerate().take(n) {
            let heads = self.inner.evaluate_heads(
                row,
                &mut scratch,
                &mut logits[k * actions..(k + 1) * actions],
                &mut ownership[k * cells..(k + 1) * cells],
            );
            out[k] = heads.value;
            margins[k] = heads.margin.unwrap_or(0.0);
        }
        let margins = self.inner.has_margin().then(|| PyArray1::from_vec(py, margins));
        let ownership = if cells > 0 { Some(PyArray1::from_vec(py, ownership).reshape([n, cells])?) } else { None };
        Ok((PyArray1::from_vec(py, logits).reshape([n, actions])?, PyArray1::from_vec(py, out), margins, ownership))
    }

    /// (filters, residual blocks) of the convolutional trunk, None without one.
    #[getter]
    fn trunk(&self) -> Option<(usize, usize)> {
        self.inner.trunk_shape()
    }

    #[getter]
    fn inputs(&self) -> usize {
        self.inner.inputs()
    }

    #[getter]
    fn hidden(&self) -> usize {
        self.inner.hidden()
    }

    #[getter]
    fn actions(&self) -> usize {
        self.inner.actions()
    }

    /// (logits (n, actions), values (n,)) of observations of shape (n, inputs).
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
        let (values, n) = self.check_obs(&obs)?;
        let inputs = self.inner.inputs();
        let actions = self.inner.actions();
        let mut logits = vec![0.0f32; n * actions];
        let mut out = vec![0.0f32; n];
        let mut scratch = Default::default();
        for (k, row) in values.chunks(inputs.max(1)).enumerate().take(n) {
            out[k] = self.inner.evaluate(row, &mut scratch, &mut logits[k * actions..(k + 1) * actions]);
        }
        Ok((PyArray1::from_vec(py, logits).reshape([n, actions])?, PyArray1::from_vec(py, out)))
    }

    /// (visit counts by action, the root's value for the player to move, the most
    /// visited action, ties going to the higher mean then the higher prior, the mean
    /// value of each action's child for the player to move, 0 where not visited or not
    /// legal) of a PUCT
    /// search of `iterations` simulations from `state` (not changed), evaluated by
    /// this network (mixed with random playouts' results by `rollout_weight`; a leaf
    /// is evaluated and expanded on its `expansion_visits`-th visit, valued by a
    /// playout alone before). Raises `StoppedError` once `stop` is set; setting
    /// `finish` ends the search at once with the tree it has (its root expanded);
    /// `progress(simulations, best move or None, value)` is called about every 0.1 s.
    #[pyo3(signature = (state, iterations, c_puct = 1.5, seed = 0, rollout_weight = 0.0, expansion_visits = 1,
                        stop = None, finish = None, progress = None, policy_temperature = 1.0))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        iterations: i64,
        c_puct: f32,
        seed: u64,
        rollout_weight: f32,
        expansion_visits: u32,
        stop: Option<PyRef<'py, PyStop>>,
        finish: Option<PyRef<'py, PyStop>>,
        progress: Option<Bound<'py, PyAny>>,
        policy_temperature: f32,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, f32, usize, Bound<'py, PyArray1<f32>>)> {
        let player = guided(
            self,
            iteration_count(iterations)?,
            c_puct,
            seed,
            rollout_weight,
            expansion_visits,
            0.0,
            0.3,
            policy_temperature,
        )?;
        let own = Stop::new();
        let flag = stop.as_deref().map_or(&own, PyStop::flag);
        with_native_game!(state, |_Class, root| {
            check_fits(&self.inner, &root)?;
            let figures = Progress::default();
            let mut report = progress_reporter(&root, &figures, progress.as_ref());
            let tick = Tick { every: SEARCH_PROGRESS_EVERY, on_tick: &mut report };
            let watch = watch(finish.as_deref(), progress.as_ref().map(|_| &figures));
            let tree = interruptible_with(py, true, flag, Some(tick), |stop| {
                player.search_watched(&root, &mut Buffers::default(), stop, watch)
            })?
            .map_err(|_| stopped())?;
            let mut visits = vec![0.0f32; root.num_actions()];
            let mut means = vec![0.0f32; root.num_actions()];
            for (action, n, mean, _) in tree.root_stats() {
                visits[action] = n as f32;
                means[action] = mean;
            }
            let best = tree.best_action().expect("a running game has a move");
            Ok((PyArray1::from_vec(py, visits), tree.root_value(), best, PyArray1::from_vec(py, means)))
        })
    }

    /// Plays `games` self-play games from `state` with PUCT searches of `iterations`
    /// simulations (Dirichlet noise at each root), on `threads` threads; the first
    /// `sample_moves` moves of a game are drawn from the visit counts. Returns a dict:
    /// `obs` (positions, inputs: the network's inputs, the flattened observation
    /// planes then the game's features if the network reads them), `policy`
    /// (positions, actions: the visit distributions), `masks` (positions, actions: the
    /// legal actions), `results` (positions,: the game's result for the seat to move,
    /// +1, 0 or -1), `values` (positions,: the search's value for the seat to move),
    /// `margins` (positions,: the game's final score margin for the seat to move),
    /// `ownership` (positions, cells: who holds each cell at the game's end, +1 the
    /// colour the seat to move plays at the position, -1 the other, as
    /// `state.ownership()`), `solved` (positions,: whether the position was solved
    /// exactly) and `lengths` (games,: positions per game, in order).
    ///
    /// The games are games `first .. first + games` of the round seeded with `seed`:
    /// game `i` is seeded from `(seed, i)` alone, so a round played in ranges gives, put
    /// together in order, the arrays of the round played at once. With `solve_nodes` >
    /// 0 each game's positions are solved exactly from the last backwards, each within
    /// `solve_nodes` positions searched, until one is not: a solved position's `results`
    /// entry is then its exact value for the seat to move (+1, 0 or -1).
    #[pyo3(signature = (state, games, iterations, c_puct = 1.5, noise_alpha = 0.3, noise_fraction = 0.25,
                        rollout_weight = 0.0, sample_moves = 8, seed = 0, threads = None, expansion_visits = 1,
                        first = 0, solve_nodes = 0))]
    #[allow(clippy::too_many_arguments)]
    fn self_play<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        games: i64,
        iterations: i64,
        c_puct: f32,
        noise_alpha: f32,
        noise_fraction: f32,
        rollout_weight: f32,
        sample_moves: u32,
        seed: u64,
        threads: Option<usize>,
        expansion_visits: u32,
        first: i128,
        solve_nodes: i128,
    ) -> PyResult<Bound<'py, PyDict>> {
        crate::playouts::check_threads(threads)?;
        if !(1..=1_000_000).contains(&games) {
            return Err(PyValueError::new_err(format!("games must be from 1 to 1000000, got {games}")));
        }
        // The last game's index, first + games - 1, must be a u64.
        let last_first = u64::MAX - (games as u64 - 1);
        let first = u64::try_from(first).ok().filter(|&f| f <= last_first).ok_or_else(|| {
            PyValueError::new_err(format!(
                "first must be from 0 to 2**64 - games ({last_first} for {games} games), got {first}"
            ))
        })?;
        let solve_nodes = u64::try_from(solve_nodes).map_err(|_| {
            PyValueError::new_err(format!("solve_nodes must be from 0 (off) to 2**64 - 1, got {solve_nodes}"))
        })?;
        let games = games as usize;
        let iterations = iteration_count(iterations)?;
        let player =
            guided(self, iterations, c_puct, seed, rollout_weight, expansion_visits, noise_fraction, noise_alpha, 1.0)?;
        with_native_game!(state, |_Class, start| {
            let features = check_fits(&self.inner, &start)?;
            let data = interruptible(py, true, |stop| {
                self_play_games(&start, &player, first, games, sample_moves, solve_nodes, seed, threads, stop)
            })?
            .map_err(|e| run_error(e, threads))?;
            let n = data.results.len();
            let dict = PyDict::new(py);
            let inputs = start.network_input_len(features);
            dict.set_item("obs", PyArray1::from_vec(py, data.obs).reshape([n, inputs])?)?;
            dict.set_item("policy", PyArray1::from_vec(py, data.policy).reshape([n, start.num_actions()])?)?;
            dict.set_item("masks", PyArray1::from_vec(py, data.masks).reshape([n, start.num_actions()])?)?;
            dict.set_item("results", PyArray1::from_vec(py, data.results))?;
            dict.set_item("values", PyArray1::from_vec(py, data.values))?;
            dict.set_item("margins", PyArray1::from_vec(py, data.margins))?;
            let cells = start.ownership_len();
            dict.set_item("ownership", PyArray1::from_vec(py, data.ownership).reshape([n, cells])?)?;
            dict.set_item("solved", PyArray1::from_vec(py, data.solved))?;
            dict.set_item("lengths", PyArray1::from_vec(py, data.lengths))?;
            Ok(dict)
        })
    }

    fn __repr__(&self) -> String {
        let mut heads = String::new();
        if self.inner.has_margin() {
            heads.push_str(", a margin head");
        }
        if self.inner.ownership_cells() > 0 {
            heads.push_str(&format!(", an ownership head of {} cells", self.inner.ownership_cells()));
        }
        if let Some((filters, blocks)) = self.inner.trunk_shape() {
            heads.push_str(&format!(", a trunk of {filters} filters and {blocks} blocks"));
        }
        format!(
            "Network({} inputs, {} hidden, {} actions{heads})",
            self.inner.inputs(),
            self.inner.hidden(),
            self.inner.actions()
        )
    }
}

impl PyNetwork {
    /// The values and rows of observations of shape (n, inputs), all finite.
    fn check_obs<'a>(&self, obs: &'a PyReadonlyArray2<'_, f32>) -> PyResult<(&'a [f32], usize)> {
        let (values, [n, inputs]) = matrix("obs", obs)?;
        if inputs != self.inner.inputs() || !values.iter().all(|v| v.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "observations must be finite, of shape (n, {}), got shape {:?}",
                self.inner.inputs(),
                obs.shape()
            )));
        }
        Ok((values, n))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNetwork>()
}
