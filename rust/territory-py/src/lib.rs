//! Python bindings of the territory engine: the native module `territory._core`.
//!
//! Thin by design: each game's class is the engine's `Game` plus parameter checking;
//! text diagrams, records and pictures are pure Python (`territory._presentation`), which
//! attaches them to these classes when the package is imported.

use pyo3::prelude::*;

mod crosscheck;
mod env;
mod evaluate;
pub mod game_class;
mod interrupt;
pub mod learn;
mod params;
mod playouts;
mod network;
mod puct;
mod search;

/// Each game's class in the module named like the engine's (`src/tabik.rs`), declared
/// from the engine's registry.
macro_rules! declare_game_classes {
    (() $($module:ident::$game:ident,)*) => {
        $(mod $module;)*
    };
}
territory::game_list!(declare_game_classes;);

/// The games' names for messages: "'migong', 'nume' or 'tabik'", from the registry.
pub fn game_names() -> String {
    let names: Vec<String> = territory::GameKind::ALL
        .iter()
        .map(|k| format!("'{}'", k.name()))
        .collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    interrupt::warm_up_numpy(m.py())?;
    // The package's version: the Cargo workspace's, which maturin also gives the wheel.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Every game of the engine's registry, and `GAMES`: name -> class.
    let games = pyo3::types::PyDict::new(m.py());
    for &kind in territory::GameKind::ALL {
        territory::with_game!(kind, G => {
            m.add_class::<<G as game_class::Native>::Class>()?;
            games.set_item(kind.name(), m.py().get_type::<<G as game_class::Native>::Class>())?;
        });
    }
    m.add("GAMES", games)?;
    playouts::register(m)?;
    evaluate::register(m)?;
    search::register(m)?;
    network::register(m)?;
    puct::register(m)?;
    m.add_class::<env::PyVecEnv>()?;
    m.add_class::<interrupt::PyStop>()?;
    Ok(())
}
