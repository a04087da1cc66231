//! The games, each in its own module, and the [`registry`]: the one list of them.
//!
//! Each game's module is declared here from the registry, and its public types (the
//! game, its configuration, move and error reasons: the module's `exports`) are
//! re-exported by [`exports`], which the crate root re-exports.

pub mod registry;

macro_rules! declare_games {
    (() $($module:ident::$game:ident,)*) => {
        $(pub mod $module;)*

        /// Every game's public types, re-exported at the crate root (`territory::Tabik`).
        pub mod exports {
            $(pub use super::$module::exports::*;)*
        }
    };
}
crate::game_list!(declare_games;);
