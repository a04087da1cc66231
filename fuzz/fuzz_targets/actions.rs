//! `move_of`/`action_of`/`apply_action` on arbitrary action numbers, in every game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use territory_fuzz::{check_move, check_parsed, migong, nume, tabik, FuzzGame, Input};

fn actions<G: FuzzGame>(mut game: G, input: &mut Input) {
    // Some random moves first, so the actions are tried in a real position.
    let mut rng = territory::rules::playout::game_rng(input.u32() as u64, 0);
    for _ in 0..input.byte() {
        match game.random_move(&mut rng) {
            Some(mv) => game.play(mv).expect("random moves are legal"),
            None => break,
        }
    }
    let legal = game.legal_moves();
    while !input.is_empty() {
        let a = input.u32() as usize;
        let a = if a & 0x8000_0000 != 0 {
            a
        } else {
            a % (game.num_actions() + 2)
        };
        match game.move_of(a) {
            Some(mv) => {
                assert!(a < game.num_actions());
                assert_eq!(game.action_of(mv), Some(a));
                check_parsed(&game, mv);
                check_move(&mut game, mv, &legal);
            }
            None => assert!(a >= game.num_actions(), "action {a} has no move"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    match input.byte() % 3 {
        0 => actions(tabik(&mut input), &mut input),
        1 => actions(nume(&mut input), &mut input),
        _ => actions(migong(&mut input), &mut input),
    }
});
