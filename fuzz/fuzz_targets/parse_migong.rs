//! Any text given to the migong move parser, on any board and parameters.
#![no_main]

use libfuzzer_sys::fuzz_target;
use territory_fuzz::{fuzz_text, migong, Input};

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mut game = migong(&mut input);
    let text = String::from_utf8_lossy(input.0);
    fuzz_text(&mut game, &text);
});
