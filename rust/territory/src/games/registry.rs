//! The list of games: the one place a new game is added (one line in `game_list!`,
//! which [`for_each_game!`](crate::for_each_game) and the games' module declarations read).
//! Everything that must handle every game (the bindings' classes and dispatch, the
//! Python package's `GAMES`) is built from it.
//!
//! ```
//! use territory::{with_game, Game, GameKind};
//! let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
//! assert!(names.contains(&"tabik") && names.is_sorted());
//! let kind = GameKind::from_name("tabik").unwrap();
//! let actions = with_game!(kind, G => G::new(Default::default()).unwrap().num_actions());
//! assert_eq!(actions, 338);
//! ```

use crate::observe::Learn;
use crate::rules::game::Game;
use crate::rules::params::Configurable;
use crate::search::symmetry::Symmetric;

/// What a game of the registry is, as the compiler checks it: its rules ([`Game`], with
/// its move errors `Game::Invalid` and `Game::Illegal`: `std::convert::Infallible` for a
/// game with no reasons of its own), its parameters described once ([`Configurable`],
/// by `params::configurable!`), its position strings, observations and masks ([`Learn`])
/// and its board's symmetries ([`Symmetric`]: every method has a default, so
/// `impl Symmetric for Toy {}` is a game without any).
///
/// Each game says `impl Contract for Toy {}` beside its type, so that the compiler names
/// every missing piece there, at the game; the registry requires it of every game of
/// `game_list!`, and the bindings (`native_class!`) ask nothing more.
pub trait Contract: Game + Configurable + Learn + Symmetric + 'static {}

/// The list of games, `module::Type` in name order: the game's module in this folder
/// (`games/<module>.rs`, declared from this list by `games/mod.rs`) and its type (also
/// the [`GameKind`] variant). This list is the registry: a new game is one line here.
/// Calls `$callback! { ($($args)*) module::Type, ... }`; most code wants
/// [`for_each_game!`](crate::for_each_game) instead.
#[macro_export]
macro_rules! game_list {
    ($($callback:ident)::+; $($args:tt)*) => {
        $($callback)::+! { ($($args)*)
            migong::Migong,
            nume::Nume,
            tabik::Tabik,
        }
    };
}

/// Calls `$callback! { ($($args)*) Variant: Type, ... }` with every game, in name order
/// (from the registry, `game_list!`).
#[macro_export]
macro_rules! for_each_game {
    ($($callback:ident)::+; $($args:tt)*) => {
        $crate::game_list! { $crate::__game_types; ($($callback)::+) $($args)* }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __game_types {
    ((($($callback:ident)::+) $($args:tt)*) $($module:ident::$game:ident,)*) => {
        $($callback)::+! { ($($args)*) $($game: $crate::games::$module::$game,)* }
    };
}

macro_rules! define_game_kind {
    (() $($variant:ident: $game:ty,)*) => {
        /// One of the games, without a state: names, dispatch with [`with_game!`](crate::with_game).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $($variant,)*
        }

        impl GameKind {
            /// Every game, in name order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant,)*];

            /// The game's lower-case name, [`Game::NAME`].
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$game as Game>::NAME,)*
                }
            }
        }
    };
}
for_each_game!(define_game_kind;);

/// Every game of the list meets the [`Contract`]: checked on the registry's own tokens
/// (`module::Type`, one type), so that a game without `impl Contract` is named at its
/// line of `game_list!`.
macro_rules! check_contract {
    (() $($game:ty,)*) => {
        const _: fn() = || {
            use crate::games::*;
            fn meets_the_contract<G: Contract>() {}
            $(meets_the_contract::<$game>();)*
        };
    };
}
crate::game_list!(check_contract;);

impl GameKind {
    /// The game with a name, if there is one.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// The game's parameters, as its configuration describes them.
    pub fn params(self) -> &'static [crate::rules::params::Param] {
        use crate::rules::params::{Config, Configurable};
        crate::with_game!(self, G => <<G as Configurable>::Config as Config>::PARAMS)
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `with_game!(kind, G => expr)` evaluates `expr` with the type alias `G` naming the
/// game type of `kind` (a [`GameKind`]): static dispatch over every game, no trait
/// objects. Every arm must have the same type.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!($crate::__with_game_arms; $kind, $G, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    (($kind:expr, $G:ident, $body:expr) $($variant:ident: $game:ty,)*) => {
        match $kind {
            $($crate::GameKind::$variant => {
                #[allow(non_camel_case_types, dead_code)]
                type $G = $game;
                $body
            })*
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games' files in `src/games/` are the registry's games: a game's file without
    /// its line in `game_list!` (so never compiled) is noticed.
    #[test]
    fn the_games_modules_are_the_registrys_games() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
        let mut modules: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "rs"))
            .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
            .filter(|module| module != "mod" && module != "registry")
            .collect();
        modules.sort();
        let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
        assert_eq!(modules, games, "the files of src/games/ and the games of game_list!");
    }

    #[test]
    fn names_round_trip_and_dispatch_reaches_each_game() {
        for &kind in GameKind::ALL {
            assert_eq!(GameKind::from_name(kind.name()), Some(kind));
            assert_eq!(kind.to_string(), kind.name());
            let name = with_game!(kind, G => <G as Game>::NAME);
            assert_eq!(name, kind.name());
        }
        assert_eq!(GameKind::from_name("chess"), None);
    }

    /// Along seeded random games of every game: a move's cells are on the board, and
    /// only passes, pie swaps and Nume's komi-phase moves name none.
    #[test]
    fn moves_touch_cells_of_the_board() {
        for &kind in GameKind::ALL {
            with_game!(kind, G => {
                let mut game = G::new(Default::default()).unwrap();
                assert_eq!(game.num_cells(), game.geometry().len());
                let mut rng = crate::rules::playout::game_rng(3, kind as u64);
                while let Some(mv) = game.random_move(&mut rng) {
                    for m in game.legal_moves() {
                        let cells = game.move_cells(m);
                        let text = game.move_text(m);
                        assert!(cells.iter().all(|&c| c < game.num_cells()), "{text}");
                        if G::is_pass(m) || G::is_pie_swap(m) {
                            assert!(cells.is_empty(), "{text}");
                        }
                    }
                    game.play_unchecked(mv);
                }
                let (scores, winner) = game.outcome();
                assert_eq!(winner, G::WIN_RULE.winner(scores, game.last_mover()));
            });
        }
    }
}
