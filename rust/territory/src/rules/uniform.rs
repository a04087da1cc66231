//! [`below`]: a uniform draw from `0..n`, the very draw of rand's `random_range(0..n)`,
//! always inlined.
//!
//! The playout loops draw once per move. rand's `random_range` is an ordinary inlining
//! candidate, and once the loops exist in two copies (`cpu::dispatch`) the compiler keeps
//! it out of line, a call per move (measured: 5% more instructions per Nume game). This
//! is the same computation, so seeded results do not change (a test compares the two).

use rand::{Rng, RngExt};

/// A uniform draw from `0..n` (`n` at least 1), drawn from `rng` exactly as
/// `rng.random_range(0..n)` draws it: for `n` up to `u32::MAX`, rand 0.10 takes one
/// `u32` (two when the first lands in the biased zone) and widening multiplication.
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    debug_assert!(n > 0);
    let Ok(range) = u32::try_from(n) else {
        return rng.random_range(0..n);
    };
    let wide = u64::from(rng.next_u32()) * u64::from(range);
    let (mut result, low) = ((wide >> 32) as u32, wide as u32);
    if low > range.wrapping_neg() {
        let next = (u64::from(rng.next_u32()) * u64::from(range)) >> 32;
        result += low.checked_add(next as u32).is_none() as u32;
    }
    result as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::playout::game_rng;

    #[test]
    fn draws_what_random_range_draws() {
        let bounds = [
            1,
            2,
            3,
            7,
            64,
            100,
            255,
            1000,
            65_537,
            1 << 31,
            u32::MAX as usize,
        ];
        for seed in 0..50 {
            let (mut ours, mut theirs) = (game_rng(seed, 1), game_rng(seed, 1));
            for i in 0..2000usize {
                let n = bounds[i % bounds.len()] + (i / bounds.len()) % 3;
                assert_eq!(
                    below(&mut ours, n),
                    theirs.random_range(0..n),
                    "{seed} {i} {n}"
                );
            }
            // Still in step with each other.
            assert_eq!(ours.next_u64(), theirs.next_u64());
        }
    }
}
