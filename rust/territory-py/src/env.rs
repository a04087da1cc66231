//! The Python class `territory.VecEnv`: a batch of games stepped in Rust without the
//! GIL. Its numpy output arrays are made once and refilled by every `reset()`/`step()`.

use numpy::{
    PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use territory::bulk::vec_env::{Outputs, StepError, VecEnv};
use territory::{GameKind, Learn};

use crate::game_class::Native;

/// A batch of any game: what the class needs of a [`VecEnv`], written once over the
/// games (one virtual call per batch, never in a hot loop).
trait AnyEnv: Send + Sync {
    fn reset(&mut self, out: Outputs<'_>);
    fn step(&mut self, actions: &[usize], out: Outputs<'_>) -> Result<(), StepError>;
    fn sample_actions(&mut self, out: &mut [usize]);
    fn num_actions(&self) -> usize;
    fn observation_shape(&self) -> [usize; 3];
    /// A copy of game `index` as a Python state.
    fn state(&self, py: Python<'_>, index: usize) -> PyResult<Py<PyAny>>;
}

impl<G: Learn + Native + Send + Sync + 'static> AnyEnv for VecEnv<G> {
    fn reset(&mut self, out: Outputs<'_>) {
        VecEnv::reset(self, out)
    }
    fn step(&mut self, actions: &[usize], out: Outputs<'_>) -> Result<(), StepError> {
        VecEnv::step(self, actions, out)
    }
    fn sample_actions(&mut self, out: &mut [usize]) {
        VecEnv::sample_actions(self, out)
    }
    fn num_actions(&self) -> usize {
        VecEnv::num_actions(self)
    }
    fn observation_shape(&self) -> [usize; 3] {
        Learn::observation_shape(&self.games()[0])
    }
    fn state(&self, py: Python<'_>, index: usize) -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, G::wrap(self.games()[index].clone()))?.into_any())
    }
}

/// A batch of games for reinforcement learning.
/// `VecEnv(game, batch, seed=0, threads=None, **params)`: `game` is a name (a key of
/// `territory.GAMES`) or a state to start every game from. `reset()` -> (obs, mask);
/// `step(actions)` -> (obs, rewards, dones, mask); finished games restart at once.
/// The returned arrays are the env's own buffers, refilled by the next call: copy
/// what you keep.
#[pyclass(module = "territory", name = "VecEnv")]
pub struct PyVecEnv {
    inner: Box<dyn AnyEnv>,
    actions: Vec<usize>,
    obs: Py<PyArrayDyn<f32>>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<i8>>,
}

fn start_state<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let Ok(name) = game.cast::<PyString>() else {
        if params.is_some_and(|p| !p.is_empty()) {
            return Err(PyValueError::new_err(
                "give game parameters only with a game name, not with a state",
            ));
        }
        return Ok(game.clone());
    };
    let name = name.to_cow()?;
    let Some(kind) = GameKind::from_name(&name) else {
        return Err(PyValueError::new_err(format!(
            "game must be {} or a game state, got '{name}'",
            crate::game_names()
        )));
    };
    let class = territory::with_game!(kind, G => py.get_type::<<G as Native>::Class>());
    class.call((), params)
}

impl PyVecEnv {
    fn make<G: Learn + Native + Send + Sync + 'static>(
        py: Python<'_>,
        env: VecEnv<G>,
    ) -> PyResult<Self> {
        let b = env.batch();
        let shape = territory::Learn::observation_shape(&env.games()[0]);
        let obs = PyArrayDyn::<f32>::zeros(py, vec![b, shape[0], shape[1], shape[2]], false);
        Ok(PyVecEnv {
            actions: vec![0; b],
            obs: obs.unbind(),
            masks: PyArray2::<bool>::zeros(py, [b, env.num_actions()], false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [b, 2], false).unbind(),
            dones: PyArray1::<bool>::zeros(py, b, false).unbind(),
            to_move: PyArray1::<i8>::zeros(py, b, false).unbind(),
            inner: Box::new(env),
        })
    }

    /// Fills the buffers by `reset` (`step` false) or by playing `self.actions`.
    fn run(&mut self, py: Python<'_>, step: bool) -> PyResult<()> {
        let mut obs = self.obs.bind(py).try_readwrite()?;
        let mut masks = self.masks.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut dones = self.dones.bind(py).try_readwrite()?;
        let mut to_move = self.to_move.bind(py).try_readwrite()?;
        let out = Outputs {
            observations: obs.as_slice_mut()?,
            masks: masks.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            dones: dones.as_slice_mut()?,
            to_move: to_move.as_slice_mut()?,
        };
        let actions = &self.actions;
        let inner = &mut self.inner;
        py.detach(|| {
            if step {
                inner.step(actions, out)
            } else {
                inner.reset(out);
                Ok(())
            }
        })
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(text_signature = "(game, batch, seed=0, threads=None, **params)")]
    #[pyo3(signature = (game, batch, seed = crate::params::default(0), threads = None, **params))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        batch: &Bound<'_, PyAny>,
        seed: Py<PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let batch = crate::params::int_in(batch, "batch", 1, 1 << 24)?;
        let seed = crate::params::int_in(seed.bind(py), "seed", 0, i64::MAX)? as u64;
        let threads = match threads {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(t) if t.is_none() => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(t) => crate::params::int_in(t, "threads", 1, crate::playouts::MAX_THREADS as i64)?,
        };
        let state = start_state(py, game, params)?;
        if state
            .getattr("is_over")
            .and_then(|v| v.extract::<bool>())
            .unwrap_or(false)
        {
            return Err(PyValueError::new_err(
                "the start state is over: every game of a VecEnv needs a move to make",
            ));
        }
        for &kind in GameKind::ALL {
            let made = territory::with_game!(kind, G => match state.cast::<<G as Native>::Class>() {
                Ok(s) => {
                    let start = G::unwrap(&s.borrow()).clone();
                    Some(Self::make(py, VecEnv::new(start, batch, seed, threads)))
                }
                Err(_) => None,
            });
            if let Some(made) = made {
                return made;
            }
        }
        Err(PyValueError::new_err(format!(
            "game must be {} or a native game state, got {}",
            crate::game_names(),
            state.repr()?
        )))
    }

    /// Starts every game again; returns (observations, masks).
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.run(py, false)?;
        PyTuple::new(
            py,
            [self.obs.bind(py).as_any(), self.masks.bind(py).as_any()],
        )
    }

    /// Plays one action per game (for the seat to move); returns (observations,
    /// rewards per seat, dones, masks). Games that end restart: their done is True,
    /// their rewards are the final returns, and their observation and mask are those
    /// of the new game. An illegal or out-of-range action raises ValueError naming the
    /// game, and then no game has changed.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let np = py.import("numpy")?;
        let array = np.call_method1("asarray", (actions,))?;
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind != "i" && kind != "u" {
            return Err(PyValueError::new_err(format!(
                "actions must be integers, one per game, got dtype {}",
                array.getattr("dtype")?.repr()?
            )));
        }
        let array = array.call_method1("astype", ("int64",))?;
        let array: PyReadonlyArray1<'py, i64> = array.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "actions must be a 1-d array of {} ints",
                self.actions.len()
            ))
        })?;
        if array.len() != self.actions.len() {
            return Err(PyValueError::new_err(format!(
                "expected {} actions, one per game, got {}",
                self.actions.len(),
                array.len()
            )));
        }
        let num_actions = self.inner.num_actions();
        for (i, (&a, slot)) in array
            .as_slice()?
            .iter()
            .zip(self.actions.iter_mut())
            .enumerate()
        {
            if a < 0 || a as usize >= num_actions {
                return Err(PyValueError::new_err(format!(
                    "game {i}: action must be from 0 to {}, got {a}",
                    num_actions - 1
                )));
            }
            *slot = a as usize;
        }
        self.run(py, true)?;
        PyTuple::new(
            py,
            [
                self.obs.bind(py).as_any(),
                self.rewards.bind(py).as_any(),
                self.dones.bind(py).as_any(),
                self.masks.bind(py).as_any(),
            ],
        )
    }

    /// A uniformly random legal action for every game (int64 array), drawn from each
    /// game's own generator, seeded from the env's seed and the game's index.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let actions = &mut self.actions;
        let inner = &mut self.inner;
        py.detach(|| inner.sample_actions(actions));
        PyArray1::from_iter(py, self.actions.iter().map(|&a| a as i64))
    }

    /// The seat to move in each game (int8 array; games never stay over, so 0 or 1).
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.to_move.bind(py).clone()
    }

    #[getter]
    fn batch(&self) -> usize {
        self.actions.len()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// The shape (planes, height, width) of one game's observation.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [c, h, w] = self.inner.observation_shape();
        (c, h, w)
    }

    /// A copy of game `index` as a game state (with the history since its last start).
    fn state(&self, py: Python<'_>, index: usize) -> PyResult<Py<PyAny>> {
        let batch = self.actions.len();
        if index >= batch {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "index must be below the batch size {batch}, got {index}"
            )));
        }
        self.inner.state(py, index)
    }
}
