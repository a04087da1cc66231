//! Migong's own reasons for refusing a move (the shared ones are in
//! [`crate::rules::error`]).

use std::fmt;

use super::{Migong, Piece, COLOR_NAMES, DIRECTION_NAMES};
use crate::rules::coords::Coord;
use crate::rules::error::{Excerpt, MoveError, Reason};
use crate::rules::game::{Color, MoveErrorOf};

/// Not a Migong move at all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MigongInvalid {
    /// `g7` names the central border, not a cell.
    CentralBorder(Coord),
    /// Not six letters B or Y.
    Piece(Excerpt),
}

impl fmt::Display for MigongInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigongInvalid::CentralBorder(cell) => {
                write!(f, "{cell} is the central border, not a cell")
            }
            MigongInvalid::Piece(text) => write!(
                f,
                "{text} is not a piece: six letters B or Y, for wedges E, NE, NW, W, SW, SE"
            ),
        }
    }
}

impl Reason for MigongInvalid {
    fn kind(&self) -> &'static str {
        match self {
            MigongInvalid::CentralBorder(_) => "central_border",
            MigongInvalid::Piece(_) => "piece",
        }
    }
}

/// A Migong move not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MigongIllegal {
    /// The piece is not in the mover's set (it lacks the mover's colour).
    NotInSet { piece: Piece, color: Color },
    /// The mover has already placed this piece.
    AlreadyUsed { piece: Piece, color: Color },
    /// The wedge facing `direction` (0 = E, counter-clockwise) must be `needed` to match
    /// the piece on `neighbour`, or the border when `None`.
    DoesNotFit {
        piece: Piece,
        cell: Coord,
        direction: usize,
        needed: Color,
        neighbour: Option<Coord>,
    },
    /// The piece does not fit the cell (a reason the more precise variants above do not
    /// name; the move generator's fit masks decide).
    NoFit { piece: Piece, cell: Coord },
}

impl fmt::Display for MigongIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MigongIllegal::NotInSet { piece, color } => {
                let name = COLOR_NAMES[color.index()];
                let letter = if *color == Color::First { "B" } else { "Y" };
                write!(
                    f,
                    "{piece} is not in {name}'s set: {name}'s pieces have at least one {letter} wedge"
                )
            }
            MigongIllegal::AlreadyUsed { piece, color } => {
                write!(f, "{} has already used {piece}", COLOR_NAMES[color.index()])
            }
            MigongIllegal::NoFit { piece, cell } => write!(f, "{piece} does not fit on {cell}"),
            MigongIllegal::DoesNotFit {
                piece,
                cell,
                direction,
                needed,
                neighbour,
            } => {
                let needed = if *needed == Color::First { "B" } else { "Y" };
                write!(
                    f,
                    "{piece} does not fit on {cell}: its {} wedge must be {needed} to match ",
                    DIRECTION_NAMES[*direction]
                )?;
                match neighbour {
                    Some(n) => write!(f, "the piece on {n}"),
                    None => f.write_str("the border"),
                }
            }
        }
    }
}

impl Reason for MigongIllegal {
    fn kind(&self) -> &'static str {
        match self {
            MigongIllegal::NotInSet { .. } => "not_in_set",
            MigongIllegal::AlreadyUsed { .. } => "already_used",
            MigongIllegal::DoesNotFit { .. } => "does_not_fit",
            MigongIllegal::NoFit { .. } => "no_fit",
        }
    }
}

impl From<MigongInvalid> for MoveErrorOf<Migong> {
    fn from(reason: MigongInvalid) -> Self {
        MoveError::Invalid(reason.into())
    }
}

impl From<MigongIllegal> for MoveErrorOf<Migong> {
    fn from(reason: MigongIllegal) -> Self {
        MoveError::Illegal(reason.into())
    }
}
