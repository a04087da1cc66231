//! Validation of constructor parameters coming from Python: every mistake is a
//! `ValueError` naming the parameter and what is allowed.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

fn bad(name: &str, allowed: &str, value: &Bound<'_, PyAny>) -> PyErr {
    let shown = crate::game_class::short_repr(value);
    PyValueError::new_err(format!("{name} must be {allowed}, got {shown}"))
}

// The messages below are formatted only on error: constructors run these on every call.

/// An int (not a bool) from `lo` to `hi`.
pub fn int_in(value: &Bound<'_, PyAny>, name: &str, lo: i64, hi: i64) -> PyResult<usize> {
    if !value.is_instance_of::<PyBool>() && value.is_instance_of::<PyInt>() {
        if let Ok(v) = value.extract::<i64>() {
            if (lo..=hi).contains(&v) {
                return Ok(v as usize);
            }
        }
    }
    Err(bad(name, &format!("an int from {lo} to {hi}"), value))
}

/// A bool.
pub fn boolean(value: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    if !value.is_instance_of::<PyBool>() {
        return Err(bad(name, "True or False", value));
    }
    value.extract()
}

/// A string, one of `choices`.
pub fn choice<'a>(value: &Bound<'_, PyAny>, name: &str, choices: &[&'a str]) -> PyResult<&'a str> {
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        if let Some(found) = choices.iter().find(|c| **c == text) {
            return Ok(found);
        }
    }
    let allowed = format!(
        "one of {}",
        choices
            .iter()
            .map(|c| format!("'{c}'"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Err(bad(name, &allowed, value))
}

/// `None`, or a number (int or float, not bool) of the form k + 0.5 with 0 <= k <= hi.
pub fn half_point(value: &Bound<'_, PyAny>, name: &str, hi: u64) -> PyResult<Option<f64>> {
    if value.is_none() {
        return Ok(None);
    }
    if !value.is_instance_of::<PyBool>()
        && (value.is_instance_of::<PyFloat>() || value.is_instance_of::<PyInt>())
    {
        let v: f64 = value.extract()?;
        let k = v - 0.5;
        if k.is_finite() && k >= 0.0 && k <= hi as f64 && k.fract() == 0.0 {
            return Ok(Some(v));
        }
    }
    let allowed = format!("None or a number k + 0.5 with k a whole number from 0 to {hi}");
    Err(bad(name, &allowed, value))
}

/// A Python object for a constructor's default value (signature defaults are Rust
/// expressions, and a parameter must accept any object to report a `ValueError`).
pub fn default<T>(value: T) -> Py<PyAny>
where
    T: for<'py> IntoPyObject<'py>,
{
    use pyo3::IntoPyObjectExt;
    Python::attach(|py| value.into_py_any(py))
        .unwrap_or_else(|_| unreachable!("plain values convert"))
}
