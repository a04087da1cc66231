//! The Python class `territory._core.PuctSearch`: PUCT searches from many roots at once
//! (`territory::search::PuctBatch`), whose leaf evaluations are asked from Python in
//! batches (docs/learning.md).

use numpy::PyUntypedArrayMethods;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use territory::search::{PuctBatch, PuctConfig};
use territory::{GameKind, Learn};

use crate::game_class::Native;

/// What the class needs of a [`PuctBatch`] of any game (one virtual call per batch).
trait AnyPuct: Send + Sync {
    fn collect(&mut self, obs: &mut Vec<f32>) -> usize;
    fn waiting(&self) -> usize;
    fn backup(&mut self, logits: &[f32], values: &[f32]);
    fn done(&self) -> bool;
    /// (action, visits) of each root's moves, per root.
    fn root_visits(&self) -> Vec<Vec<(usize, u32)>>;
    fn root_values(&self) -> Vec<f32>;
    fn best_actions(&self) -> Vec<Option<usize>>;
}

impl<G: Learn + Send + Sync> AnyPuct for PuctBatch<G> {
    fn collect(&mut self, obs: &mut Vec<f32>) -> usize {
        PuctBatch::collect(self, obs)
    }
    fn waiting(&self) -> usize {
        PuctBatch::waiting(self)
    }
    fn backup(&mut self, logits: &[f32], values: &[f32]) {
        PuctBatch::backup(self, logits, values)
    }
    fn done(&self) -> bool {
        self.trees.iter().all(|t| t.is_done())
    }
    fn root_visits(&self) -> Vec<Vec<(usize, u32)>> {
        self.trees
            .iter()
            .map(|t| {
                t.root_stats()
                    .into_iter()
                    .map(|(a, v, _, _)| (a, v))
                    .collect()
            })
            .collect()
    }
    fn root_values(&self) -> Vec<f32> {
        self.trees.iter().map(|t| t.root_value()).collect()
    }
    fn best_actions(&self) -> Vec<Option<usize>> {
        self.trees.iter().map(|t| t.best_action()).collect()
    }
}

/// PUCT searches, one per root state, guided by evaluations given from Python.
///
/// `PuctSearch(states, iterations, c_puct=1.5, noise_alpha=0.3, noise_fraction=0.0,
/// seed=0, leaves_per_search=1)`: `states` is a list of running games of one class with
/// the same observation shape and number of actions; each search gives up to
/// `leaves_per_search` leaves per round (virtual loss spreads them). Then, until `leaves()` returns None, pass
/// the network's answer for the observations it returned to `backup(logits, values)`:
/// logits over all actions (float32, shape (leaves, num_actions)) and values in [-1, 1]
/// for the seat to move at each leaf (float32, shape (leaves,)). `visits()` then holds
/// the root visit counts per action.
#[pyclass(module = "territory._core", name = "PuctSearch")]
pub struct PyPuctSearch {
    inner: Box<dyn AnyPuct>,
    shape: [usize; 3],
    /// The features' length after each observation, when the leaves give them.
    features: Option<usize>,
    num_actions: usize,
    obs: Vec<f32>,
}

/// The games of `states` (not empty), if the first is of the class of `G`; an error
/// unless all are, with the same parameters, and running.
pub(crate) fn roots<G: Native + Learn>(states: &[Bound<'_, PyAny>]) -> PyResult<Option<Vec<G>>> {
    if states[0].cast::<G::Class>().is_err() {
        return Ok(None);
    }
    let mut games = Vec::with_capacity(states.len());
    for (i, state) in states.iter().enumerate() {
        let Ok(s) = state.cast::<G::Class>() else {
            return Err(PyValueError::new_err(format!(
                "states must all be of one game: state {i} is a {}, state 0 a {}",
                state.get_type().name()?,
                states[0].get_type().name()?
            )));
        };
        let game = G::unwrap(&s.borrow()).clone();
        if game.is_over() {
            return Err(PyValueError::new_err(format!(
                "state {i}'s game is over: a search needs a running game"
            )));
        }
        if game.num_actions() != G::unwrap(&states[0].cast::<G::Class>()?.borrow()).num_actions()
            || game.observation_shape()
                != G::unwrap(&states[0].cast::<G::Class>()?.borrow()).observation_shape()
        {
            return Err(PyValueError::new_err(format!(
                "states must share their parameters: state {i}'s observations or actions differ from state 0's"
            )));
        }
        games.push(game);
    }
    Ok(Some(games))
}

/// A PUCT search's parameters, each checked against its range (`iterations` is the
/// caller's to check: its bound differs).
pub(crate) fn puct_config(
    iterations: u32,
    c_puct: f32,
    noise_alpha: f32,
    noise_fraction: f32,
    seed: u64,
) -> PyResult<PuctConfig> {
    Ok(PuctConfig {
        iterations,
        c_puct: number("c_puct", c_puct, 0.0, 1e6)?,
        noise_alpha: number("noise_alpha", noise_alpha, 1e-3, 1e3)?,
        noise_fraction: number("noise_fraction", noise_fraction, 0.0, 1.0)?,
        seed,
        features: false,
    })
}

/// `value` if finite and within `low ..= high`, else a `ValueError` naming `name`.
pub(crate) fn number(name: &str, value: f32, low: f32, high: f32) -> PyResult<f32> {
    if value.is_finite() && (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "{name} must be a number from {low} to {high}, got {value}"
        )))
    }
}

#[pymethods]
impl PyPuctSearch {
    #[new]
    #[pyo3(signature = (states, iterations, c_puct = 1.5, noise_alpha = 0.3, noise_fraction = 0.0, seed = 0,
                        leaves_per_search = 1, features = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        states: Vec<Bound<'_, PyAny>>,
        iterations: u32,
        c_puct: f32,
        noise_alpha: f32,
        noise_fraction: f32,
        seed: u64,
        leaves_per_search: usize,
        features: bool,
    ) -> PyResult<Self> {
        if states.is_empty() {
            return Err(PyValueError::new_err("states must hold at least one state"));
        }
        if iterations == 0 {
            return Err(PyValueError::new_err("iterations must be at least 1"));
        }
        if !(1..=4096).contains(&leaves_per_search) {
            return Err(PyValueError::new_err(format!(
                "leaves_per_search must be from 1 to 4096, got {leaves_per_search}"
            )));
        }
        let config = PuctConfig { features, ..puct_config(iterations, c_puct, noise_alpha, noise_fraction, seed)? };
        fn make<G: Native + Learn + Send + Sync + 'static>(
            games: Vec<G>,
            config: PuctConfig,
            leaves_per_search: usize,
        ) -> PyPuctSearch {
            let shape = games[0].observation_shape();
            let num_actions = games[0].num_actions();
            PyPuctSearch {
                features: config.features.then(|| games[0].feature_len()),
                inner: Box::new(PuctBatch::new(&games, config, leaves_per_search)),
                shape,
                num_actions,
                obs: Vec::new(),
            }
        }
        for &kind in GameKind::ALL {
            let made = territory::with_game!(kind, G => roots::<G>(&states)?
                .map(|games| make(games, config, leaves_per_search)));
            if let Some(made) = made {
                return Ok(made);
            }
        }
        Err(PyValueError::new_err(format!(
            "states must be native game states ({}), got {}",
            crate::game_names(),
            states[0].get_type().name()?
        )))
    }

    /// The observations (float32, shape (leaves, planes, height, width)) of the next
    /// leaves to evaluate, one per unfinished search; None once every search is done.
    /// With `features`, each leaf's flattened observation then its features (float32,
    /// shape (leaves, inputs)).
    fn leaves<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let inner = &mut self.inner;
        let obs = &mut self.obs;
        let n = py.detach(|| inner.collect(obs));
        if n == 0 {
            return Ok(None);
        }
        let [c, h, w] = self.shape;
        let array = PyArray1::from_slice(py, &self.obs);
        Ok(Some(match self.features {
            Some(len) => array.reshape([n, c * h * w + len])?.into_any(),
            None => array.reshape([n, c, h, w])?.into_any(),
        }))
    }

    /// Expands the leaves of the last `leaves()` with the priors softmax(logits) over
    /// their legal actions and backs up their values (for the seat to move there).
    fn backup(
        &mut self,
        py: Python<'_>,
        logits: PyReadonlyArray2<'_, f32>,
        values: PyReadonlyArray1<'_, f32>,
    ) -> PyResult<()> {
        let waiting = self.inner.waiting();
        if waiting == 0 {
            return Err(PyValueError::new_err(
                "no leaf waits for an evaluation: call leaves() first",
            ));
        }
        if logits.shape() != [waiting, self.num_actions] || values.shape() != [waiting] {
            return Err(PyValueError::new_err(format!(
                "expected logits of shape ({waiting}, {}) and values of shape ({waiting},), got {:?} and {:?}",
                self.num_actions,
                logits.shape(),
                values.shape()
            )));
        }
        let logits = logits.as_slice()?;
        let values = values.as_slice()?;
        if !logits.iter().chain(values).all(|v| v.is_finite()) {
            return Err(PyValueError::new_err(
                "logits and values must be finite numbers",
            ));
        }
        let inner = &mut self.inner;
        py.detach(|| inner.backup(logits, values));
        Ok(())
    }

    /// Whether every search is done.
    #[getter]
    fn done(&self) -> bool {
        self.inner.done()
    }

    /// The visit counts of the roots' moves by action (float32, shape (states,
    /// num_actions); 0 for illegal actions).
    fn visits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let roots = self.inner.root_visits();
        let n = roots.len();
        let mut out = vec![0.0f32; n * self.num_actions];
        for (i, stats) in roots.iter().enumerate() {
            for &(action, visits) in stats {
                out[i * self.num_actions + action] = visits as f32;
            }
        }
        PyArray1::from_vec(py, out).reshape([n, self.num_actions])
    }

    /// Each root's mean value for the seat to move there (float32).
    fn root_values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_vec(py, self.inner.root_values())
    }

    /// Each root's most visited action (ties: the higher mean, then legal-move order).
    fn best_actions(&self) -> Vec<Option<usize>> {
        self.inner.best_actions()
    }

    /// The number of actions of the game (the width of `logits`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPuctSearch>()
}
