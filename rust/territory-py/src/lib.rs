//! Python bindings of the territory engine: the native module `territory._core`.
//!
//! Thin by design: each game's class is the engine's `Game` plus parameter checking;
//! text diagrams, records and pictures are pure Python (`territory._presentation`).

use pyo3::prelude::*;

mod evaluate;
pub mod game_class;
mod migong;
mod nume;
mod params;
mod playouts;
mod search;
mod tabik;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The package's version: the Cargo workspace's, which maturin also gives the wheel.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<tabik::PyTabik>()?;
    m.add_class::<nume::PyNume>()?;
    m.add_class::<migong::PyMigong>()?;
    playouts::register(m)?;
    evaluate::register(m)?;
    search::register(m)?;
    Ok(())
}
