//! Python bindings of the territory engine: the native module `territory._core`.
//!
//! Thin by design: each game's class is the engine's `Game` plus parameter checking;
//! text diagrams, records and pictures are pure Python (`territory._presentation`).

use pyo3::prelude::*;

mod env;
pub mod game_class;
pub mod learn;
mod migong;
mod nume;
mod params;
mod playouts;
mod tabik;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<tabik::PyTabik>()?;
    m.add_class::<nume::PyNume>()?;
    m.add_class::<migong::PyMigong>()?;
    playouts::register(m)?;
    m.add_class::<env::PyVecEnv>()?;
    Ok(())
}
