//! Methods for the cross-check kit and for adapters to other systems (docs/crosscheck.md):
//! perft counted in the engine with the GIL released, and the game-length bound.
//! `crosscheck_methods!` stamps them onto each game's `#[pyclass]` (beside `game_class!`).

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

#[macro_export]
macro_rules! crosscheck_methods {
    ($class:ident, $game:ty) => {
        #[pymethods]
        impl $class {
            /// The number of action sequences `depth` actions long from this position:
            /// the leaves of the game tree `depth` actions deep (passes, the pie swap
            /// and komi-phase moves count like any action; a game that ends sooner
            /// adds nothing; depth 0 gives 1). Counted in the engine, without the GIL; Ctrl-C
            /// stops it within a fraction of a second (KeyboardInterrupt).
            fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
                let depth = $crate::crosscheck::depth(depth)?;
                let mut game = self.game.clone();
                $crate::interrupt::interruptible(py, depth > 2, move |stop| {
                    <$game as territory::Game>::perft_until(&mut game, depth, stop)
                })?
                .map_err(|_| pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted"))
            }

            /// The most actions (passes and the pie swap included) a game with these
            /// parameters can last from the start (docs/conventions.md).
            #[getter]
            fn max_game_length(&self) -> usize {
                <$game as territory::Game>::max_game_length(&self.game)
            }
        }
    };
}
