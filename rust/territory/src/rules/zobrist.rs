//! Position keys (Zobrist hashing): fixed pseudo-random tables built at compile time
//! from fixed seeds, so keys are the same in every run, on every machine.
//!
//! Each game keeps the XOR of its board's entries up to date on every move and undo (a
//! few XORs per move) and adds the turn state (side to move, pie, passes, colours) when
//! [`crate::Game::key`] is asked for. `compute_key` methods recompute a key from scratch
//! for tests.

/// The SplitMix64 finaliser: a bijection of `u64` that scatters every input bit.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` pseudo-random keys from `salt`.
pub const fn table<const N: usize>(salt: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = mix(salt ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        i += 1;
    }
    t
}

/// Keys of the turn state shared by Migong and Tabik (see [`turn_key`]).
static TURN: [u64; 5] = table(0x7475_726E);

/// The key of the turn state after `history` (from `start`) for games that follow
/// `crate::rules::turns`: the side to move, whether the pie swap is available and was taken,
/// and how many passes end the actions so far (one pending, or two: over). While the
/// game runs the last mover is implied (the seat before a pending pass, else the seat
/// not to move); once it is over, the key holds the last mover instead of a side to move.
pub fn turn_key<M: Copy + PartialEq>(
    start: &crate::rules::turns::Start,
    history: &[M],
    pass: M,
    pie: bool,
    swapped: bool,
) -> u64 {
    let mut key = 0;
    let passes = crate::rules::turns::passes_in_a_row(start, history, pass);
    // Once over, nobody is to move; the last mover (who loses a zero-zero tie) counts.
    let seat = if passes >= 2 {
        crate::rules::turns::last_mover(start, history, pass)
    } else {
        Some(start.seat_of(history.len()))
    };
    if seat == Some(crate::rules::game::Seat::Second) {
        key ^= TURN[0];
    }
    if swapped {
        key ^= TURN[1];
    }
    if crate::rules::turns::pie_available(pie, start, history) {
        key ^= TURN[2];
    }
    match passes {
        0 => {}
        1 => key ^= TURN[3],
        _ => key ^= TURN[4],
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_key_is_the_xor_of_its_features_entries() {
        let fresh = crate::rules::turns::Start::default();
        let key = |history: &[u8], pie, swapped| turn_key(&fresh, history, 0, pie, swapped);
        assert_eq!(key(&[], true, false), 0, "the first seat to move, nothing else");
        assert_eq!(key(&[1], true, false), TURN[0] ^ TURN[2], "the second seat, offered the swap");
        assert_eq!(key(&[1], false, false), TURN[0]);
        assert_eq!(key(&[1, 2], true, true), TURN[1], "swapped, the first seat to move");
        assert_eq!(key(&[1, 2, 0], false, false), TURN[0] ^ TURN[3], "a pass pending");
        assert_eq!(key(&[1, 2, 0], true, true), TURN[0] ^ TURN[1] ^ TURN[3]);
        assert_eq!(key(&[1, 2, 0, 0], false, false), TURN[0] ^ TURN[4], "over: the last mover");
        assert_eq!(key(&[1, 0, 0], false, false), TURN[4], "over, the first seat the last mover");
    }

    #[test]
    fn the_pie_offer_changes_the_key_by_its_own_entry() {
        use crate::rules::game::Game;
        use crate::{Tabik, TabikConfig};
        let keys = [true, false].map(|pie| {
            let mut game = Tabik::new(TabikConfig { size: 4, pie }).unwrap();
            let first = game.legal_moves()[0];
            let before = game.key();
            game.play_unchecked(first);
            (before, game.key())
        });
        // Before the first move neither offers the swap; after it only the pie game does.
        assert_eq!(keys[0].0, keys[1].0);
        assert_eq!(keys[0].1 ^ keys[1].1, TURN[2]);
        assert_ne!(keys[0].1, keys[1].1);
    }

    #[test]
    fn tables_are_distinct_and_fixed() {
        let t: [u64; 4096] = table(1);
        let mut sorted = t.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), t.len());
        assert_eq!(mix(0), 0);
        assert_eq!(t, table::<4096>(1));
        assert_ne!(t[0], table::<1>(2)[0]);
    }
}
