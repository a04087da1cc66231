//! Methods for the cross-check kit and for adapters to other systems (docs/crosscheck.md):
//! perft counted in the engine with the GIL released, and the game-length bound.
//! `native_class!` builds them into each game's class.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A perft depth given from Python: an int from 0 to 1000 (not a bool).
pub fn depth(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    match value.extract::<i64>() {
        Ok(d @ 0..=1000) if !value.is_instance_of::<pyo3::types::PyBool>() => Ok(d as u32),
        _ => Err(PyValueError::new_err(format!(
            "depth must be an int from 0 to 1000, got {}",
            crate::game_class::short_repr(value)
        ))),
    }
}
