//! The Python class methods every game shares, written once over the engine's
//! [`territory::Contract`]. [`native_class!`](crate::native_class) declares each game's
//! `#[pyclass]` with them (the helpers of `learn.rs`, `crosscheck.rs` and `params.rs`
//! do the work of its learning, perft and parameter methods).

use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use territory::rules::params::Configurable;
use territory::{ConfigError, Game, GroupInfo, GroupValue, InvalidMove, MoveError, Reason, Seat};

pyo3::import_exception!(territory.errors, IllegalMoveError);
pyo3::import_exception!(territory.errors, InvalidMoveError);
pyo3::import_exception!(territory.errors, StateInUseError);

/// Turns an engine error into the Python exception shared with the reference:
/// `InvalidMoveError` (a subclass of `IllegalMoveError`) for a text that is not a move of
/// the game, `IllegalMoveError` for a move not legal here.
/// The exception carries the reason's stable code as `.kind` and the move as `.move`
/// (`docs/conventions.md`).
pub fn move_error<I: Reason, L: Reason>(
    err: MoveError<I, L>,
    r#move: impl for<'py> IntoPyObjectExt<'py>,
) -> PyErr {
    match err {
        MoveError::Invalid(e) => invalid(e, r#move),
        MoveError::Illegal(e) => illegal(e.to_string(), e.kind(), r#move),
    }
}

/// `InvalidMoveError(message, kind, move)` for a text that is not a move of the game.
pub fn invalid<R: Reason>(
    err: InvalidMove<R>,
    r#move: impl for<'py> IntoPyObjectExt<'py>,
) -> PyErr {
    invalid_move(err.to_string(), err.kind(), r#move)
}

/// `InvalidMoveError(message, kind, move)`.
pub fn invalid_move(
    message: String,
    kind: &'static str,
    r#move: impl for<'py> IntoPyObjectExt<'py>,
) -> PyErr {
    Python::attach(|py| InvalidMoveError::new_err((message, kind, r#move.into_py_any(py).ok())))
}

/// `IllegalMoveError(message, kind, move)`.
pub fn illegal(
    message: String,
    kind: &'static str,
    r#move: impl for<'py> IntoPyObjectExt<'py>,
) -> PyErr {
    Python::attach(|py| IllegalMoveError::new_err((message, kind, r#move.into_py_any(py).ok())))
}

/// The error for a state used while another call still holds it (another thread, or a
/// callback run by a call on the same state).
pub fn in_use(game: &str) -> PyErr {
    StateInUseError::new_err(format!(
        "this {game} state is in use by another call (another thread, or a callback of a \
         call on it): a state is not thread-safe; give each thread its own state.copy()"
    ))
}

/// `repr(value)`, cut to a short prefix when it is long.
pub fn short_repr(value: &Bound<'_, PyAny>) -> String {
    let repr = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    let n = repr.chars().count();
    if n <= 2 * territory::Excerpt::LIMIT {
        repr
    } else {
        let prefix: String = repr.chars().take(territory::Excerpt::LIMIT).collect();
        format!("{prefix}... ({n} characters)")
    }
}

pub fn seat(index: &Bound<'_, PyAny>) -> PyResult<Seat> {
    match index.extract::<i64>() {
        Ok(i @ (0 | 1)) if !index.is_instance_of::<pyo3::types::PyBool>() => {
            Ok(Seat::new(i as usize))
        }
        _ => {
            let (parameter, allowed) = ("seat", "0 or 1");
            let message = format!("{parameter} must be {allowed}, got {}", short_repr(index));
            Err(crate::params::parameter_error(message, parameter, allowed))
        }
    }
}

/// The number of an action given from Python, or why it is not one.
pub fn action_index<G: Game>(game: &G, action: &Bound<'_, PyAny>) -> PyResult<usize> {
    action_below(game.num_actions(), action)
}

/// An action number below `n` given from Python, or why it is not one. Reading it may run
/// Python code (`__index__`).
pub fn action_below(n: usize, action: &Bound<'_, PyAny>) -> PyResult<usize> {
    match action.extract::<i64>() {
        Ok(a) if !action.is_instance_of::<pyo3::types::PyBool>() && (0..n as i64).contains(&a) => {
            Ok(a as usize)
        }
        _ => Err(invalid_move(
            format!(
                "action must be an int from 0 to {}, got {}",
                n - 1,
                short_repr(action)
            ),
            "action_out_of_range",
            action.clone().unbind(),
        )),
    }
}

/// A group as `(color, size, cells by name, extras)`, the extras the game's own fields
/// as `(name, value)` pairs in the game's order: the fields of `territory.types.Group`,
/// which the Python package wraps it in.
pub type GroupFields = (&'static str, usize, Vec<String>, Vec<(&'static str, Extra)>);

/// One of a game's own fields of a group, as Python sees it: a count is an int, numbers
/// a tuple of ints.
pub struct Extra(GroupValue);

impl<'py> IntoPyObject<'py> for Extra {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.0 {
            GroupValue::Count(n) => n.into_bound_py_any(py),
            GroupValue::Numbers(numbers) => PyTuple::new(py, numbers)?.into_bound_py_any(py),
        }
    }
}

/// A game's groups, ordered by first member.
pub fn groups<G: Game>(game: &G) -> Vec<GroupFields> {
    game.groups()
        .into_iter()
        .map(|g: GroupInfo| {
            let cells = g.cells.iter().map(|&c| game.cell_name(c)).collect();
            let extras = g.extras.into_iter().map(|(name, v)| (name, Extra(v)));
            (
                G::COLOR_NAMES[g.color.index()],
                g.size,
                cells,
                extras.collect(),
            )
        })
        .collect()
}

/// The engine game behind each native class, so that code written once over
/// [`territory::GameKind`] reaches the Python class of every game.
pub trait Native: territory::Contract {
    type Class: pyo3::PyClass
        + pyo3::type_object::PyTypeInfo
        + Into<pyo3::PyClassInitializer<Self::Class>>;
    fn wrap(game: Self) -> Self::Class;
    fn unwrap(class: &Self::Class) -> &Self;
}

/// The text of a move given from Python, or an InvalidMoveError if it is not a string.
pub fn move_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    value.extract().map_err(|_| {
        invalid_move(
            format!("a move must be a string, got {}", short_repr(value)),
            "not_a_string",
            value.clone().unbind(),
        )
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
                .get_or_init(|| PyString::new(py, &game.move_text(mv).to_string()).unbind())
                .bind(py)
                .clone(),
            None => PyString::new(py, &game.move_text(mv).to_string()),
        }
    }
}

/// What the parameters alone decide, made once per configuration and shared by every
/// state of it: the start state, which a constructor copies (its board, neighbour tables
/// and fit tables come with it), and the Python strings of the moves.
pub struct Shared<G> {
    start: G,
    names: Arc<MoveNames>,
}

/// The configurations seen so far, each with its [`Shared`] part (a short list: a
/// program uses a handful of configurations, compared with `==`).
pub type Configurations<G> = Mutex<Vec<(<G as Configurable>::Config, Arc<Shared<G>>)>>;

/// At most this many configurations of a game are kept; states of further ones build
/// their own (correct, only slower to construct).
const MAX_CONFIGURATIONS: usize = 64;

/// A game of the registry, with its own list of shared configurations (the engine's
/// [`Configurable`] gives its configuration and start).
pub trait Configured: Game + Configurable + 'static {
    fn configurations() -> &'static Configurations<Self>;
}

/// `impl Configured` for every game of the engine's registry.
macro_rules! configured {
    (() $($variant:ident: $game:ty,)*) => {
        $(impl Configured for $game {
            fn configurations() -> &'static Configurations<Self> {
                static LIST: Configurations<$game> = Mutex::new(Vec::new());
                &LIST
            }
        })*
    };
}
territory::for_each_game!(configured;);

/// The shared part of a configuration: found in the game's list, or made (and listed).
pub fn shared<G: Configured>(config: G::Config) -> Result<Arc<Shared<G>>, ConfigError> {
    let list = G::configurations();
    let find = |list: &[(G::Config, Arc<Shared<G>>)]| {
        list.iter()
            .find(|(c, _)| *c == config)
            .map(|(_, s)| s.clone())
    };
    // A panic while the lock was held cannot leave the list half-written.
    let lock = || list.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = find(&lock()) {
        return Ok(found);
    }
    let start = G::with_config(config)?;
    let made = Arc::new(Shared {
        names: MoveNames::for_game(&start),
        start,
    });
    let mut list = lock();
    if let Some(found) = find(&list) {
        return Ok(found);
    }
    if list.len() < MAX_CONFIGURATIONS {
        list.push((config, made.clone()));
    }
    Ok(made)
}

impl<G: Configured> Shared<G> {
    /// A new game at the start position, with room for its moves.
    pub fn new_game(&self) -> G {
        let mut game = self.start.clone();
        game.reserve_moves();
        game
    }

    pub fn names(&self) -> Arc<MoveNames> {
        self.names.clone()
    }
}

/// The move strings of a game's configuration.
pub fn names_of<G: Configured>(game: &G) -> Arc<MoveNames> {
    match shared::<G>(game.configuration()) {
        Ok(shared) => shared.names(),
        Err(_) => MoveNames::for_game(game),
    }
}

/// A copy of a state with room for the rest of its moves.
pub fn copy_of<G: Game>(game: &G) -> G {
    let mut copy = game.clone();
    copy.reserve_moves();
    copy
}

/// A new state of a configuration, for a constructor called from Python.
pub fn new_state<G: Configured>(config: G::Config) -> PyResult<(G, Arc<MoveNames>)> {
    let shared = shared::<G>(config).map_err(|e| crate::params::config_error(&e))?;
    Ok((shared.new_game(), shared.names()))
}

pub fn no_undo() -> PyErr {
    PyIndexError::new_err("undo: no action has been played")
}

/// A game's Python class: `native_class! { /// doc\n Tabik }` declares
/// `#[pyclass] pub struct Tabik { game: territory::Tabik, names }` (the Python class
/// `territory.Tabik`) with every method the games share: the rules, position strings,
/// observations and masks, perft, the parameters. It asks nothing of the game but the
/// engine's [`territory::Contract`], and needs no imports where it is called: a game's
/// bindings file is this line, its constructor (`#[new]`, whose arguments are the
/// parameters) and what only it has (`board()`).
#[macro_export]
macro_rules! native_class {
    ($(#[$doc:meta])* $game:ident) => {
        $(#[$doc])*
        #[::pyo3::pyclass(module = "territory")]
        pub struct $game {
            pub game: ::territory::$game,
            pub names: ::std::sync::Arc<$crate::game_class::MoveNames>,
        }

        const _: () = {
            use ::pyo3::prelude::*;
            use ::territory::rules::params::Configurable;
            use ::territory::{Game, Learn, Seat};
            type Engine = ::territory::$game;

            impl $game {
                pub fn from_game(game: Engine) -> Self {
                    let names = $crate::game_class::names_of(&game);
                    Self { game, names }
                }

                /// A new state at the start of a configuration (shared parts made once).
                pub fn from_config(
                    config: <Engine as Configurable>::Config,
                ) -> PyResult<Self> {
                    let (game, names) = $crate::game_class::new_state::<Engine>(config)?;
                    Ok(Self { game, names })
                }

                /// The state borrowed for a change, or a clear error if a call on it (in
                /// another thread, or one that called back into Python) still holds it.
                fn borrow_mut<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRefMut<'py, Self>> {
                    slf.try_borrow_mut()
                        .map_err(|_| $crate::game_class::in_use(<Engine as Game>::NAME))
                }
            }

            impl $crate::game_class::Native for Engine {
                type Class = $game;
                fn wrap(game: Self) -> $game {
                    $game::from_game(game)
                }
                fn unwrap(class: &$game) -> &Self {
                    &class.game
                }
            }

            #[::pyo3::pymethods]
            impl $game {
                /// The game's name: "migong", "nume" or "tabik".
                #[classattr]
                fn game() -> &'static str {
                    <Engine as Game>::NAME
                }

                /// The seat (0 or 1) to move, or None once the game is over.
                #[getter]
                fn to_move(&self) -> Option<usize> {
                    self.game.to_move().map(Seat::index)
                }

                /// The colour a seat plays now.
                fn color_of(&self, seat: &Bound<'_, PyAny>) -> PyResult<&'static str> {
                    let seat = $crate::game_class::seat(seat)?;
                    Ok(<Engine as Game>::COLOR_NAMES[self.game.color_of(seat).index()])
                }

                /// The legal moves as canonical strings, in ascending action order.
                fn legal_moves<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, pyo3::types::PyString>> {
                    self.game
                        .legal_moves()
                        .into_iter()
                        .map(|m| self.names.get(py, &self.game, m))
                        .collect()
                }

                /// Plays a move string. Raises InvalidMoveError if it is not a move of this
                /// game, IllegalMoveError if it is not legal here (state unchanged).
                fn play(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
                    // Arguments are read before the state is borrowed: no Python code runs
                    // while a state is borrowed mutably.
                    let text = $crate::game_class::move_text(r#move)?;
                    Self::borrow_mut(slf)?
                        .game
                        .play_str(&text)
                        .map(|_| ())
                        .map_err(|e| $crate::game_class::move_error(e, text.as_str()))
                }

                /// Takes back the last action and returns its move string.
                fn undo<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyString>> {
                    let mut this = Self::borrow_mut(slf)?;
                    let mv = this.game.undo().ok_or_else($crate::game_class::no_undo)?;
                    Ok(this.names.get(slf.py(), &this.game, mv))
                }

                #[getter]
                fn is_over(&self) -> bool {
                    self.game.is_over()
                }

                /// (score of seat 0, score of seat 1) in the current position.
                fn scores(&self) -> (<Engine as Game>::Score, <Engine as Game>::Score) {
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
                        game: $crate::game_class::copy_of(&self.game),
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
                /// `(color, size, cells, [(name, value), ...])`, the last the game's own
                /// fields of a group; `groups()` wraps them.
                fn _groups(&self) -> Vec<$crate::game_class::GroupFields> {
                    $crate::game_class::groups(&self.game)
                }

                /// The parameters and their defaults, as a dict (the constructor's keywords).
                #[classmethod]
                fn default_params<'py>(
                    cls: &Bound<'py, pyo3::types::PyType>,
                ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                    let game = <Engine as Configurable>::with_config(Default::default())
                        .map_err(|e| $crate::params::config_error(&e))?;
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
                        .map_err(|e| $crate::game_class::invalid(e, text.as_str()))?;
                    Ok(self
                        .game
                        .move_cells(mv)
                        .into_iter()
                        .map(|c| self.game.cell_name(c))
                        .collect())
                }

                /// Whether the game's lower score wins (Nume) rather than the higher one:
                /// the engine's win rule.
                #[classattr]
                fn lower_score_wins() -> bool {
                    <Engine as Game>::WIN_RULE.lower_score_wins()
                }

                /// Whether a move (its text) is the game's `pass`.
                fn is_pass(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
                    let text = $crate::game_class::move_text(r#move)?;
                    let mv = self
                        .game
                        .parse_move(&text)
                        .map_err(|e| $crate::game_class::invalid(e, text.as_str()))?;
                    Ok(<Engine as Game>::is_pass(mv))
                }

                /// Whether a move (its text) is the pie rule's `swap`.
                fn is_swap(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
                    let text = $crate::game_class::move_text(r#move)?;
                    let mv = self
                        .game
                        .parse_move(&text)
                        .map_err(|e| $crate::game_class::invalid(e, text.as_str()))?;
                    Ok(<Engine as Game>::is_pie_swap(mv))
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

                /// Plays an action number. Raises InvalidMoveError if it is out of range,
                /// IllegalMoveError if it is not legal here (state unchanged).
                fn apply_action(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<()> {
                    let n = slf
                        .try_borrow()
                        .map_err(|_| $crate::game_class::in_use(<Engine as Game>::NAME))?
                        .game
                        .num_actions();
                    let a = $crate::game_class::action_below(n, action)?;
                    let mut this = Self::borrow_mut(slf)?;
                    let mv = this.game.move_of(a).ok_or_else(|| {
                        $crate::game_class::invalid_move(
                            format!("action {a} is out of range"),
                            "action_out_of_range",
                            a,
                        )
                    })?;
                    this.game.play(mv).map_err(|e| {
                        $crate::game_class::move_error(e, this.game.move_text(mv).to_string())
                    })
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
                        .map_err(|e| $crate::game_class::invalid(e, text.as_str()))?;
                    self.game.action_of(mv).ok_or_else(|| {
                        $crate::game_class::illegal(
                            format!("{} has no action number", territory::Excerpt::new(&text)),
                            "no_action_number",
                            text.as_str(),
                        )
                    })
                }

                /// Equal when parameters and histories agree (so position, side to move and
                /// remaining pieces agree too).
                fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
                    match other.cast::<Self>() {
                        Ok(o) => Ok(self.game
                            == o.try_borrow()
                                .map_err(|_| $crate::game_class::in_use(<Engine as Game>::NAME))?
                                .game),
                        Err(_) => Ok(false),
                    }
                }

                fn __hash__(&self) -> PyResult<isize> {
                    Err(pyo3::exceptions::PyTypeError::new_err(
                        "game states are mutable and unhashable",
                    ))
                }
            }
                #[::pyo3::pymethods]
            impl $game {
                /// The position as one line (docs/positions.md).
                fn position(&self) -> String {
                    self.game.position()
                }

                /// A state set up at a position string (docs/positions.md), with an empty
                /// history; the keyword arguments are the game's parameters. Raises
                /// ValueError, saying what and where, for a malformed or impossible position.
                #[classmethod]
                #[pyo3(signature = (text, **params))]
                fn from_position(
                    cls: &Bound<'_, pyo3::types::PyType>,
                    text: &Bound<'_, PyAny>,
                    params: Option<&Bound<'_, pyo3::types::PyDict>>,
                ) -> PyResult<Self> {
                    let text: String = text.extract().map_err(|_| {
                        pyo3::exceptions::PyValueError::new_err(format!(
                            "a position must be a string, got {}",
                            text.repr().map(|r| r.to_string()).unwrap_or_default()
                        ))
                    })?;
                    let state = cls.call((), params)?;
                    let config = state.extract::<PyRef<'_, Self>>()?.game.configuration();
                    let game =
                        <Engine as ::territory::Learn>::from_position(config, &text).map_err($crate::learn::bad_position)?;
                    Ok(Self::from_game(game))
                }

                /// The shape (planes, height, width) of `observation()` (docs/observations.md).
                #[getter]
                fn observation_shape(&self) -> (usize, usize, usize) {
                    let [c, h, w] = territory::Learn::observation_shape(&self.game);
                    (c, h, w)
                }

                /// Observation planes (float32) from the point of view of `seat` (default:
                /// the seat to move, or seat 0 once the game is over). With `out` (a
                /// C-contiguous float32 array of `observation_shape`), fills it in place and
                /// returns it instead of allocating a new array.
                #[pyo3(signature = (seat = None, out = None))]
                fn observation<'py>(
                    &self,
                    py: Python<'py>,
                    seat: Option<&Bound<'py, PyAny>>,
                    out: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, PyAny>> {
                    let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                    let shape = territory::Learn::observation_shape(&self.game);
                    let array = match out {
                        Some(out) if !out.is_none() => {
                            $crate::learn::out_array::<f32>(out, "float32", &shape)?
                        }
                        _ => numpy::PyArrayDyn::<f32>::zeros(py, shape.to_vec(), false),
                    };
                    $crate::learn::fill_out(&array, |values| {
                        territory::Learn::observe_as(&self.game, seat, values)
                    })?;
                    Ok(array.into_any())
                }

                /// The features a learned network may read beside the observation planes
                /// (float32, 1-D; empty for a game without any; docs/learning.md), from the
                /// point of view of `seat` (default: the seat to move, or seat 0 once over).
                #[pyo3(signature = (seat = None))]
                fn features<'py>(
                    &self,
                    py: Python<'py>,
                    seat: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                    let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                    let mut values = vec![0.0f32; territory::Learn::feature_len(&self.game)];
                    territory::Learn::features_as(&self.game, seat, &mut values);
                    Ok(numpy::PyArray1::from_vec(py, values))
                }

                /// The board's symmetries for training a network on transformed examples,
                /// as index arrays (int64): for each, `(input_source, action_source)`, so
                /// that the network input (observation planes, then features) of the
                /// transformed position is `inputs[input_source]` and its policy over
                /// actions `policy[action_source]` (docs/learning.md; empty for a game
                /// without any).
                fn symmetries<'py>(
                    &self,
                    py: Python<'py>,
                ) -> Vec<(Bound<'py, numpy::PyArray1<i64>>, Bound<'py, numpy::PyArray1<i64>>)> {
                    let array = |v: &[usize]| {
                        numpy::PyArray1::from_vec(py, v.iter().map(|&i| i as i64).collect())
                    };
                    Learn::training_symmetries(&self.game)
                        .iter()
                        .map(|[input, actions]| (array(input), array(actions)))
                        .collect()
                }

                /// Who holds each cell (float32, one value per cell in the board's cell
                /// order), from the side of the colour `seat` plays (default: the seat to
                /// move, or seat 0 once over): +1 a stone of that colour, -1 one of the
                /// other, 0 an empty cell; a Migong piece counts its wedges of that colour
                /// less the other's, over 6. At a game's end, what a network's ownership
                /// head learns (docs/learning.md).
                #[pyo3(signature = (seat = None))]
                fn ownership<'py>(
                    &self,
                    py: Python<'py>,
                    seat: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                    let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                    let mut values = vec![0.0f32; Learn::ownership_len(&self.game)];
                    Learn::ownership_as(&self.game, Game::color_of(&self.game, seat), &mut values);
                    Ok(numpy::PyArray1::from_vec(py, values))
                }

                /// The score margin for `seat` (default: the seat to move, or seat 0 once
                /// over): its score less the other's where the higher score wins, the
                /// other's less its own where the lower one wins (Nume), so a positive
                /// margin is good for `seat`.
                #[pyo3(signature = (seat = None))]
                fn score_margin(&self, seat: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
                    let seat = $crate::learn::seat_or_viewer(&self.game, seat)?;
                    Ok(Learn::score_margin(&self.game, seat) as f64)
                }

                /// (r0, r1): +1 for the winner and -1 for the loser once over; (0, 0) after
                /// a draw or while the game runs.
                fn returns(&self) -> (f64, f64) {
                    let [a, b] = territory::Learn::returns(&self.game);
                    (a as f64, b as f64)
                }

                /// A bool array of length num_actions, True exactly at the legal actions.
                /// With `out` (a C-contiguous bool array of that length), fills it in place
                /// and returns it instead of allocating a new array.
                #[pyo3(signature = (out = None))]
                fn legal_mask<'py>(
                    &self,
                    py: Python<'py>,
                    out: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, PyAny>> {
                    let shape = [self.game.num_actions()];
                    let array = match out {
                        Some(out) if !out.is_none() => {
                            $crate::learn::out_array::<bool>(out, "bool", &shape)?
                        }
                        _ => numpy::PyArrayDyn::<bool>::zeros(py, shape.to_vec(), false),
                    };
                    $crate::learn::fill_out(&array, |values| {
                        territory::Learn::legal_mask(&self.game, values)
                    })?;
                    Ok(array.into_any())
                }

                /// The legal action at index floor(u * L) of legal_actions() (L of them), for
                /// 0 <= u < 1, without listing them. Raises once the game is over.
                fn random_action(&self, u: &Bound<'_, PyAny>) -> PyResult<usize> {
                    let u = $crate::learn::unit(u)?;
                    territory::Learn::random_action(&self.game, u).ok_or_else(|| {
                        $crate::game_class::illegal(
                            "the game is over: no legal action".into(),
                            "game_over",
                            (),
                        )
                    })
                }

                /// Plays `random_action(u)` and returns it.
                fn play_random(slf: &Bound<'_, Self>, u: &Bound<'_, PyAny>) -> PyResult<usize> {
                    // `u` is read before the state is borrowed (reading it may run Python).
                    let u = $crate::learn::unit(u)?;
                    let mut this = Self::borrow_mut(slf)?;
                    let mv = territory::Learn::random_legal_move(&this.game, u).ok_or_else(|| {
                        $crate::game_class::illegal(
                            "the game is over: no legal action".into(),
                            "game_over",
                            (),
                        )
                    })?;
                    let a = this.game.action_of(mv).expect("legal moves have actions");
                    this.game.play_unchecked(mv);
                    Ok(a)
                }
            }
                #[::pyo3::pymethods]
            impl $game {
                /// The number of action sequences `depth` actions long from this position:
                /// the leaves of the game tree `depth` actions deep (passes, the pie swap
                /// and komi-phase moves count like any action; a game that ends sooner
                /// adds nothing; depth 0 gives 1). Counted in the engine, without the GIL; Ctrl-C
                /// stops it within a fraction of a second (KeyboardInterrupt).
                fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
                    let depth = $crate::crosscheck::depth(depth)?;
                    let mut game = self.game.clone();
                    $crate::interrupt::interruptible(py, depth > 2, move |stop| {
                        <Engine as territory::Game>::perft_until(&mut game, depth, stop)
                    })?
                    .map_err(|_| pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted"))
                }

                /// The most actions (passes and the pie swap included) a game with these
                /// parameters can last from the start (docs/conventions.md).
                #[getter]
                fn max_game_length(&self) -> usize {
                    <Engine as territory::Game>::max_game_length(&self.game)
                }
            }
                #[::pyo3::pymethods]
            impl $game {
                /// The parameters, as keyword arguments of the constructor.
                #[getter]
                fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                    $crate::params::dict(py, &self.game.configuration())
                }

                /// Each parameter, in the constructor's order, as a dict: `name`, `kind`
                /// ("int", "int or None", "bool", "choice", "half point or None" or "text"),
                /// `default`, `allowed` (as in the error messages), `help`, and `min` and
                /// `max` for int kinds, `max` (the largest k) for a half point, `choices` for
                /// a choice.
                #[classmethod]
                fn parameters<'py>(
                    cls: &Bound<'py, pyo3::types::PyType>,
                ) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
                    $crate::params::describe::<<Engine as Configurable>::Config>(cls.py())
                }

                /// The engine's own message for these parameters (None when allowed), the
                /// values written as the engine writes them (for tests of the messages).
                #[classmethod]
                #[pyo3(signature = (**params))]
                fn _engine_error(
                    _cls: &Bound<'_, pyo3::types::PyType>,
                    params: Option<&Bound<'_, pyo3::types::PyDict>>,
                ) -> PyResult<Option<String>> {
                    $crate::params::engine_error::<<Engine as Configurable>::Config>(params)
                }
            }
        };
    };
}
