//! Tabik's own reasons for refusing a move (the shared ones are in
//! [`crate::rules::error`]). Every Tabik text that is not a move fails for a shared
//! reason, so Tabik has no invalid reasons of its own.

use std::fmt;

use super::Tabik;
use crate::rules::coords::Coord;
use crate::rules::error::{MoveError, Reason};
use crate::rules::game::MoveErrorOf;

/// A Tabik move not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TabikIllegal {
    /// The two squares are not orthogonal neighbours.
    NotAdjacent(Coord, Coord),
    /// A stone swap names an empty square.
    NoStoneToSwap(Coord),
    /// A stone swap between stones of one colour.
    SameColour(Coord, Coord),
    /// A stone swap across an edge that carries a rod.
    Rod(Coord, Coord),
}

impl fmt::Display for TabikIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TabikIllegal::NotAdjacent(a, b) => write!(f, "squares {a} and {b} are not adjacent"),
            TabikIllegal::NoStoneToSwap(c) => write!(f, "square {c} is empty: no stone to swap"),
            TabikIllegal::SameColour(a, b) => {
                write!(f, "{a} and {b} hold stones of the same colour")
            }
            TabikIllegal::Rod(a, b) => write!(f, "a rod lies between {a} and {b}"),
        }
    }
}

impl Reason for TabikIllegal {
    fn kind(&self) -> &'static str {
        match self {
            TabikIllegal::NotAdjacent(..) => "not_adjacent",
            TabikIllegal::NoStoneToSwap(_) => "no_stone_to_swap",
            TabikIllegal::SameColour(..) => "same_colour",
            TabikIllegal::Rod(..) => "rod",
        }
    }
}

impl From<TabikIllegal> for MoveErrorOf<Tabik> {
    fn from(reason: TabikIllegal) -> Self {
        MoveError::Illegal(reason.into())
    }
}
