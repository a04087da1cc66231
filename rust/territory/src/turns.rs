//! Turn order shared by Migong and Tabik: seats alternate every action, seat 1 may
//! `swap` colours on its first turn (pie rule), `pass` is forced when nothing else is
//! legal, and two passes in a row end the game.

use crate::game::{Color, Seat};

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
    }
}
