//! Why a move was refused, as typed values (in the style of shakmaty's errors).
//!
//! [`InvalidMove`]: the text (or move value) is not a move of this game with these
//! parameters at all (syntax, a cell off the board, an unknown piece, a number out of
//! range); it can never be played. [`IllegalMove`]: a real move that is not legal in the
//! current position. [`MoveError`] is either. Every message is short and lower-case and
//! quotes at most [`Excerpt::LIMIT`] characters of the input.
//!
//! The reasons every game shares are variants here; a game's own reasons are its own
//! enums (in the game's folder, [`Game::Invalid`](crate::rules::game::Game::Invalid) and
//! [`Game::Illegal`](crate::rules::game::Game::Illegal)), carried by the `Game` variant.
//! A game without reasons of its own uses [`Infallible`]. This module names no game.

use std::convert::Infallible;
use std::fmt;
use std::hash::Hash;

use crate::rules::coords::Coord;

/// A short, printable quotation of user input: at most [`Excerpt::LIMIT`] characters,
/// then "...", and the full length when it was cut.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Excerpt {
    prefix: String,
    /// Length of the whole text in characters, when it was cut.
    cut_from: Option<usize>,
}

impl Excerpt {
    /// Characters kept from the input.
    pub const LIMIT: usize = 40;

    pub fn new(text: &str) -> Excerpt {
        match text.char_indices().nth(Self::LIMIT) {
            None => Excerpt {
                prefix: text.to_owned(),
                cut_from: None,
            },
            Some((end, _)) => Excerpt {
                prefix: text[..end].to_owned(),
                cut_from: Some(text.chars().count()),
            },
        }
    }

    /// The kept prefix (the whole text when it was short).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    pub fn is_cut(&self) -> bool {
        self.cut_from.is_some()
    }
}

/// Single-quoted, with control characters escaped: `'b2-b3'`, `'aaaa...' (5000 characters)`.
impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("'")?;
        for c in self.prefix.chars() {
            if c == '\'' || c == '"' {
                write!(f, "{c}")?;
            } else {
                write!(f, "{}", c.escape_debug())?;
            }
        }
        match self.cut_from {
            Some(n) => write!(f, "...' ({n} characters)"),
            None => f.write_str("'"),
        }
    }
}

impl fmt::Debug for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A game's own reason for refusing a move: printable, with a stable short code.
pub trait Reason: fmt::Display + fmt::Debug + Clone + Eq + Hash + Send + Sync + 'static {
    /// A stable short code for this reason (the game's `docs/games/<game>.md` lists
    /// them), carried by the Python exception as `.kind`.
    fn kind(&self) -> &'static str;
}

/// No reason of the game's own: the game refuses moves only for the shared reasons.
impl Reason for Infallible {
    fn kind(&self) -> &'static str {
        match *self {}
    }
}

/// Not a move of this game with these parameters: it can never be played. `R`: the
/// game's own reasons ([`Game::Invalid`](crate::rules::game::Game::Invalid)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InvalidMove<R = Infallible> {
    /// Not shaped like any move of the game (`examples` lists a few that are).
    Syntax {
        game: &'static str,
        text: Excerpt,
        examples: &'static str,
    },
    /// Not a cell name (a lower-case letter, then a number from 1).
    CellName(Excerpt),
    /// A cell name with row 0, like `a0`: well-formed but off every board.
    RowZero(char),
    /// A cell that is not on the board; `side` is the side of a square board.
    OffBoard { cell: Coord, side: Option<usize> },
    /// A move built in code carries a cell index the board does not have (`cells`: the
    /// board's number of cells).
    CellIndex { cell: usize, cells: usize },
    /// An action number outside `0..num_actions`.
    Action { action: usize, num_actions: usize },
    /// A reason of the game's own.
    Game(R),
}

impl InvalidMove {
    /// A shared reason, as the invalid move of a game with reasons of its own.
    pub fn widen<R>(self) -> InvalidMove<R> {
        match self {
            InvalidMove::Syntax {
                game,
                text,
                examples,
            } => InvalidMove::Syntax {
                game,
                text,
                examples,
            },
            InvalidMove::CellName(text) => InvalidMove::CellName(text),
            InvalidMove::RowZero(letter) => InvalidMove::RowZero(letter),
            InvalidMove::OffBoard { cell, side } => InvalidMove::OffBoard { cell, side },
            InvalidMove::CellIndex { cell, cells } => InvalidMove::CellIndex { cell, cells },
            InvalidMove::Action {
                action,
                num_actions,
            } => InvalidMove::Action {
                action,
                num_actions,
            },
            InvalidMove::Game(never) => match never {},
        }
    }
}

impl<R: Reason> fmt::Display for InvalidMove<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidMove::Syntax {
                game,
                text,
                examples,
            } => write!(f, "{text} is not a {game} move (expected like {examples})"),
            InvalidMove::CellName(text) => write!(
                f,
                "{text} is not a cell name (a letter then a number, like 'b3')"
            ),
            InvalidMove::RowZero(letter) => {
                write!(f, "{letter}0 is off the board (rows are numbered from 1)")
            }
            InvalidMove::OffBoard {
                cell,
                side: Some(k),
            } => write!(f, "square {cell} is off the {k} x {k} board"),
            InvalidMove::OffBoard { cell, side: None } => {
                write!(f, "cell {cell} is not on the board")
            }
            InvalidMove::CellIndex { cell, cells } => write!(
                f,
                "cell index {cell} is not on the board (its cells are 0 to {})",
                cells.saturating_sub(1)
            ),
            InvalidMove::Action {
                action,
                num_actions,
            } => write!(
                f,
                "action must be from 0 to {}, got {action}",
                num_actions.saturating_sub(1)
            ),
            InvalidMove::Game(reason) => fmt::Display::fmt(reason, f),
        }
    }
}

impl<R: Reason> InvalidMove<R> {
    /// A stable short code for this reason (`docs/conventions.md` lists them), carried
    /// by the Python exception as `.kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            InvalidMove::Syntax { .. } => "syntax",
            InvalidMove::CellName(_) => "cell_name",
            InvalidMove::RowZero(_) => "row_zero",
            InvalidMove::OffBoard { .. } => "off_board",
            InvalidMove::CellIndex { .. } => "cell_index",
            InvalidMove::Action { .. } => "action_out_of_range",
            InvalidMove::Game(reason) => reason.kind(),
        }
    }
}

impl<R: Reason> std::error::Error for InvalidMove<R> {}

impl<R: Reason> From<R> for InvalidMove<R> {
    fn from(reason: R) -> InvalidMove<R> {
        InvalidMove::Game(reason)
    }
}

/// A move of the game that is not legal in the current position. `R`: the game's own
/// reasons ([`Game::Illegal`](crate::rules::game::Game::Illegal)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove<R = Infallible> {
    /// The game is over: nothing may be played.
    GameOver,
    /// A stone or piece already lies on the cell.
    Occupied(Coord),
    /// The pie `swap` in a game played without the pie rule.
    PieRuleOff,
    /// The pie `swap` at any time but seat 1's first turn.
    SwapNotNow,
    /// `pass` while `legal` other moves exist.
    PassNotAllowed { legal: usize },
    /// A reason of the game's own.
    Game(R),
}

impl<R: Reason> fmt::Display for IllegalMove<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::Occupied(cell) => write!(f, "{cell} is occupied"),
            IllegalMove::PieRuleOff => f.write_str("swap is not allowed: the pie rule is off"),
            IllegalMove::SwapNotNow => f.write_str("swap is only legal on seat 1's first turn"),
            IllegalMove::PassNotAllowed { legal } => write!(
                f,
                "pass is only legal without other moves, and {legal} are legal"
            ),
            IllegalMove::Game(reason) => fmt::Display::fmt(reason, f),
        }
    }
}

impl<R: Reason> IllegalMove<R> {
    /// A stable short code for this reason (`docs/conventions.md` lists them), carried
    /// by the Python exception as `.kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::Occupied(_) => "occupied",
            IllegalMove::PieRuleOff => "pie_rule_off",
            IllegalMove::SwapNotNow => "swap_not_now",
            IllegalMove::PassNotAllowed { .. } => "pass_not_allowed",
            IllegalMove::Game(reason) => reason.kind(),
        }
    }
}

impl<R: Reason> std::error::Error for IllegalMove<R> {}

impl<R: Reason> From<R> for IllegalMove<R> {
    fn from(reason: R) -> IllegalMove<R> {
        IllegalMove::Game(reason)
    }
}

/// Why a move (a string or a move value) cannot be played. `I` and `L`: the game's own
/// reasons for an invalid and an illegal move ([`MoveErrorOf`](crate::rules::game::MoveErrorOf)
/// names a game's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveError<I = Infallible, L = Infallible> {
    /// Not a move of this game with these parameters.
    Invalid(InvalidMove<I>),
    /// A move of the game, not legal here.
    Illegal(IllegalMove<L>),
}

impl<I: Reason, L: Reason> MoveError<I, L> {
    pub fn is_invalid(&self) -> bool {
        matches!(self, MoveError::Invalid(_))
    }

    /// The stable short code of the reason ([`InvalidMove::kind`], [`IllegalMove::kind`]).
    pub fn kind(&self) -> &'static str {
        match self {
            MoveError::Invalid(e) => e.kind(),
            MoveError::Illegal(e) => e.kind(),
        }
    }
}

impl<I, L> From<InvalidMove<I>> for MoveError<I, L> {
    fn from(e: InvalidMove<I>) -> MoveError<I, L> {
        MoveError::Invalid(e)
    }
}

impl<I, L> From<IllegalMove<L>> for MoveError<I, L> {
    fn from(e: IllegalMove<L>) -> MoveError<I, L> {
        MoveError::Illegal(e)
    }
}

impl<I: Reason, L: Reason> fmt::Display for MoveError<I, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl<I: Reason, L: Reason> std::error::Error for MoveError<I, L> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MoveError::Invalid(e) => Some(e),
            MoveError::Illegal(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_have_their_codes() {
        let shared: [(IllegalMove, &str); 5] = [
            (IllegalMove::GameOver, "game_over"),
            (IllegalMove::Occupied(Coord { col: 1, row: 2 }), "occupied"),
            (IllegalMove::PieRuleOff, "pie_rule_off"),
            (IllegalMove::SwapNotNow, "swap_not_now"),
            (IllegalMove::PassNotAllowed { legal: 3 }, "pass_not_allowed"),
        ];
        for (illegal, kind) in shared {
            assert_eq!(illegal.kind(), kind, "{illegal:?}");
        }
        let said: Vec<String> = [
            IllegalMove::GameOver,
            IllegalMove::Occupied(Coord { col: 1, row: 2 }),
            IllegalMove::PieRuleOff,
            IllegalMove::SwapNotNow,
            IllegalMove::PassNotAllowed { legal: 3 },
        ]
        .iter()
        .map(|illegal: &IllegalMove| illegal.to_string())
        .collect();
        assert_eq!(
            said,
            [
                "the game is over",
                "b3 is occupied",
                "swap is not allowed: the pie rule is off",
                "swap is only legal on seat 1's first turn",
                "pass is only legal without other moves, and 3 are legal",
            ]
        );
        let own = crate::games::tabik::TabikIllegal::NoStoneToSwap(Coord { col: 0, row: 0 });
        assert_eq!(IllegalMove::Game(own).kind(), "no_stone_to_swap");
    }

    #[test]
    fn invalid_moves_have_their_codes_and_words() {
        let cell = Coord { col: 1, row: 2 };
        let cases: [(InvalidMove, &str, &str); 7] = [
            (
                InvalidMove::Syntax { game: "Tabik", text: Excerpt::new("b2+"), examples: "'b2-b3', 'swap'" },
                "syntax",
                "'b2+' is not a Tabik move (expected like 'b2-b3', 'swap')",
            ),
            (
                InvalidMove::CellName(Excerpt::new("2b")),
                "cell_name",
                "'2b' is not a cell name (a letter then a number, like 'b3')",
            ),
            (InvalidMove::RowZero('c'), "row_zero", "c0 is off the board (rows are numbered from 1)"),
            (InvalidMove::OffBoard { cell, side: Some(2) }, "off_board", "square b3 is off the 2 x 2 board"),
            (InvalidMove::OffBoard { cell, side: None }, "off_board", "cell b3 is not on the board"),
            (
                InvalidMove::CellIndex { cell: 40, cells: 36 },
                "cell_index",
                "cell index 40 is not on the board (its cells are 0 to 35)",
            ),
            (
                InvalidMove::Action { action: 9, num_actions: 5 },
                "action_out_of_range",
                "action must be from 0 to 4, got 9",
            ),
        ];
        for (invalid, kind, words) in cases {
            assert_eq!((invalid.kind(), invalid.to_string().as_str()), (kind, words), "{invalid:?}");
        }
    }

    #[test]
    fn a_move_error_carries_its_reasons_code() {
        let invalid: MoveError = InvalidMove::RowZero('c').into();
        let illegal: MoveError = IllegalMove::SwapNotNow.into();
        assert_eq!((invalid.kind(), invalid.is_invalid()), ("row_zero", true));
        assert_eq!((illegal.kind(), illegal.is_invalid()), ("swap_not_now", false));
        use std::error::Error;
        for (error, reason) in [(&invalid, "c0 is off the board (rows are numbered from 1)"), (&illegal, "swap is only legal on seat 1's first turn")] {
            assert_eq!(error.source().map(|s| s.to_string()).as_deref(), Some(reason));
        }
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        assert_eq!(Excerpt::new("b2-b3").to_string(), "'b2-b3'");
        assert_eq!(Excerpt::new("a\nb").to_string(), "'a\\nb'");
        assert_eq!(format!("{:?}", Excerpt::new("a\nb")), "'a\\nb'", "Debug shows what Display shows");
        // Quotes are kept as they are (the excerpt is single-quoted, not a Rust string).
        assert_eq!(Excerpt::new("it's \"b2\"").to_string(), "'it's \"b2\"'");
        let long = "9".repeat(5000);
        let quoted = Excerpt::new(&long).to_string();
        assert_eq!(quoted, format!("'{}...' (5000 characters)", "9".repeat(40)));
        // Cut on a character boundary.
        let wide = "é".repeat(100);
        assert_eq!(Excerpt::new(&wide).prefix().chars().count(), Excerpt::LIMIT);
        assert!(!Excerpt::new(&"x".repeat(40)).is_cut());
        assert!(Excerpt::new(&"x".repeat(41)).is_cut());
    }
}
