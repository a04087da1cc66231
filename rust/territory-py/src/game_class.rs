//! The Python class methods every game shares, written once over the engine's `Game`
//! trait. `game_class!` stamps them onto each game's `#[pyclass]`.

use std::sync::{Arc, OnceLock};

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use territory::{Game, GroupInfo, IllegalMove, Seat};

pyo3::import_exception!(territory.errors, IllegalMoveError);

/// Turns an engine error into the Python exception shared with the reference.
pub fn illegal(err: IllegalMove) -> PyErr {
    IllegalMoveError::new_err(err.0)
}

pub fn seat(index: &Bound<'_, PyAny>) -> PyResult<Seat> {
    match index.extract::<i64>() {
        Ok(i @ (0 | 1)) if !index.is_instance_of::<pyo3::types::PyBool>() => {
            Ok(Seat::new(i as usize))
        }
        _ => Err(PyValueError::new_err(format!(
            "seat must be 0 or 1, got {}",
            index.repr()?
        ))),
    }
}

/// The number of an action given from Python, or why it is not one.
pub fn action_index<G: Game>(game: &G, action: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = game.num_actions();
    match action.extract::<i64>() {
        Ok(a) if !action.is_instance_of::<pyo3::types::PyBool>() && (0..n as i64).contains(&a) => {
            Ok(a as usize)
        }
        _ => Err(IllegalMoveError::new_err(format!(
            "action must be an int from 0 to {}, got {}",
            n - 1,
            action.repr()?
        ))),
    }
}

/// A group as `(color, size, cells by name, wedges, numbers, price)`: the fields of
/// `territory.types.Group`, which the Python package wraps it in.
pub type GroupFields = (
    &'static str,
    usize,
    Vec<String>,
    Option<usize>,
    Option<Vec<u32>>,
    Option<u64>,
);

/// A game's groups, ordered by first member.
pub fn groups<G: Game>(game: &G) -> Vec<GroupFields> {
    game.groups()
        .into_iter()
        .map(|g: GroupInfo| {
            let cells = g.cells.iter().map(|&c| game.cell_name(c)).collect();
            (
                G::COLOR_NAMES[g.color.index()],
                g.size,
                cells,
                g.wedges,
                g.numbers,
                g.price,
            )
        })
        .collect()
}

/// The engine game behind each native class, so that code written once over
/// [`territory::GameKind`] reaches the Python class of every game.
pub trait Native: Game {
    type Class: pyo3::PyClass
        + pyo3::type_object::PyTypeInfo
        + Into<pyo3::PyClassInitializer<Self::Class>>;
    fn wrap(game: Self) -> Self::Class;
    fn unwrap(class: &Self::Class) -> &Self;
}

/// The text of a move given from Python, or an IllegalMoveError if it is not a string.
pub fn move_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    value.extract().map_err(|_| {
        IllegalMoveError::new_err(format!(
            "a move must be a string, got {}",
            value.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

/// The Python strings of a game's moves, made once per action number and shared by a
/// state and its copies: listing thousands of legal moves then costs no allocation.
pub struct MoveNames(Vec<OnceLock<Py<PyString>>>);

impl MoveNames {
    pub fn for_game<G: Game>(game: &G) -> Arc<MoveNames> {
        Arc::new(MoveNames(
            (0..game.num_actions()).map(|_| OnceLock::new()).collect(),
        ))
    }

    /// The Python string of a move (made on first use when it has an action number).
    pub fn get<'py, G: Game>(
        &self,
        py: Python<'py>,
        game: &G,
        mv: G::Move,
    ) -> Bound<'py, PyString> {
        match game.action_of(mv) {
            Some(a) => self.0[a]
                .get_or_init(|| PyString::new(py, &mv.to_string()).unbind())
                .bind(py)
                .clone(),
            None => PyString::new(py, &mv.to_string()),
        }
    }
}

pub fn no_undo() -> PyErr {
    PyIndexError::new_err("undo: no action has been played")
}

/// Adds the shared methods to a
/// `#[pyclass] struct $class { game: $game, names: Arc<MoveNames> }`.
#[macro_export]
macro_rules! game_class {
    ($class:ident, $game:ty) => {
        impl $class {
            pub fn from_game(game: $game) -> Self {
                let names = $crate::game_class::MoveNames::for_game(&game);
                Self { game, names }
            }
        }

        impl $crate::game_class::Native for $game {
            type Class = $class;
            fn wrap(game: Self) -> $class {
                $class::from_game(game)
            }
            fn unwrap(class: &$class) -> &Self {
                &class.game
            }
        }

        #[pymethods]
        impl $class {
            /// The game's name: "migong", "nume" or "tabik".
            #[classattr]
            fn game() -> &'static str {
                <$game as Game>::NAME
            }

            /// The seat (0 or 1) to move, or None once the game is over.
            #[getter]
            fn to_move(&self) -> Option<usize> {
                self.game.to_move().map(Seat::index)
            }

            /// The colour a seat plays now.
            fn color_of(&self, seat: &Bound<'_, PyAny>) -> PyResult<&'static str> {
                let seat = $crate::game_class::seat(seat)?;
                Ok(<$game as Game>::COLOR_NAMES[self.game.color_of(seat).index()])
            }

            /// The legal moves as canonical strings, in ascending action order.
            fn legal_moves<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, pyo3::types::PyString>> {
                self.game
                    .legal_moves()
                    .into_iter()
                    .map(|m| self.names.get(py, &self.game, m))
                    .collect()
            }

            /// Plays a move string. Raises IllegalMoveError (state unchanged) if it is
            /// malformed or illegal.
            fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
                let text = $crate::game_class::move_text(r#move)?;
                self.game
                    .play_str(&text)
                    .map(|_| ())
                    .map_err($crate::game_class::illegal)
            }

            /// Takes back the last action and returns its move string.
            fn undo<'py>(
                &mut self,
                py: Python<'py>,
            ) -> PyResult<Bound<'py, pyo3::types::PyString>> {
                let mv = self.game.undo().ok_or_else($crate::game_class::no_undo)?;
                Ok(self.names.get(py, &self.game, mv))
            }

            #[getter]
            fn is_over(&self) -> bool {
                self.game.is_over()
            }

            /// (score of seat 0, score of seat 1) in the current position.
            fn scores(&self) -> (<$game as Game>::Score, <$game as Game>::Score) {
                let s = self.game.scores();
                (s[Seat::First], s[Seat::Second])
            }

            /// The winning seat once over; None while running or after a draw.
            #[getter]
            fn winner(&self) -> Option<usize> {
                self.game.winner().map(Seat::index)
            }

            /// The seat of the last action that was not a pass.
            #[getter]
            fn last_mover(&self) -> Option<usize> {
                self.game.last_mover().map(Seat::index)
            }

            /// The canonical moves played so far.
            #[getter]
            fn history<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, pyo3::types::PyString>> {
                self.game
                    .history()
                    .iter()
                    .map(|&m| self.names.get(py, &self.game, m))
                    .collect()
            }

            /// An independent copy.
            fn copy(&self) -> Self {
                Self {
                    game: self.game.clone(),
                    names: self.names.clone(),
                }
            }

            fn __copy__(&self) -> Self {
                self.copy()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                self.copy()
            }

            /// The groups on the board, ordered by first member, as tuples
            /// `(color, size, cells, wedges, numbers, price)`; `groups()` wraps them.
            fn _groups(&self) -> Vec<$crate::game_class::GroupFields> {
                $crate::game_class::groups(&self.game)
            }

            /// The parameters and their defaults, as a dict (the constructor's keywords).
            #[classmethod]
            fn default_params<'py>(
                cls: &Bound<'py, pyo3::types::PyType>,
            ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                let game = <$game>::new(Default::default())
                    .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
                Self::from_game(game).params(cls.py())
            }

            /// The board's shape, `"hex"` or `"square"`, and its cells in index order as
            /// `(name, x, y)`: (column, row) on square boards, axial (q, r) on hex boards.
            fn geometry(&self) -> (&'static str, Vec<(String, i32, i32)>) {
                let board = self.game.geometry();
                let cells = (0..board.len())
                    .map(|c| {
                        let (x, y) = board.position(c);
                        (board.name(c).to_string(), x, y)
                    })
                    .collect();
                (if board.is_hex() { "hex" } else { "square" }, cells)
            }

            /// The names of the cells a move places on or moves, in the order the move
            /// names them; empty for `pass`, `swap` and Nume's komi-phase moves.
            fn move_cells(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
                let text = $crate::game_class::move_text(r#move)?;
                let mv = self
                    .game
                    .parse_move(&text)
                    .map_err($crate::game_class::illegal)?;
                Ok(self
                    .game
                    .move_cells(mv)
                    .into_iter()
                    .map(|c| self.game.cell_name(c))
                    .collect())
            }

            /// Size of the integer action space (docs/conventions.md).
            #[getter]
            fn num_actions(&self) -> usize {
                self.game.num_actions()
            }

            /// The legal actions, ascending.
            fn legal_actions(&self) -> Vec<usize> {
                self.game
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| self.game.action_of(m))
                    .collect()
            }

            /// Plays an action number. Raises IllegalMoveError (state unchanged) if it is
            /// out of range or illegal.
            fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
                let a = $crate::game_class::action_index(&self.game, action)?;
                let mv = self.game.move_of(a).expect("in range");
                self.game.play(mv).map_err($crate::game_class::illegal)
            }

            /// The move string of an action number.
            fn action_to_move<'py>(
                &self,
                action: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, pyo3::types::PyString>> {
                let a = $crate::game_class::action_index(&self.game, action)?;
                Ok(self.names.get(
                    action.py(),
                    &self.game,
                    self.game.move_of(a).expect("in range"),
                ))
            }

            /// A 64-bit position key (Zobrist): equal for equal positions whatever the
            /// move order, different otherwise with overwhelming probability.
            fn key(&self) -> u64 {
                self.game.key()
            }

            /// The action number of a move string.
            fn move_to_action(&self, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
                let text = $crate::game_class::move_text(r#move)?;
                let mv = self
                    .game
                    .parse_move(&text)
                    .map_err($crate::game_class::illegal)?;
                self.game.action_of(mv).ok_or_else(|| {
                    $crate::game_class::IllegalMoveError::new_err(format!(
                        "'{text}' has no action number"
                    ))
                })
            }

            /// Equal when parameters and histories agree (so position, side to move and
            /// remaining pieces agree too).
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other
                    .cast::<Self>()
                    .map_or(false, |o| self.game == o.borrow().game)
            }

            fn __hash__(&self) -> PyResult<isize> {
                Err(pyo3::exceptions::PyTypeError::new_err(
                    "game states are mutable and unhashable",
                ))
            }
        }
    };
}
