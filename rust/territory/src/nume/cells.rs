//! The width of Nume's cell sets, chosen once per configuration.
//!
//! A position always stores its sets as [`Bits`] (256 cells), but on a board of at most
//! 64 cells (hex n <= 4, squares up to 8 x 8) only the first word can be non-zero. The
//! hot paths (drawing a random move, placing a stone) are written once, generic over
//! [`CellSet`], and run on a plain `u64` view of the first word on such boards: one
//! word to combine, count and select instead of four.

use std::ops::{BitAnd, BitOr, Not};

use crate::bitset::{select64, Bits};

/// A set of cells the hot paths compute with: `u64` (cells 0 to 63) or [`Bits`].
pub(super) trait CellSet:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    const EMPTY: Self;
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
    const EMPTY: u64 = 0;

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
        crate::cpu::popcount(self) as usize
    }

    #[inline]
    fn select(self, n: usize) -> usize {
        select64(self, n)
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
    const EMPTY: Bits = Bits::EMPTY;

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
