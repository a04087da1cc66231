//! The Python class `territory._core.PuctSearch`: PUCT searches from many roots at once
//! (`territory::search::PuctBatch`), whose leaf evaluations are asked from Python in
//! batches (docs/learning.md).

use numpy::PyUntypedArrayMethods;
use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use territory::search::{PuctBatch, PuctConfig};
use territory::{Learn, Migong, Nume, Tabik};

use crate::game_class::Native;

#[allow(clippy::large_enum_variant)]
enum Inner {
    Tabik(PuctBatch<Tabik>),
    Migong(PuctBatch<Migong>),
    Nume(PuctBatch<Nume>),
}

macro_rules! dispatch {
    ($inner:expr, $batch:ident => $body:expr) => {
        match $inner {
            Inner::Tabik($batch) => $body,
            Inner::Migong($batch) => $body,
            Inner::Nume($batch) => $body,
        }
    };
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
    inner: Inner,
    shape: [usize; 3],
    num_actions: usize,
    obs: Vec<f32>,
}

/// The games of `states`, all of the class of `G`.
fn roots<G: Native + Learn>(states: &[Bound<'_, PyAny>]) -> PyResult<Option<Vec<G>>> {
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

fn number(name: &str, value: f32, low: f32, high: f32) -> PyResult<f32> {
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
    #[pyo3(signature = (states, iterations, c_puct = 1.5, noise_alpha = 0.3, noise_fraction = 0.0, seed = 0, leaves_per_search = 1))]
    fn new(
        states: Vec<Bound<'_, PyAny>>,
        iterations: u32,
        c_puct: f32,
        noise_alpha: f32,
        noise_fraction: f32,
        seed: u64,
        leaves_per_search: usize,
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
        let config = PuctConfig {
            iterations,
            c_puct: number("c_puct", c_puct, 0.0, 1e6)?,
            noise_alpha: number("noise_alpha", noise_alpha, 1e-3, 1e3)?,
            noise_fraction: number("noise_fraction", noise_fraction, 0.0, 1.0)?,
            seed,
        };
        fn make<G: Native + Learn>(
            games: Vec<G>,
            config: PuctConfig,
            leaves_per_search: usize,
            wrap: fn(PuctBatch<G>) -> Inner,
        ) -> PyPuctSearch {
            let shape = games[0].observation_shape();
            let num_actions = games[0].num_actions();
            PyPuctSearch {
                inner: wrap(PuctBatch::new(&games, config, leaves_per_search)),
                shape,
                num_actions,
                obs: Vec::new(),
            }
        }
        if let Some(games) = roots::<Tabik>(&states)? {
            return Ok(make(games, config, leaves_per_search, Inner::Tabik));
        }
        if let Some(games) = roots::<Migong>(&states)? {
            return Ok(make(games, config, leaves_per_search, Inner::Migong));
        }
        if let Some(games) = roots::<Nume>(&states)? {
            return Ok(make(games, config, leaves_per_search, Inner::Nume));
        }
        Err(PyValueError::new_err(format!(
            "states must be native game states (territory.Migong, Nume or Tabik), got {}",
            states[0].get_type().name()?
        )))
    }

    /// The observations (float32, shape (leaves, planes, height, width)) of the next
    /// leaves to evaluate, one per unfinished search; None once every search is done.
    fn leaves<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray4<f32>>>> {
        let inner = &mut self.inner;
        let obs = &mut self.obs;
        let n = py.detach(|| dispatch!(inner, batch => batch.collect(obs)));
        if n == 0 {
            return Ok(None);
        }
        let [c, h, w] = self.shape;
        let array = PyArray1::from_slice(py, &self.obs).reshape([n, c, h, w])?;
        Ok(Some(array))
    }

    /// Expands the leaves of the last `leaves()` with the priors softmax(logits) over
    /// their legal actions and backs up their values (for the seat to move there).
    fn backup(
        &mut self,
        py: Python<'_>,
        logits: PyReadonlyArray2<'_, f32>,
        values: PyReadonlyArray1<'_, f32>,
    ) -> PyResult<()> {
        let waiting = dispatch!(&self.inner, batch => batch.waiting());
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
        py.detach(|| dispatch!(inner, batch => batch.backup(logits, values)));
        Ok(())
    }

    /// Whether every search is done.
    #[getter]
    fn done(&self) -> bool {
        dispatch!(&self.inner, batch => batch.trees.iter().all(|t| t.is_done()))
    }

    /// The visit counts of the roots' moves by action (float32, shape (states,
    /// num_actions); 0 for illegal actions).
    fn visits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let n = dispatch!(&self.inner, batch => batch.trees.len());
        let mut out = vec![0.0f32; n * self.num_actions];
        dispatch!(&self.inner, batch => {
            for (i, tree) in batch.trees.iter().enumerate() {
                for (action, visits, _, _) in tree.root_stats() {
                    out[i * self.num_actions + action] = visits as f32;
                }
            }
        });
        PyArray1::from_vec(py, out).reshape([n, self.num_actions])
    }

    /// Each root's mean value for the seat to move there (float32).
    fn root_values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        dispatch!(&self.inner, batch => PyArray1::from_iter(py, batch.trees.iter().map(|t| t.root_value())))
    }

    /// Each root's most visited action (ties: the higher mean, then legal-move order).
    fn best_actions(&self) -> Vec<Option<usize>> {
        dispatch!(&self.inner, batch => batch.trees.iter().map(|t| t.best_action()).collect())
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
