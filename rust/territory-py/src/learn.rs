//! Methods for learning code that every game class shares: position strings,
//! observations, legal masks and the fast random-action paths. `native_class!`
//! builds them into each game's class.

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
