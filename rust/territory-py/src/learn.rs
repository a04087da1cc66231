//! Methods for learning code that every game class shares: position strings,
//! observations, legal masks and the fast random-action paths. `learn_methods!` stamps
//! them onto each game's `#[pyclass]` (beside `game_class!`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use territory::PositionError;

/// A position error as a Python `ValueError`.
pub fn bad_position(err: PositionError) -> PyErr {
    PyValueError::new_err(format!("bad position: {err}"))
}

/// The number `u` given from Python, checked to lie in [0, 1).
pub fn unit(u: &Bound<'_, PyAny>) -> PyResult<f64> {
    use pyo3::types::PyFloatMethods;
    let value: Option<f64> = if let Ok(float) = u.cast::<pyo3::types::PyFloat>() {
        Some(float.value())
    } else if u.is_instance_of::<pyo3::types::PyBool>() {
        None
    } else {
        u.extract().ok()
    };
    match value {
        Some(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err(PyValueError::new_err(format!(
            "u must be a number with 0 <= u < 1, got {}",
            u.repr()?
        ))),
    }
}

/// The seat given from Python as `seat=`, or by default (None or not given) the game's
/// [`territory::Learn::viewer`].
pub fn seat_or_viewer<G: territory::Learn>(game: &G, seat: Option<&Bound<'_, PyAny>>) -> PyResult<territory::Seat> {
    match seat {
        Some(s) if !s.is_none() => crate::game_class::seat(s),
        _ => Ok(game.viewer()),
    }
}

/// The array given as `out=`: a C-contiguous numpy array of element type `T` (named
/// `dtype` in messages) and exactly `shape`; a ValueError saying what differs otherwise.
pub fn out_array<'py, T: numpy::Element>(
    out: &Bound<'py, PyAny>,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, numpy::PyArrayDyn<T>>> {
    use numpy::PyUntypedArrayMethods;
    let shown = |s: &[usize]| match s {
        [one] => format!("({one},)"),
        _ => format!("{s:?}").replace('[', "(").replace(']', ")"),
    };
    let Ok(untyped) = out.cast::<numpy::PyUntypedArray>() else {
        return Err(PyValueError::new_err(format!(
            "out must be a numpy array of dtype {dtype} and shape {}, got {}",
            shown(shape),
            crate::game_class::short_repr(out)
        )));
    };
    let Ok(array) = out.cast::<numpy::PyArrayDyn<T>>() else {
        return Err(PyValueError::new_err(format!(
            "out must have dtype {dtype}, got {}",
            untyped.dtype()
        )));
    };
    if untyped.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "out must have shape {}, got {}",
            shown(shape),
            shown(untyped.shape())
        )));
    }
    if !untyped.is_c_contiguous() {
        return Err(PyValueError::new_err(
            "out must be C-contiguous (a whole array, not a strided view)",
        ));
    }
    Ok(array.clone())
}

/// Fills `array` (checked by [`out_array`]) with `fill`.
pub fn fill_out<T: numpy::Element>(
    array: &Bound<'_, numpy::PyArrayDyn<T>>,
    fill: impl FnOnce(&mut [T]),
) -> PyResult<()> {
    use numpy::PyArrayMethods;
    let mut view = array.try_readwrite().map_err(|_| {
        PyValueError::new_err("out must be writeable and not in use by another call")
    })?;
    fill(view.as_slice_mut()?);
    Ok(())
}

#[macro_export]
macro_rules! learn_methods {
    ($class:ident, $game:ty) => {
        #[pymethods]
        impl $class {
            /// The position as one line (docs/positions.md).
            fn position(&self) -> String {
                self.game.position()
            }

            /// A state set up at a position string (docs/positions.md), with an empty
            /// history; the keyword arguments are the game's parameters. Raises
            /// ValueError, saying what and where, for a malformed or impossible position.
            #[classmethod]
            #[pyo3(signature = (text, **params))]
            fn from_position(
                cls: &Bound<'_, pyo3::types::PyType>,
                text: &Bound<'_, PyAny>,
                params: Option<&Bound<'_, pyo3::types::PyDict>>,
            ) -> PyResult<Self> {
                let text: String = text.extract().map_err(|_| {
                    pyo3::exceptions::PyValueError::new_err(format!(
                        "a position must be a string, got {}",
                        text.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?;
                let state = cls.call((), params)?;
                let config = state.extract::<PyRef<'_, Self>>()?.game.config();
                let game =
                    <$game>::from_position(config, &text).map_err($crate::learn::bad_position)?;
                Ok(Self::from_game(game))
            }

            /// The shape (planes, height, width) of `observation()` (docs/observations.md).
            #[getter]
            fn observation_shape(&self) -> (usize, usize, usize) {
                let [c, h, w] = territory::Learn::observation_shape(&self.game);
                (c, h, w)
            }

            /// Observation planes (float32) from the point of view of `seat` (default:
            /// the seat to move, or seat 0 once the game is over). With `out` (a
            /// C-contiguous float32 array of `observation_shape`), fills it in place and
            /// returns it instead of allocating a new array.
            #[pyo3(signature = (seat = None, out = None))]
            fn observation<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
                out: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                let shape = territory::Learn::observation_shape(&self.game);
                let array = match out {
                    Some(out) if !out.is_none() => {
                        $crate::learn::out_array::<f32>(out, "float32", &shape)?
                    }
                    _ => numpy::PyArrayDyn::<f32>::zeros(py, shape.to_vec(), false),
                };
                $crate::learn::fill_out(&array, |values| {
                    territory::Learn::observe_as(&self.game, seat, values)
                })?;
                Ok(array.into_any())
            }

            /// The features a learned network may read beside the observation planes
            /// (float32, 1-D; empty for a game without any; docs/learning.md), from the
            /// point of view of `seat` (default: the seat to move, or seat 0 once over).
            #[pyo3(signature = (seat = None))]
            fn features<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                let mut values = vec![0.0f32; territory::Learn::feature_len(&self.game)];
                territory::Learn::features_as(&self.game, seat, &mut values);
                Ok(numpy::PyArray1::from_vec(py, values))
            }

            /// Who holds each cell (float32, one value per cell in the board's cell
            /// order), from the side of the colour `seat` plays (default: the seat to
            /// move, or seat 0 once over): +1 a stone of that colour, -1 one of the
            /// other, 0 an empty cell; a Migong piece counts its wedges of that colour
            /// less the other's, over 6. At a game's end, what a network's ownership
            /// head learns (docs/learning.md).
            #[pyo3(signature = (seat = None))]
            fn ownership<'py>(
                &self,
                py: Python<'py>,
                seat: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                let mut values = vec![0.0f32; territory::Learn::ownership_len(&self.game)];
                territory::Learn::ownership_as(&self.game, territory::Game::color_of(&self.game, seat), &mut values);
                Ok(numpy::PyArray1::from_vec(py, values))
            }

            /// The score margin for `seat` (default: the seat to move, or seat 0 once
            /// over): its score less the other's where the higher score wins, the
            /// other's less its own where the lower one wins (Nume), so a positive
            /// margin is good for `seat`.
            #[pyo3(signature = (seat = None))]
            fn score_margin(&self, seat: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
                let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                Ok(territory::Learn::score_margin(&self.game, seat) as f64)
            }

            /// (r0, r1): +1 for the winner and -1 for the loser once over; (0, 0) after
            /// a draw or while the game runs.
            fn returns(&self) -> (f64, f64) {
                let [a, b] = territory::Learn::returns(&self.game);
                (a as f64, b as f64)
            }

            /// A bool array of length num_actions, True exactly at the legal actions.
            /// With `out` (a C-contiguous bool array of that length), fills it in place
            /// and returns it instead of allocating a new array.
            #[pyo3(signature = (out = None))]
            fn legal_mask<'py>(
                &self,
                py: Python<'py>,
                out: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let shape = [self.game.num_actions()];
                let array = match out {
                    Some(out) if !out.is_none() => {
                        $crate::learn::out_array::<bool>(out, "bool", &shape)?
                    }
                    _ => numpy::PyArrayDyn::<bool>::zeros(py, shape.to_vec(), false),
                };
                $crate::learn::fill_out(&array, |values| {
                    territory::Learn::legal_mask(&self.game, values)
                })?;
                Ok(array.into_any())
            }

            /// The legal action at index floor(u * L) of legal_actions() (L of them), for
            /// 0 <= u < 1, without listing them. Raises once the game is over.
            fn random_action(&self, u: &Bound<'_, PyAny>) -> PyResult<usize> {
                let u = $crate::learn::unit(u)?;
                territory::Learn::random_action(&self.game, u).ok_or_else(|| {
                    $crate::game_class::illegal(
                        "the game is over: no legal action".into(),
                        "game_over",
                        (),
                    )
                })
            }

            /// Plays `random_action(u)` and returns it.
            fn play_random(slf: &Bound<'_, Self>, u: &Bound<'_, PyAny>) -> PyResult<usize> {
                // `u` is read before the state is borrowed (reading it may run Python).
                let u = $crate::learn::unit(u)?;
                let mut this = Self::borrow_mut(slf)?;
                let mv = territory::Learn::random_legal_move(&this.game, u).ok_or_else(|| {
                    $crate::game_class::illegal(
                        "the game is over: no legal action".into(),
                        "game_over",
                        (),
                    )
                })?;
                let a = this.game.action_of(mv).expect("legal moves have actions");
                this.game.play_unchecked(mv);
                Ok(a)
            }
        }
    };
}
