//! Nume's own reasons for refusing a move (the shared ones are in
//! [`crate::rules::error`]).

use std::fmt;

use super::{Nume, MAX_NUMBER};
use crate::rules::coords::Coord;
use crate::rules::error::{Excerpt, MoveError, Reason};
use crate::rules::game::MoveErrorOf;

/// Not a Nume move at all (each quotes the whole move).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumeInvalid {
    /// A stone's number not written as a plain whole number.
    Number(Excerpt),
    /// A stone's number above [`MAX_NUMBER`].
    NumberTooLarge(Excerpt),
    /// A komi not written as k + 0.5 with k a plain whole number.
    Komi(Excerpt),
    /// A komi k + 0.5 with k above the number of cells.
    KomiTooLarge { text: Excerpt, max: usize },
    /// A colour word other than `black` or `white`.
    ColorWord(Excerpt),
}

impl fmt::Display for NumeInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumeInvalid::Number(text) => write!(
                f,
                "{text}: the number must be a whole number from 0 to {MAX_NUMBER} written plainly"
            ),
            NumeInvalid::NumberTooLarge(text) => write!(
                f,
                "{text}: the number is above the largest allowed, {MAX_NUMBER}"
            ),
            NumeInvalid::Komi(text) => write!(
                f,
                "{text}: the komi must be k + 0.5 with k a whole number, like 2.5"
            ),
            NumeInvalid::KomiTooLarge { text, max } => write!(
                f,
                "{text}: the komi may be at most {max}.5 (the number of cells plus one half)"
            ),
            NumeInvalid::ColorWord(text) => write!(f, "{text}: expected 'black' or 'white'"),
        }
    }
}

impl Reason for NumeInvalid {
    fn kind(&self) -> &'static str {
        match self {
            NumeInvalid::Number(_) => "number",
            NumeInvalid::NumberTooLarge(_) => "number_too_large",
            NumeInvalid::Komi(_) => "komi",
            NumeInvalid::KomiTooLarge { .. } => "komi_too_large",
            NumeInvalid::ColorWord(_) => "color_word",
        }
    }
}

/// A Nume move not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumeIllegal {
    /// The game is over because the board is full.
    BoardFull,
    /// A stone that starts a new group must carry a number.
    NumberRequired(Coord),
    /// A stone that joins a group of its colour must carry no number.
    NumberForbidden(Coord),
    /// The komi phase waits for seat 0's komi.
    KomiFirst,
    /// The komi phase waits for seat 1's colour.
    SideFirst,
    /// A komi or side move outside the komi phase.
    NotKomiPhase,
}

impl fmt::Display for NumeIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumeIllegal::BoardFull => f.write_str("the game is over: the board is full"),
            NumeIllegal::NumberRequired(cell) => write!(
                f,
                "a stone on {cell} starts a new group and must carry a number, like '{cell}=3'"
            ),
            NumeIllegal::NumberForbidden(cell) => write!(
                f,
                "a stone on {cell} joins a group of its colour and must carry no number: play '{cell}'"
            ),
            NumeIllegal::KomiFirst => {
                f.write_str("seat 0 must first choose the komi, like 'komi 2.5 white'")
            }
            NumeIllegal::SideFirst => {
                f.write_str("seat 1 must first choose a colour: 'side black' or 'side white'")
            }
            NumeIllegal::NotKomiPhase => {
                f.write_str("komi and side moves only belong to the komi phase")
            }
        }
    }
}

impl Reason for NumeIllegal {
    fn kind(&self) -> &'static str {
        match self {
            NumeIllegal::BoardFull => "board_full",
            NumeIllegal::NumberRequired(_) => "number_required",
            NumeIllegal::NumberForbidden(_) => "number_forbidden",
            NumeIllegal::KomiFirst => "komi_first",
            NumeIllegal::SideFirst => "side_first",
            NumeIllegal::NotKomiPhase => "not_komi_phase",
        }
    }
}

impl From<NumeInvalid> for MoveErrorOf<Nume> {
    fn from(reason: NumeInvalid) -> Self {
        MoveError::Invalid(reason.into())
    }
}

impl From<NumeIllegal> for MoveErrorOf<Nume> {
    fn from(reason: NumeIllegal) -> Self {
        MoveError::Illegal(reason.into())
    }
}
