//! Games played from the fuzz input (shakmaty's `legals_are_legal`): arbitrary strings,
//! arbitrary actions and listed moves; `check` agrees with `legal_moves()`, and whatever
//! is legal plays and undoes cleanly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use territory_fuzz::{fuzz_sequence, migong, nume, tabik, Input};

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    match input.byte() % 3 {
        0 => fuzz_sequence(&mut tabik(&mut input), &mut input),
        1 => fuzz_sequence(&mut nume(&mut input), &mut input),
        _ => fuzz_sequence(&mut migong(&mut input), &mut input),
    }
});
