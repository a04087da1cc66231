//! The Python class `territory.VecEnv`: a batch of games stepped in Rust without the
//! GIL. Its numpy output arrays are made once and refilled by every `reset()`/`step()`.

use numpy::{
    PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use territory::bulk::vec_env::{MaskValue, ObservationValue, Outputs, StepError, VecEnv};
use territory::{GameKind, Learn};

use crate::game_class::Native;

/// The output slices of one call, of the value types the env was made with (observation
/// planes as f32 or bytes, masks as bools or packed bits).
enum AnyOutputs<'a> {
    F32Bool(Outputs<'a, f32, bool>),
    F32Bits(Outputs<'a, f32, u8>),
    U8Bool(Outputs<'a, u8, bool>),
    U8Bits(Outputs<'a, u8, u8>),
}

/// `$body` with `$o` the typed [`Outputs`] inside `$out`, whichever they are.
macro_rules! each_output_type {
    ($out:expr, $o:ident => $body:expr) => {
        match $out {
            AnyOutputs::F32Bool($o) => $body,
            AnyOutputs::F32Bits($o) => $body,
            AnyOutputs::U8Bool($o) => $body,
            AnyOutputs::U8Bits($o) => $body,
        }
    };
}

/// Typed [`Outputs`] as [`AnyOutputs`].
trait Erase<'a> {
    fn erase(self) -> AnyOutputs<'a>;
}

macro_rules! erase {
    ($($o:ty, $m:ty => $variant:ident;)*) => {$(
        impl<'a> Erase<'a> for Outputs<'a, $o, $m> {
            fn erase(self) -> AnyOutputs<'a> {
                AnyOutputs::$variant(self)
            }
        }
    )*};
}
erase! {
    f32, bool => F32Bool;
    f32, u8 => F32Bits;
    u8, bool => U8Bool;
    u8, u8 => U8Bits;
}

/// A batch of any game: what the class needs of a [`VecEnv`], written once over the
/// games (one virtual call per batch, never in a hot loop).
trait AnyEnv: Send + Sync {
    fn reset(&mut self, out: AnyOutputs<'_>);
    fn step(&mut self, actions: &[usize], out: AnyOutputs<'_>) -> Result<(), StepError>;
    fn observation_len(&self) -> usize;
    fn sample_actions(&mut self, out: &mut [usize]);
    fn num_actions(&self) -> usize;
    fn observation_shape(&self) -> [usize; 3];
    /// A copy of game `index` as a Python state.
    fn state(&self, py: Python<'_>, index: usize) -> PyResult<Py<PyAny>>;
}

impl<G: Learn + Native + Send + Sync + 'static> AnyEnv for VecEnv<G> {
    fn reset(&mut self, out: AnyOutputs<'_>) {
        each_output_type!(out, o => VecEnv::reset(self, o))
    }
    fn step(&mut self, actions: &[usize], out: AnyOutputs<'_>) -> Result<(), StepError> {
        each_output_type!(out, o => VecEnv::step(self, actions, o))
    }
    fn observation_len(&self) -> usize {
        VecEnv::observation_len(self)
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

/// The observation buffer, of the dtype asked for.
enum Observations {
    F32(Py<PyArrayDyn<f32>>),
    U8(Py<PyArrayDyn<u8>>),
}

/// The mask buffer: one bool per action, or the bits packed eight to a byte.
enum Masks {
    Bool(Py<PyArray2<bool>>),
    Bits(Py<PyArray2<u8>>),
}

/// A batch of games for reinforcement learning.
/// `VecEnv(game, batch, seed=0, threads=None, obs_dtype="float32", **params)`: `game` is
/// a name (a key of
/// `territory.GAMES`) or a state to start every game from; `obs_dtype`
/// "uint8" writes the planes as bytes (games with whole values only: Migong, Tabik;
/// -1 is stored as 255); `packed_masks=True` gives each game's mask as uint8 bytes, eight
/// actions a byte (numpy.unpackbits(mask, axis=-1, count=num_actions, bitorder="little")
/// unpacks them). `reset()` -> (obs, mask);
/// `step(actions)` -> (obs, rewards, dones, mask); finished games restart at once.
/// The returned arrays are the env's own buffers, refilled by the next call: copy
/// what you keep.
#[pyclass(module = "territory", name = "VecEnv")]
pub struct PyVecEnv {
    inner: Box<dyn AnyEnv>,
    actions: Vec<usize>,
    obs: Observations,
    masks: Masks,
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

/// The error for a VecEnv used while another call still holds it.
fn in_use() -> PyErr {
    crate::game_class::StateInUseError::new_err(
        "this VecEnv is in use by another call (another thread): a VecEnv is not \
         thread-safe; give each thread its own VecEnv",
    )
}

/// The observation dtype asked for: "float32" (the default) or "uint8", as a name or a
/// numpy dtype.
fn wants_bytes(py: Python<'_>, obs_dtype: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let Some(dtype) = obs_dtype.filter(|d| !d.is_none()) else {
        return Ok(false);
    };
    let name: Option<String> = py
        .import("numpy")?
        .getattr("dtype")?
        .call1((dtype,))
        .and_then(|d| d.getattr("name"))
        .and_then(|n| n.extract())
        .ok();
    match name.as_deref() {
        Some("float32") => Ok(false),
        Some("uint8") => Ok(true),
        _ => Err(PyValueError::new_err(format!(
            "obs_dtype must be 'float32' or 'uint8', got {}",
            crate::game_class::short_repr(dtype)
        ))),
    }
}

impl PyVecEnv {
    fn make<G: Learn + Native + Send + Sync + 'static>(
        py: Python<'_>,
        env: VecEnv<G>,
        bytes: bool,
        packed_masks: bool,
    ) -> PyResult<Self> {
        let b = env.batch();
        let shape = territory::Learn::observation_shape(&env.games()[0]);
        let dims = vec![b, shape[0], shape[1], shape[2]];
        let obs = if !bytes {
            Observations::F32(PyArrayDyn::<f32>::zeros(py, dims, false).unbind())
        } else if G::WHOLE_OBSERVATIONS {
            Observations::U8(PyArrayDyn::<u8>::zeros(py, dims, false).unbind())
        } else {
            return Err(PyValueError::new_err(format!(
                "obs_dtype='uint8' needs whole observation values, and {}'s planes hold \
                 fractions (docs/observations.md): use float32",
                G::NAME
            )));
        };
        Ok(PyVecEnv {
            actions: vec![0; b],
            obs,
            masks: if packed_masks {
                let width = <u8 as MaskValue>::len(env.num_actions());
                Masks::Bits(PyArray2::<u8>::zeros(py, [b, width], false).unbind())
            } else {
                Masks::Bool(PyArray2::<bool>::zeros(py, [b, env.num_actions()], false).unbind())
            },
            rewards: PyArray2::<f32>::zeros(py, [b, 2], false).unbind(),
            dones: PyArray1::<bool>::zeros(py, b, false).unbind(),
            to_move: PyArray1::<i8>::zeros(py, b, false).unbind(),
            inner: Box::new(env),
        })
    }

    /// Fills the buffers by `reset` (`step` false) or by playing `self.actions`.
    fn run(&mut self, py: Python<'_>, step: bool) -> PyResult<()> {
        use Masks::{Bits, Bool};
        use Observations::{F32, U8};
        match (&self.obs, &self.masks) {
            (F32(o), Bool(m)) => {
                let (o, m) = (o.clone_ref(py), m.clone_ref(py));
                self.run_as(py, step, o.bind(py), m.bind(py))
            }
            (F32(o), Bits(m)) => {
                let (o, m) = (o.clone_ref(py), m.clone_ref(py));
                self.run_as(py, step, o.bind(py), m.bind(py))
            }
            (U8(o), Bool(m)) => {
                let (o, m) = (o.clone_ref(py), m.clone_ref(py));
                self.run_as(py, step, o.bind(py), m.bind(py))
            }
            (U8(o), Bits(m)) => {
                let (o, m) = (o.clone_ref(py), m.clone_ref(py));
                self.run_as(py, step, o.bind(py), m.bind(py))
            }
        }
    }

    fn run_as<O: ObservationValue + numpy::Element, M: MaskValue + numpy::Element>(
        &mut self,
        py: Python<'_>,
        step: bool,
        obs: &Bound<'_, PyArrayDyn<O>>,
        masks: &Bound<'_, PyArray2<M>>,
    ) -> PyResult<()>
    where
        for<'o> Outputs<'o, O, M>: Erase<'o>,
    {
        let mut obs = obs.try_readwrite()?;
        let mut masks = masks.try_readwrite()?;
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
        let b = self.actions.len();
        let (obs_len, n_actions) = (
            self.inner.observation_len(),
            M::len(self.inner.num_actions()),
        );
        // Someone may have resized the env's arrays in place (numpy's resize with
        // refcheck=False): refuse rather than write past or short of them.
        if out.observations.len() != b * obs_len
            || out.masks.len() != b * n_actions
            || out.rewards.len() != 2 * b
            || out.dones.len() != b
            || out.to_move.len() != b
        {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "the VecEnv's output arrays were resized in place (numpy resize): \
                 they no longer fit the batch; make a new VecEnv",
            ));
        }
        let actions = &self.actions;
        let inner = &mut self.inner;
        py.detach(|| {
            if step {
                inner.step(actions, out.erase())
            } else {
                inner.reset(out.erase());
                Ok(())
            }
        })
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The env borrowed for a change, or StateInUseError while another call holds it.
    fn borrow_mut<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRefMut<'py, Self>> {
        slf.try_borrow_mut().map_err(|_| in_use())
    }

    /// The env's observation buffer, as a Python object.
    fn obs_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            Observations::F32(obs) => obs.bind(py).clone().into_any(),
            Observations::U8(obs) => obs.bind(py).clone().into_any(),
        }
    }

    /// The env's mask buffer, as a Python object.
    fn mask_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.masks {
            Masks::Bool(masks) => masks.bind(py).clone().into_any(),
            Masks::Bits(masks) => masks.bind(py).clone().into_any(),
        }
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        text_signature = "(game, batch, seed=0, threads=None, obs_dtype='float32', packed_masks=False, **params)"
    )]
    #[pyo3(signature = (game, batch, seed = crate::params::default(0), threads = None, obs_dtype = None, packed_masks = false, **params))]
    #[allow(clippy::too_many_arguments)] // the Python keyword arguments, one each
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        batch: &Bound<'_, PyAny>,
        seed: Py<PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        obs_dtype: Option<&Bound<'_, PyAny>>,
        packed_masks: bool,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let bytes = wants_bytes(py, obs_dtype)?;
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
                    Some(Self::make(py, VecEnv::new(start, batch, seed, threads), bytes, packed_masks))
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
    fn reset<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let mut this = Self::borrow_mut(slf)?;
        this.run(py, false)?;
        PyTuple::new(py, [this.obs_array(py), this.mask_array(py)])
    }

    /// Plays one action per game (for the seat to move); returns (observations,
    /// rewards per seat, dones, masks). Games that end restart: their done is True,
    /// their rewards are the final returns, and their observation and mask are those
    /// of the new game. An illegal or out-of-range action raises ValueError naming the
    /// game, and then no game has changed.
    fn step<'py>(
        slf: &Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        if let Ok(items) = actions.cast::<pyo3::types::PyList>().map(|l| l.to_tuple()).or_else(|_| actions.cast::<PyTuple>().cloned()) {
            // An int beyond int64 would turn the whole list into floats for numpy.
            for (i, item) in items.iter().enumerate() {
                if item.is_exact_instance_of::<pyo3::types::PyInt>() && item.extract::<i64>().is_err() {
                    let num_actions = slf.try_borrow()?.inner.num_actions();
                    return Err(PyValueError::new_err(format!(
                        "game {i}: action must be from 0 to {}, got {item}",
                        num_actions - 1
                    )));
                }
            }
        }
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
        // Python code (numpy above) has run: only now is the env borrowed.
        let mut this = Self::borrow_mut(slf)?;
        let this = &mut *this;
        let array: PyReadonlyArray1<'py, i64> = array.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "actions must be a 1-d array of {} ints",
                this.actions.len()
            ))
        })?;
        if array.len() != this.actions.len() {
            return Err(PyValueError::new_err(format!(
                "expected {} actions, one per game, got {}",
                this.actions.len(),
                array.len()
            )));
        }
        let num_actions = this.inner.num_actions();
        for (i, (&a, slot)) in array
            .as_slice()?
            .iter()
            .zip(this.actions.iter_mut())
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
        this.run(py, true)?;
        PyTuple::new(
            py,
            [
                this.obs_array(py),
                this.rewards.bind(py).clone().into_any(),
                this.dones.bind(py).clone().into_any(),
                this.mask_array(py),
            ],
        )
    }

    /// A uniformly random legal action for every game (int64 array), drawn from each
    /// game's own generator, seeded from the env's seed and the game's index.
    fn sample_actions<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let py = slf.py();
        let mut this = Self::borrow_mut(slf)?;
        let this = &mut *this;
        let actions = &mut this.actions;
        let inner = &mut this.inner;
        py.detach(|| inner.sample_actions(actions));
        Ok(PyArray1::from_iter(
            py,
            this.actions.iter().map(|&a| a as i64),
        ))
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
