//! Turn order shared by Migong and Tabik: seats alternate every action, seat 1 may
//! `swap` colours on its first turn (pie rule), `pass` is forced when nothing else is
//! legal, and two passes in a row end the game.

use crate::game::{Color, IllegalMove, Seat};

/// The seat to move after `history`, or `None` once two passes ended the game.
pub fn to_move<M: Copy + PartialEq>(history: &[M], pass: M) -> Option<Seat> {
    match history {
        [.., a, b] if *a == pass && *b == pass => None,
        _ => Some(Seat::of_ply(history.len())),
    }
}

/// The seat of the last action that was not a pass.
pub fn last_mover<M: Copy + PartialEq>(history: &[M], pass: M) -> Option<Seat> {
    history.iter().rposition(|&m| m != pass).map(Seat::of_ply)
}

/// Whether the pie `swap` is legal now: on seat 1's first turn, i.e. after one action.
pub fn pie_available<M>(pie: bool, history: &[M]) -> bool {
    pie && history.len() == 1
}

/// Why the pie `swap` is not legal now, if it is not; decided by [`pie_available`].
pub fn check_pie_swap<M>(pie: bool, history: &[M]) -> Result<(), IllegalMove> {
    if pie_available(pie, history) {
        Ok(())
    } else if !pie {
        Err(IllegalMove::new("swap is not allowed: the pie rule is off"))
    } else {
        Err(IllegalMove::new(
            "swap is only legal on seat 1's first turn",
        ))
    }
}

/// Why `pass` is not legal when `others` other actions are: it is legal exactly when
/// nothing else is.
pub fn check_pass(others: usize) -> Result<(), IllegalMove> {
    match others {
        0 => Ok(()),
        n => Err(IllegalMove::new(format!(
            "pass is only legal without other moves, and {n} are legal"
        ))),
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
        assert_eq!(to_move(&[1, 0], 0), Some(Seat::First));
        assert_eq!(to_move(&[1, 0, 0], 0), None);
        assert_eq!(to_move(&[0, 1, 0], 0), Some(Seat::Second));
        assert_eq!(last_mover(&[1, 2, 0, 0], 0), Some(Seat::Second));
        assert_eq!(last_mover::<i32>(&[], 0), None);
        assert!(
            pie_available(true, &[1])
                && !pie_available(true, &[1, 2])
                && !pie_available(false, &[1])
        );
        assert_eq!(color_of(Seat::First, true), Color::Second);
        assert!(check_pie_swap(true, &[1]).is_ok());
        assert!(check_pie_swap(false, &[1]).is_err() && check_pie_swap(true, &[1, 2]).is_err());
        assert!(check_pass(0).is_ok() && check_pass(3).is_err());
    }
}
