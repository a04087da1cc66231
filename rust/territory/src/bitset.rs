//! A fixed 256-bit set of cell indices, the board representation of every game.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// A set of up to 256 cell indices, stored as four 64-bit words.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// The set `{0, 1, ..., n - 1}`.
    pub fn below(n: usize) -> Bits {
        let mut bits = Bits::EMPTY;
        for i in 0..n.min(256) {
            bits.insert(i);
        }
        bits
    }

    /// A set holding just `i`.
    #[inline]
    pub fn single(i: usize) -> Bits {
        let mut bits = Bits::EMPTY;
        bits.insert(i);
        bits
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline]
    pub fn with(self, i: usize) -> Bits {
        let mut bits = self;
        bits.insert(i);
        bits
    }

    #[inline]
    pub fn without(self, i: usize) -> Bits {
        let mut bits = self;
        bits.remove(i);
        bits
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    #[inline]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    #[inline]
    pub fn intersects(&self, other: Bits) -> bool {
        (*self & other).any()
    }

    #[inline]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The smallest element, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
    }

    /// The `n`-th smallest element (0-based), if there are more than `n`.
    #[inline]
    pub fn nth(&self, mut n: usize) -> Option<usize> {
        for (k, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if n < ones {
                let mut w = word;
                for _ in 0..n {
                    w &= w - 1;
                }
                return Some(k * 64 + w.trailing_zeros() as usize);
            }
            n -= ones;
        }
        None
    }

    /// Iterates the elements in ascending order.
    #[inline]
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            bits: *self,
            word: 0,
        }
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Ascending iterator over a [`Bits`].
pub struct BitsIter {
    bits: Bits,
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < 4 {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let bit = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + bit);
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for Bits {
    type Item = usize;
    type IntoIter = BitsIter;
    fn into_iter(self) -> BitsIter {
        self.iter()
    }
}

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Bits {
        let mut bits = Bits::EMPTY;
        for i in iter {
            bits.insert(i);
        }
        bits
    }
}

macro_rules! bitwise {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Bits {
            type Output = Bits;
            #[inline]
            fn $method(self, rhs: Bits) -> Bits {
                Bits([
                    self.0[0] $op rhs.0[0],
                    self.0[1] $op rhs.0[1],
                    self.0[2] $op rhs.0[2],
                    self.0[3] $op rhs.0[3],
                ])
            }
        }
    };
}
bitwise!(BitAnd, bitand, &);
bitwise!(BitOr, bitor, |);
bitwise!(BitXor, bitxor, ^);

impl BitAndAssign for Bits {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bits) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for Bits {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bits) {
        *self = *self | rhs;
    }
}

impl Not for Bits {
    type Output = Bits;
    #[inline]
    fn not(self) -> Bits {
        Bits([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

/// Moves every element `i` to `i + n` (elements past 255 fall off).
impl Shl<usize> for Bits {
    type Output = Bits;
    #[inline]
    fn shl(self, n: usize) -> Bits {
        if n > 0 && n < 64 {
            let w = self.0;
            return Bits([
                w[0] << n,
                w[1] << n | w[0] >> (64 - n),
                w[2] << n | w[1] >> (64 - n),
                w[3] << n | w[2] >> (64 - n),
            ]);
        }
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; 4];
        for k in (words..4).rev() {
            let lo = self.0[k - words];
            out[k] = lo << bits;
            if bits != 0 && k > words {
                out[k] |= self.0[k - words - 1] >> (64 - bits);
            }
        }
        Bits(out)
    }
}

/// Moves every element `i` to `i - n` (elements below n fall off).
impl Shr<usize> for Bits {
    type Output = Bits;
    #[inline]
    fn shr(self, n: usize) -> Bits {
        if n > 0 && n < 64 {
            let w = self.0;
            return Bits([
                w[0] >> n | w[1] << (64 - n),
                w[1] >> n | w[2] << (64 - n),
                w[2] >> n | w[3] << (64 - n),
                w[3] >> n,
            ]);
        }
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; 4];
        for (k, word) in out.iter_mut().enumerate().take(4 - words.min(4)) {
            *word = self.0[k + words] >> bits;
            if bits != 0 && k + words + 1 < 4 {
                *word |= self.0[k + words + 1] << (64 - bits);
            }
        }
        Bits(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_words() {
        let bits: Bits = [0, 63, 64, 200].into_iter().collect();
        assert_eq!((bits << 1).iter().collect::<Vec<_>>(), vec![1, 64, 65, 201]);
        assert_eq!((bits >> 1).iter().collect::<Vec<_>>(), vec![62, 63, 199]);
        assert_eq!((bits << 70).iter().collect::<Vec<_>>(), vec![70, 133, 134]);
        assert_eq!((bits >> 70).iter().collect::<Vec<_>>(), vec![130]);
        assert_eq!(bits << 0, bits);
    }

    #[test]
    fn nth_and_count() {
        let bits: Bits = [3, 64, 100, 255].into_iter().collect();
        assert_eq!(bits.count(), 4);
        assert_eq!(bits.nth(0), Some(3));
        assert_eq!(bits.nth(2), Some(100));
        assert_eq!(bits.nth(3), Some(255));
        assert_eq!(bits.nth(4), None);
        assert_eq!(bits.first(), Some(3));
        assert_eq!(Bits::below(65).count(), 65);
    }
}
