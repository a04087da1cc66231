//! The width of Nume's cell sets, chosen once per configuration.
//!
//! A position always stores its sets as [`Bits`] (256 cells), but on a board of at most
//! 64 cells (hex n <= 4, squares up to 8 x 8) only the first word can be non-zero. The
//! hot paths (drawing a random move, placing a stone) are written once, generic over
//! [`CellSet`], and run on a plain `u64` view of the first word on such boards: one
//! word to combine, count and select instead of four.

use std::ops::{BitAnd, BitOr, Not};

use crate::bitset::Bits;

/// A set of cells the hot paths compute with: `u64` (cells 0 to 63) or [`Bits`].
pub(super) trait CellSet:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// The set read from stored bits (which hold no cell outside its range).
    fn load(bits: &Bits) -> Self;
    /// Writes the set back into stored bits.
    fn store(self, bits: &mut Bits);
    fn count(self) -> usize;
    /// The `n`-th smallest element; `n` is below [`CellSet::count`].
    fn select(self, n: usize) -> usize;
    fn is_empty(self) -> bool;
    /// Removes and returns the smallest element; the set is not empty.
    fn pop_first(&mut self) -> usize;
    fn insert(&mut self, i: usize);
}

impl CellSet for u64 {
    #[inline]
    fn load(bits: &Bits) -> u64 {
        bits.0[0]
    }

    #[inline]
    fn store(self, bits: &mut Bits) {
        bits.0[0] = self;
    }

    #[inline]
    fn count(self) -> usize {
        self.count_ones() as usize
    }

    #[inline]
    fn select(self, n: usize) -> usize {
        select64(self, n as u32) as usize
    }

    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }

    #[inline]
    fn pop_first(&mut self) -> usize {
        let i = self.trailing_zeros() as usize;
        *self &= *self - 1;
        i
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }
}

impl CellSet for Bits {
    #[inline]
    fn load(bits: &Bits) -> Bits {
        *bits
    }

    #[inline]
    fn store(self, bits: &mut Bits) {
        *bits = self;
    }

    #[inline]
    fn count(self) -> usize {
        Bits::count(&self)
    }

    #[inline]
    fn select(self, n: usize) -> usize {
        self.nth(n).expect("n is below the count")
    }

    #[inline]
    fn is_empty(self) -> bool {
        Bits::is_empty(&self)
    }

    #[inline]
    fn pop_first(&mut self) -> usize {
        let i = self.first().expect("the set is not empty");
        self.remove(i);
        i
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        Bits::insert(self, i);
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// Position of each set bit of a byte: `IN_BYTE[b][k]` is the `k`-th set bit of `b`.
static IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The position of the `k`-th set bit (0-based) of `x`, without a loop or a branch:
/// byte counts summed into running totals pick the byte, a table the bit in it.
/// `k` must be below `x.count_ones()`.
#[inline]
pub(super) fn select64(x: u64, k: u32) -> u32 {
    let mut s = x - (x >> 1 & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + (s >> 2 & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i: the number of set bits in bytes 0 to i (at most 64, below 128).
    let totals = s.wrapping_mul(ONES);
    // Bit 7 of byte i is set where that total is at most k: those bytes come before.
    let before = (((k as u64 * ONES) | 0x8080_8080_8080_8080) - totals) & 0x8080_8080_8080_8080;
    let byte = before.count_ones();
    let shift = 8 * byte;
    let skipped = ((totals << 8) >> shift) as u32 & 0xff;
    let b = (x >> shift) as usize & 0xff;
    8 * byte + IN_BYTE[b][(k - skipped) as usize & 7] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_agrees_with_bits_nth() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut words = vec![0, 1, 1 << 63, u64::MAX, 0x8000_0000_0000_0001];
        for _ in 0..200 {
            x = crate::zobrist::mix(x);
            words.push(x);
            words.push(x & crate::zobrist::mix(x ^ 1));
        }
        for w in words {
            let bits = Bits([w, 0, 0, 0]);
            for k in 0..w.count_ones() {
                assert_eq!(
                    select64(w, k) as usize,
                    bits.nth(k as usize).unwrap(),
                    "{w:#x} {k}"
                );
            }
        }
    }
}
