//! Position strings (docs/positions.md): the pieces every game's `position()` and
//! `from_position()` share: errors that say where, fields, boards written row by row
//! with run-length empties, and the turn fields of Migong and Tabik.

use std::fmt;
use std::sync::Arc;

use crate::rules::board::Board;
use crate::rules::game::Seat;
use crate::rules::turns::Start;

/// Why a position string was rejected, and where: the 1-based column of the offending
/// character or field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub column: usize,
    pub message: String,
}

impl PositionError {
    pub fn new(column: usize, message: impl Into<String>) -> PositionError {
        PositionError {
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for PositionError {}

/// One space-separated field of a position and its 1-based starting column.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    pub text: &'a str,
    pub column: usize,
    pub name: &'static str,
}

impl Field<'_> {
    /// An error about this field.
    pub fn error(&self, message: impl fmt::Display) -> PositionError {
        PositionError::new(
            self.column,
            format!(
                "{} field {}: {message}",
                self.name,
                crate::rules::error::Excerpt::new(self.text)
            ),
        )
    }

    /// One of `choices` (by position in the list), or an error listing them.
    pub fn choice(&self, choices: &[&str]) -> Result<usize, PositionError> {
        choices.iter().position(|c| *c == self.text).ok_or_else(|| {
            self.error(format!(
                "expected one of {}",
                choices
                    .iter()
                    .map(|c| format!("'{c}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }
}

/// Splits a position into exactly `names.len()` fields separated by single spaces.
pub fn fields<'a>(text: &'a str, names: &[&'static str]) -> Result<Vec<Field<'a>>, PositionError> {
    let mut out = Vec::with_capacity(names.len());
    let mut column = 1;
    for part in text.split(' ') {
        if part.is_empty() {
            return Err(PositionError::new(
                column,
                "empty field (fields are separated by single spaces)",
            ));
        }
        if out.len() == names.len() {
            return Err(PositionError::new(
                column,
                format!(
                    "too many fields: a position has {} ({})",
                    names.len(),
                    names.join(", ")
                ),
            ));
        }
        out.push(Field {
            text: part,
            column,
            name: names[out.len()],
        });
        column += part.chars().count() + 1;
    }
    if out.len() < names.len() {
        return Err(PositionError::new(
            column - 1,
            format!(
                "too few fields: expected {} ({}), got {}",
                names.len(),
                names.join(", "),
                out.len()
            ),
        ));
    }
    Ok(out)
}

/// The rows of a board as written in a position: cell indices by row, `None` marking a
/// slot that is not a cell (Migong's central border, written `*`). Hex boards are
/// written from row 1 down (north at the top), square boards from the top row down to
/// row 1, as the diagrams draw them.
pub fn rows(board: &Board, top_first: bool, gaps: &[(i32, i32)]) -> Vec<Vec<Option<usize>>> {
    let mut rows: Vec<Vec<(i32, Option<usize>)>> = Vec::new();
    let mut last_row = None;
    for cell in 0..board.len() {
        let (q, r) = board.position(cell);
        if last_row != Some(r) {
            rows.push(Vec::new());
            last_row = Some(r);
        }
        rows.last_mut().expect("a row").push((q, Some(cell)));
    }
    for &(gq, gr) in gaps {
        for row in rows.iter_mut() {
            let Some((_, Some(first))) = row.first().copied() else {
                continue;
            };
            if board.position(first).1 == gr {
                let at = row.iter().position(|&(q, _)| q > gq).unwrap_or(row.len());
                row.insert(at, (gq, None));
            }
        }
    }
    let mut rows: Vec<Vec<Option<usize>>> = rows
        .into_iter()
        .map(|row| row.into_iter().map(|(_, c)| c).collect())
        .collect();
    if top_first {
        rows.reverse();
    }
    rows
}

/// Writes a board: rows separated by `/`, runs of empty cells as numbers, `*` for a
/// gap, and `piece(cell)` for an occupied cell.
pub fn write_board(
    rows: &[Vec<Option<usize>>],
    mut piece: impl FnMut(usize) -> Option<String>,
) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut run = 0;
        for slot in row {
            let text = match slot {
                None => Some("*".to_string()),
                Some(cell) => piece(*cell),
            };
            match text {
                None => run += 1,
                Some(text) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push_str(&text);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out
}

/// Reads a board written by [`write_board`]. `piece(rest)` reads the piece at the start
/// of `rest` (a non-digit), giving it and the number of bytes it takes, or an error
/// message. Returns each occupied cell with its piece and column.
pub fn read_board<T>(
    field: &Field<'_>,
    rows: &[Vec<Option<usize>>],
    mut piece: impl FnMut(&str) -> Result<(T, usize), String>,
) -> Result<Vec<(usize, T, usize)>, PositionError> {
    let text = field.text;
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != rows.len() {
        return Err(PositionError::new(
            field.column,
            format!(
                "board: expected {} rows separated by '/', got {}",
                rows.len(),
                parts.len()
            ),
        ));
    }
    let mut out = Vec::new();
    let mut offset = 0; // byte offset of the row in the field
    for (r, (part, row)) in parts.iter().zip(rows).enumerate() {
        let col = |byte: usize| field.column + text[..offset + byte].chars().count();
        let too_long = |byte: usize| {
            PositionError::new(
                col(byte),
                format!("board row {} is longer than its {} cells", r + 1, row.len()),
            )
        };
        let mut slot = 0;
        let mut i = 0;
        let bytes = part.as_bytes();
        while i < bytes.len() {
            let start = i;
            if bytes[i].is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let run: usize = part[start..i].parse().unwrap_or(usize::MAX);
                if run == 0 || part[start..].starts_with('0') {
                    return Err(PositionError::new(
                        col(start),
                        "a run of empty cells is a number from 1, without leading zeros",
                    ));
                }
                for _ in 0..run {
                    match row.get(slot) {
                        Some(Some(_)) => slot += 1,
                        Some(None) => {
                            return Err(PositionError::new(
                                col(start),
                                "a run of empty cells crosses the central border '*'",
                            ))
                        }
                        None => return Err(too_long(start)),
                    }
                }
                continue;
            }
            if bytes[i] == b'*' {
                match row.get(slot) {
                    Some(None) => {
                        slot += 1;
                        i += 1;
                        continue;
                    }
                    Some(Some(_)) => {
                        return Err(PositionError::new(
                            col(start),
                            "'*' marks the central border, which is not here",
                        ))
                    }
                    None => return Err(too_long(start)),
                }
            }
            let (value, len) =
                piece(&part[start..]).map_err(|m| PositionError::new(col(start), m))?;
            match row.get(slot) {
                Some(Some(cell)) => out.push((*cell, value, col(start))),
                Some(None) => {
                    return Err(PositionError::new(
                        col(start),
                        "the central border '*' belongs here",
                    ))
                }
                None => return Err(too_long(start)),
            }
            slot += 1;
            i += len.max(1);
        }
        if slot != row.len() {
            return Err(PositionError::new(
                col(part.len()),
                format!(
                    "board row {} describes {} of its {} slots",
                    r + 1,
                    slot,
                    row.len()
                ),
            ));
        }
        offset += part.len() + 1;
    }
    Ok(out)
}

/// The character of a seat (`0`, `1`) or of none (`-`).
pub fn seat_char(seat: Option<Seat>) -> char {
    match seat {
        Some(Seat::First) => '0',
        Some(Seat::Second) => '1',
        None => '-',
    }
}

/// The turn fields of Migong and Tabik: `<to move> <pie> <passes> <last mover>`.
pub fn write_turn<M: Copy + PartialEq>(
    pie: bool,
    start: &Start,
    history: &[M],
    pass: M,
    swapped: bool,
) -> String {
    let to_move = crate::rules::turns::to_move(start, history, pass);
    let ply = start.ply as usize + history.len();
    let trailing = history.iter().rev().take_while(|&&m| m == pass).count();
    let passes = if trailing == history.len() {
        trailing + start.passes as usize
    } else {
        trailing
    }
    .min(2);
    let pie = match (pie, swapped, ply) {
        (false, _, _) => '-',
        (true, true, _) => 's',
        (true, false, 0) => 'w',
        (true, false, 1) => 'a',
        _ => '-',
    };
    format!(
        "{} {pie} {passes} {}",
        seat_char(to_move),
        seat_char(crate::rules::turns::last_mover(start, history, pass))
    )
}

/// Reads the turn fields written by [`write_turn`]: the turn order and whether the pie
/// swap was taken.
pub fn read_turn(pie: bool, f: &[Field<'_>]) -> Result<(Start, bool), PositionError> {
    let [to_move, pie_field, passes, last] = f else {
        unreachable!("four turn fields")
    };
    let seat = |field: &Field<'_>| -> Result<Option<Seat>, PositionError> {
        Ok(match field.choice(&["0", "1", "-"])? {
            2 => None,
            i => Some(Seat::new(i)),
        })
    };
    let mover = seat(to_move)?;
    let last_mover = seat(last)?;
    let passes_n = passes.choice(&["0", "1", "2"])? as u8;
    let pie_state = pie_field.choice(&["w", "a", "s", "-"])?;
    if (passes_n == 2) != mover.is_none() {
        return Err(to_move.error(
            "the seat to move is '-' exactly when two passes ended the game (passes field 2)",
        ));
    }
    if !pie && pie_state != 3 {
        return Err(pie_field.error("the pie rule is off, so the pie field must be '-'"));
    }
    let ply = match pie_state {
        0 => {
            if mover != Some(Seat::First) || passes_n != 0 || last_mover.is_some() {
                return Err(pie_field.error(
                    "'w' (seat 1's first turn still to come) needs seat 0 to move, no passes and no last mover",
                ));
            }
            0
        }
        1 => {
            if mover != Some(Seat::Second) {
                return Err(pie_field.error("'a' (swap available now) needs seat 1 to move"));
            }
            1
        }
        _ => 2 + mover.map_or(0, |s| s.index() as u8),
    };
    if pie_state == 2 && last_mover.is_none() {
        return Err(last.error("the swap was taken, so someone has moved"));
    }
    match (passes_n, mover, last_mover) {
        (0, Some(m), Some(l)) if l == m => {
            return Err(last
                .error("without a pending pass, the last move was made by the seat not to move"))
        }
        (1, Some(m), Some(l)) if l != m => return Err(last.error(
            "after one pass, the last move was made by the seat to move (before the other passed)",
        )),
        _ => {}
    }
    Ok((
        Start {
            ply,
            passes: passes_n,
            last_mover,
        },
        pie_state == 2,
    ))
}

/// Checks the turn fields of a position with an empty board (Migong, Tabik) against
/// those of the start position, `start_turn` (e.g. `0 w 0 -`): every action but a pass
/// or the pie swap puts pieces on the board, the swap needs a placement before it, and a
/// pass is only legal without other moves, which an empty board always has. So an empty
/// board is only ever seen at the start.
pub fn check_empty_board_turn(turn: &[Field<'_>], start_turn: &str) -> Result<(), PositionError> {
    for (field, expected) in turn.iter().zip(start_turn.split(' ')) {
        if field.text != expected {
            return Err(field.error(format!(
                "the board is empty, so nothing was placed yet: only the start's turn \
                 fields '{start_turn}' go with it"
            )));
        }
    }
    Ok(())
}

/// Whether two games were set up from the same position (both from the start, or
/// from equal positions).
pub fn same_setup<G>(
    a: &Option<Arc<G>>,
    b: &Option<Arc<G>>,
    position: impl Fn(&G) -> String,
) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b) || position(a) == position(b),
        _ => false,
    }
}

/// Parses a whole number with no sign or leading zeros, at most `max`.
pub fn number(text: &str, max: u64) -> Option<u64> {
    if text.is_empty()
        || !text.bytes().all(|b| b.is_ascii_digit())
        || (text.len() > 1 && text.starts_with('0'))
    {
        return None;
    }
    text.parse::<u64>().ok().filter(|&n| n <= max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pie field 'w' (seat 1's first turn still to come) is read only with seat 0
    /// to move, no pass and no last mover.
    #[test]
    fn the_pie_still_to_come_needs_the_first_turn() {
        let names = ["to move", "pie", "passes", "last mover"];
        let read = |text: &str| read_turn(true, &fields(text, &names).unwrap());
        assert!(read("0 w 0 -").is_ok());
        for text in ["1 w 0 -", "0 w 1 -", "0 w 0 1"] {
            let err = read(text).unwrap_err();
            assert_eq!(err.column, 3, "{text}: {err}");
            assert!(err.to_string().contains("'w' (seat 1's first turn"), "{text}: {err}");
        }
    }

    #[test]
    fn a_position_error_says_its_column_and_what_is_wrong() {
        assert_eq!(PositionError::new(7, "unknown turn 'q'").to_string(), "column 7: unknown turn 'q'");
    }

    #[test]
    fn numbers_are_plain_digits_without_sign_or_leading_zero_up_to_the_bound() {
        assert_eq!(number("0", 9), Some(0));
        assert_eq!(number("907", 907), Some(907));
        assert_eq!(number(&u64::MAX.to_string(), u64::MAX), Some(u64::MAX));
        // `str::parse` would take a sign, spaces are not digits, and "07" is not plain.
        for text in ["", "+5", "-5", " 5", "5 ", "07", "00", "5a", "908", "18446744073709551616"] {
            assert_eq!(number(text, 907), None, "{text:?}");
        }
    }

    #[test]
    fn set_ups_are_the_same_when_their_positions_are() {
        let text = |s: &String| s.clone();
        let (a, b) = (Some(Arc::new("x 1".to_string())), Some(Arc::new("x 1".to_string())));
        assert!(same_setup(&a, &b, text), "set up apart from equal positions");
        assert!(same_setup(&a, &a.clone(), text));
        assert!(same_setup::<String>(&None, &None, text));
        assert!(!same_setup(&a, &Some(Arc::new("x 2".to_string())), text));
        assert!(!same_setup(&a, &None, text) && !same_setup(&None, &a, text));
    }
}
