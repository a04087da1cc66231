//! Why a move was refused, as typed values (in the style of shakmaty's errors).
//!
//! [`InvalidMove`]: the text (or move value) is not a move of this game with these
//! parameters at all (syntax, a cell off the board, an unknown piece, a number out of
//! range); it can never be played. [`IllegalMove`]: a real move that is not legal in the
//! current position. [`MoveError`] is either. Every message is short and lower-case and
//! quotes at most [`Excerpt::LIMIT`] characters of the input.

use std::fmt;

use crate::games::migong::Piece;
use crate::rules::coords::Coord;
use crate::rules::game::Color;

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

/// Not a move of this game with these parameters: it can never be played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InvalidMove {
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
    /// Migong: `g7` names the central border, not a cell.
    CentralBorder(Coord),
    /// Migong: not six letters B or Y.
    Piece(Excerpt),
    /// Nume: a stone's number not written as a plain whole number (the whole move).
    Number(Excerpt),
    /// Nume: a stone's number above [`crate::games::nume::MAX_NUMBER`] (the whole move).
    NumberTooLarge(Excerpt),
    /// Nume: a komi not written as k + 0.5 with k a plain whole number (the whole move).
    Komi(Excerpt),
    /// Nume: a komi k + 0.5 with k above the number of cells (the whole move).
    KomiTooLarge { text: Excerpt, max: usize },
    /// Nume: a colour word other than `black` or `white` (the whole move).
    ColorWord(Excerpt),
    /// An action number outside `0..num_actions`.
    Action { action: usize, num_actions: usize },
}

impl fmt::Display for InvalidMove {
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
            InvalidMove::CentralBorder(cell) => {
                write!(f, "{cell} is the central border, not a cell")
            }
            InvalidMove::Piece(text) => write!(
                f,
                "{text} is not a piece: six letters B or Y, for wedges E, NE, NW, W, SW, SE"
            ),
            InvalidMove::Number(text) => write!(
                f,
                "{text}: the number must be a whole number from 0 to {} written plainly",
                crate::games::nume::MAX_NUMBER
            ),
            InvalidMove::NumberTooLarge(text) => write!(
                f,
                "{text}: the number is above the largest allowed, {}",
                crate::games::nume::MAX_NUMBER
            ),
            InvalidMove::Komi(text) => write!(
                f,
                "{text}: the komi must be k + 0.5 with k a whole number, like 2.5"
            ),
            InvalidMove::KomiTooLarge { text, max } => write!(
                f,
                "{text}: the komi may be at most {max}.5 (the number of cells plus one half)"
            ),
            InvalidMove::ColorWord(text) => write!(f, "{text}: expected 'black' or 'white'"),
            InvalidMove::Action {
                action,
                num_actions,
            } => write!(
                f,
                "action must be from 0 to {}, got {action}",
                num_actions.saturating_sub(1)
            ),
        }
    }
}

impl InvalidMove {
    /// A stable short code for this reason (`docs/conventions.md` lists them), carried
    /// by the Python exception as `.kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            InvalidMove::Syntax { .. } => "syntax",
            InvalidMove::CellName(_) => "cell_name",
            InvalidMove::RowZero(_) => "row_zero",
            InvalidMove::OffBoard { .. } => "off_board",
            InvalidMove::CellIndex { .. } => "cell_index",
            InvalidMove::CentralBorder(_) => "central_border",
            InvalidMove::Piece(_) => "piece",
            InvalidMove::Number(_) => "number",
            InvalidMove::NumberTooLarge(_) => "number_too_large",
            InvalidMove::Komi(_) => "komi",
            InvalidMove::KomiTooLarge { .. } => "komi_too_large",
            InvalidMove::ColorWord(_) => "color_word",
            InvalidMove::Action { .. } => "action_out_of_range",
        }
    }
}

impl std::error::Error for InvalidMove {}

/// A move of the game that is not legal in the current position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The game is over: nothing may be played.
    GameOver,
    /// Nume: the game is over because the board is full.
    BoardFull,
    /// A stone or piece already lies on the cell.
    Occupied(Coord),
    /// Tabik: the two squares are not orthogonal neighbours.
    NotAdjacent(Coord, Coord),
    /// Tabik: a stone swap names an empty square.
    NoStoneToSwap(Coord),
    /// Tabik: a stone swap between stones of one colour.
    SameColour(Coord, Coord),
    /// Tabik: a stone swap across an edge that carries a rod.
    Rod(Coord, Coord),
    /// The pie `swap` in a game played without the pie rule.
    PieRuleOff,
    /// The pie `swap` at any time but seat 1's first turn.
    SwapNotNow,
    /// `pass` while `legal` other moves exist.
    PassNotAllowed { legal: usize },
    /// Migong: the piece is not in the mover's set (it lacks the mover's colour).
    NotInSet { piece: Piece, color: Color },
    /// Migong: the mover has already placed this piece.
    AlreadyUsed { piece: Piece, color: Color },
    /// Migong: the wedge facing `direction` (0 = E, counter-clockwise) must be `needed`
    /// to match the piece on `neighbour`, or the border when `None`.
    DoesNotFit {
        piece: Piece,
        cell: Coord,
        direction: usize,
        needed: Color,
        neighbour: Option<Coord>,
    },
    /// Migong: the piece does not fit the cell (a reason the more precise variants above
    /// do not name; the move generator's fit masks decide).
    NoFit { piece: Piece, cell: Coord },
    /// Nume: a stone that starts a new group must carry a number.
    NumberRequired(Coord),
    /// Nume: a stone that joins a group of its colour must carry no number.
    NumberForbidden(Coord),
    /// Nume: the komi phase waits for seat 0's komi.
    KomiFirst,
    /// Nume: the komi phase waits for seat 1's colour.
    SideFirst,
    /// Nume: a komi or side move outside the komi phase.
    NotKomiPhase,
}

const MIGONG_COLORS: [&str; 2] = ["blue", "yellow"];
pub(crate) const DIRECTION_NAMES: [&str; 6] = ["E", "NE", "NW", "W", "SW", "SE"];

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::BoardFull => f.write_str("the game is over: the board is full"),
            IllegalMove::Occupied(cell) => write!(f, "{cell} is occupied"),
            IllegalMove::NotAdjacent(a, b) => write!(f, "squares {a} and {b} are not adjacent"),
            IllegalMove::NoStoneToSwap(c) => write!(f, "square {c} is empty: no stone to swap"),
            IllegalMove::SameColour(a, b) => {
                write!(f, "{a} and {b} hold stones of the same colour")
            }
            IllegalMove::Rod(a, b) => write!(f, "a rod lies between {a} and {b}"),
            IllegalMove::PieRuleOff => f.write_str("swap is not allowed: the pie rule is off"),
            IllegalMove::SwapNotNow => f.write_str("swap is only legal on seat 1's first turn"),
            IllegalMove::PassNotAllowed { legal } => write!(
                f,
                "pass is only legal without other moves, and {legal} are legal"
            ),
            IllegalMove::NotInSet { piece, color } => {
                let name = MIGONG_COLORS[color.index()];
                let letter = if *color == Color::First { "B" } else { "Y" };
                write!(
                    f,
                    "{piece} is not in {name}'s set: {name}'s pieces have at least one {letter} wedge"
                )
            }
            IllegalMove::AlreadyUsed { piece, color } => {
                write!(f, "{} has already used {piece}", MIGONG_COLORS[color.index()])
            }
            IllegalMove::NoFit { piece, cell } => write!(f, "{piece} does not fit on {cell}"),
            IllegalMove::DoesNotFit {
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
            IllegalMove::NumberRequired(cell) => write!(
                f,
                "a stone on {cell} starts a new group and must carry a number, like '{cell}=3'"
            ),
            IllegalMove::NumberForbidden(cell) => write!(
                f,
                "a stone on {cell} joins a group of its colour and must carry no number: play '{cell}'"
            ),
            IllegalMove::KomiFirst => {
                f.write_str("seat 0 must first choose the komi, like 'komi 2.5 white'")
            }
            IllegalMove::SideFirst => {
                f.write_str("seat 1 must first choose a colour: 'side black' or 'side white'")
            }
            IllegalMove::NotKomiPhase => {
                f.write_str("komi and side moves only belong to the komi phase")
            }
        }
    }
}

impl IllegalMove {
    /// A stable short code for this reason (`docs/conventions.md` lists them), carried
    /// by the Python exception as `.kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::BoardFull => "board_full",
            IllegalMove::Occupied(_) => "occupied",
            IllegalMove::NotAdjacent(..) => "not_adjacent",
            IllegalMove::NoStoneToSwap(_) => "no_stone_to_swap",
            IllegalMove::SameColour(..) => "same_colour",
            IllegalMove::Rod(..) => "rod",
            IllegalMove::PieRuleOff => "pie_rule_off",
            IllegalMove::SwapNotNow => "swap_not_now",
            IllegalMove::PassNotAllowed { .. } => "pass_not_allowed",
            IllegalMove::NotInSet { .. } => "not_in_set",
            IllegalMove::AlreadyUsed { .. } => "already_used",
            IllegalMove::DoesNotFit { .. } => "does_not_fit",
            IllegalMove::NoFit { .. } => "no_fit",
            IllegalMove::NumberRequired(_) => "number_required",
            IllegalMove::NumberForbidden(_) => "number_forbidden",
            IllegalMove::KomiFirst => "komi_first",
            IllegalMove::SideFirst => "side_first",
            IllegalMove::NotKomiPhase => "not_komi_phase",
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a move (a string or a move value) cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// Not a move of this game with these parameters.
    Invalid(InvalidMove),
    /// A move of the game, not legal here.
    Illegal(IllegalMove),
}

impl MoveError {
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

impl From<InvalidMove> for MoveError {
    fn from(e: InvalidMove) -> MoveError {
        MoveError::Invalid(e)
    }
}

impl From<IllegalMove> for MoveError {
    fn from(e: IllegalMove) -> MoveError {
        MoveError::Illegal(e)
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {
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
    fn excerpts_are_short_and_escaped() {
        assert_eq!(Excerpt::new("b2-b3").to_string(), "'b2-b3'");
        assert_eq!(Excerpt::new("a\nb").to_string(), "'a\\nb'");
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
