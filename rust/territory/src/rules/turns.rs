//! Turn order shared by Migong and Tabik: seats alternate every action, seat 1 may
//! `swap` colours on its first turn (pie rule), `pass` is forced when nothing else is
//! legal, and two passes in a row end the game.

use crate::rules::error::{IllegalMove, MoveError};
use crate::rules::game::{Color, Seat};

/// What the turn order was at the position a game started from: the start position
/// (the default) or a position set up from text (`from_position`), before `history`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Start {
    /// Actions before `history`: 0 at the start, 1 on seat 1's first turn, otherwise
    /// 2 or 3 (only its parity, the seat to move, matters then).
    pub ply: u8,
    /// Passes in a row just before `history` (2: the game was over).
    pub passes: u8,
    /// The seat of the last action before `history` that was not a pass.
    pub last_mover: Option<Seat>,
}

impl Start {
    /// The seat that makes action `i` of the history.
    #[inline]
    pub fn seat_of(&self, i: usize) -> Seat {
        Seat::of_ply(self.ply as usize + i)
    }
}

/// How many passes in a row end the actions so far (2 or more: the game is over).
pub fn passes_in_a_row<M: Copy + PartialEq>(start: &Start, history: &[M], pass: M) -> usize {
    match history {
        [.., a, b] if *a == pass && *b == pass => 2,
        [] => start.passes as usize,
        [a] if *a == pass => 1 + start.passes as usize,
        [.., b] if *b == pass => 1,
        _ => 0,
    }
}

/// The seat to move after `history`, or `None` once two passes ended the game.
pub fn to_move<M: Copy + PartialEq>(start: &Start, history: &[M], pass: M) -> Option<Seat> {
    (passes_in_a_row(start, history, pass) < 2).then(|| start.seat_of(history.len()))
}

/// The seat of the last action that was not a pass.
pub fn last_mover<M: Copy + PartialEq>(start: &Start, history: &[M], pass: M) -> Option<Seat> {
    match history.iter().rposition(|&m| m != pass) {
        Some(i) => Some(start.seat_of(i)),
        None => start.last_mover,
    }
}

/// Whether the pie `swap` is legal now: on seat 1's first turn, i.e. after one action.
pub fn pie_available<M>(pie: bool, start: &Start, history: &[M]) -> bool {
    pie && start.ply as usize + history.len() == 1
}

/// Why the pie `swap` is not legal now, if it is not; decided by [`pie_available`].
pub fn check_pie_swap<M, I, L>(
    pie: bool,
    start: &Start,
    history: &[M],
) -> Result<(), MoveError<I, L>> {
    if pie_available(pie, start, history) {
        Ok(())
    } else if !pie {
        Err(IllegalMove::PieRuleOff.into())
    } else {
        Err(IllegalMove::SwapNotNow.into())
    }
}

/// Why `pass` is not legal when `others` other actions are: it is legal exactly when
/// nothing else is.
pub fn check_pass<I, L>(others: usize) -> Result<(), MoveError<I, L>> {
    match others {
        0 => Ok(()),
        legal => Err(IllegalMove::PassNotAllowed { legal }.into()),
    }
}

/// The colour a seat plays: seat 0 the first colour, unless the pie swap was taken.
pub fn color_of(seat: Seat, swapped: bool) -> Color {
    match (seat, swapped) {
        (Seat::First, false) | (Seat::Second, true) => Color::First,
        _ => Color::Second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_passes_end_the_game() {
        let s = &Start::default();
        assert_eq!(to_move(s, &[1, 0], 0), Some(Seat::First));
        assert_eq!(to_move(s, &[1, 0, 0], 0), None);
        assert_eq!(to_move(s, &[0, 1, 0], 0), Some(Seat::Second));
        assert_eq!(last_mover(s, &[1, 2, 0, 0], 0), Some(Seat::Second));
        assert_eq!(last_mover::<i32>(s, &[], 0), None);
        assert!(
            pie_available(true, s, &[1])
                && !pie_available(true, s, &[1, 2])
                && !pie_available(false, s, &[1])
        );
        let set_up = &Start {
            ply: 3,
            passes: 1,
            last_mover: Some(Seat::First),
        };
        assert_eq!(to_move(set_up, &[], 0), Some(Seat::Second));
        assert_eq!(to_move(set_up, &[0], 0), None);
        assert_eq!(last_mover(set_up, &[0], 0), Some(Seat::First));
        assert_eq!(last_mover(set_up, &[1], 0), Some(Seat::Second));
        assert_eq!(color_of(Seat::First, true), Color::Second);
        let pie =
            |on: bool, history: &[i32]| -> Result<(), MoveError> { check_pie_swap(on, s, history) };
        assert!(pie(true, &[1]).is_ok());
        assert_eq!(pie(false, &[1]), Err(IllegalMove::PieRuleOff.into()));
        assert_eq!(pie(true, &[1, 2]), Err(IllegalMove::SwapNotNow.into()));
        let pass = |others| -> Result<(), MoveError> { check_pass(others) };
        assert!(pass(0).is_ok() && pass(3).is_err());
    }

    #[test]
    fn passes_in_a_row_counts_the_passes_before_the_history_too() {
        let fresh = &Start::default();
        let one_pass_before = &Start {
            ply: 3,
            passes: 1,
            last_mover: Some(Seat::First),
        };
        for (start, before) in [(fresh, 0), (one_pass_before, 1)] {
            assert_eq!(passes_in_a_row(start, &[], 0), before);
            assert_eq!(passes_in_a_row(start, &[0], 0), before + 1);
            assert_eq!(
                passes_in_a_row(start, &[1], 0),
                0,
                "a move ends the passes before it"
            );
            assert_eq!(passes_in_a_row(start, &[1, 0], 0), 1);
            assert_eq!(passes_in_a_row(start, &[0, 1], 0), 0);
            assert_eq!(passes_in_a_row(start, &[1, 0, 0], 0), 2);
            assert_eq!(passes_in_a_row(start, &[0, 0, 1, 2], 0), 0);
        }
    }
}
