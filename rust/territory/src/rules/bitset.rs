//! A fixed 256-bit set of cell indices, the board representation of every game, and
//! [`CellSet`], what the games' hot paths need of a set, for it and for a plain `u64`.

use crate::rules::cpu;
use std::fmt::Debug;
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
        self.0.iter().map(|&w| w.count_ones() as usize).sum()
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
                return Some(k * 64 + select64(word, n));
            }
            n -= ones;
        }
        None
    }

    /// [`Bits::nth`], selecting within a word as `selector` says.
    #[inline(always)]
    pub fn nth_by(&self, selector: Selector, mut n: usize) -> Option<usize> {
        for (k, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if n < ones {
                return Some(k * 64 + selector.select64(word, n));
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

/// A set of cell indices whose width a game picks once per configuration: one `u64`
/// word (cells 0 to 63) on boards of at most 64 cells, a [`Bits`] beyond. Hot code is
/// written once over this trait, so playouts on small boards never pay for words they
/// do not use. Positions store their sets as [`Bits`]; [`CellSet::from_bits`] and
/// [`CellSet::store`] convert.
pub trait CellSet:
    Copy
    + Eq
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    const EMPTY: Self;
    /// The set `{0, 1, ..., n - 1}` (`n` at most the width).
    fn below(n: usize) -> Self;
    fn single(i: usize) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> usize;
    /// The `n`-th smallest element (0-based); `n` is below [`CellSet::count`].
    fn select(self, n: usize) -> usize;
    /// [`CellSet::select`] as `selector` says (read once before a loop of draws).
    fn select_by(self, selector: Selector, n: usize) -> usize;
    fn insert(&mut self, i: usize);
    /// The set of the smallest element alone (empty if the set is).
    fn lowest(self) -> Self;
    /// Removes and returns the smallest element; the set is not empty.
    fn pop_first(&mut self) -> usize;
    fn to_bits(self) -> Bits;
    /// The set of `bits`, which must hold no element past the width.
    fn from_bits(bits: &Bits) -> Self;
    /// Writes the set into `bits`, whose elements past the width stay as they are (none).
    fn store(self, bits: &mut Bits);
}

impl CellSet for u64 {
    const EMPTY: u64 = 0;

    fn below(n: usize) -> u64 {
        if n >= 64 {
            u64::MAX
        } else {
            (1 << n) - 1
        }
    }

    #[inline]
    fn single(i: usize) -> u64 {
        1 << i
    }

    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }

    #[inline]
    fn count(self) -> usize {
        self.count_ones() as usize
    }

    #[inline(always)]
    fn select(self, n: usize) -> usize {
        select64(self, n)
    }

    #[inline(always)]
    fn select_by(self, selector: Selector, n: usize) -> usize {
        selector.select64(self, n)
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }

    #[inline]
    fn lowest(self) -> u64 {
        self & self.wrapping_neg()
    }

    #[inline]
    fn pop_first(&mut self) -> usize {
        let i = self.trailing_zeros() as usize;
        *self &= *self - 1;
        i
    }

    #[inline]
    fn to_bits(self) -> Bits {
        Bits([self, 0, 0, 0])
    }

    #[inline]
    fn from_bits(bits: &Bits) -> u64 {
        debug_assert!(bits.0[1..].iter().all(|&w| w == 0));
        bits.0[0]
    }

    #[inline]
    fn store(self, bits: &mut Bits) {
        bits.0[0] = self;
    }
}

impl CellSet for Bits {
    const EMPTY: Bits = Bits::EMPTY;

    fn below(n: usize) -> Bits {
        Bits::below(n)
    }

    #[inline]
    fn single(i: usize) -> Bits {
        Bits::single(i)
    }

    #[inline]
    fn is_empty(self) -> bool {
        Bits::is_empty(&self)
    }

    #[inline]
    fn count(self) -> usize {
        Bits::count(&self)
    }

    // Always inlined: one outlined copy shared by the games changed how the compiler
    // inlined their playout loops, and cost Nume's playouts 2% more instructions.
    #[inline(always)]
    fn select(self, n: usize) -> usize {
        self.nth(n).expect("n is below the count")
    }

    #[inline(always)]
    fn select_by(self, selector: Selector, n: usize) -> usize {
        self.nth_by(selector, n).expect("n is below the count")
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        Bits::insert(self, i);
    }

    #[inline]
    fn lowest(self) -> Bits {
        self.first().map_or(Bits::EMPTY, Bits::single)
    }

    #[inline]
    fn pop_first(&mut self) -> usize {
        let i = self.first().expect("the set is not empty");
        self.remove(i);
        i
    }

    #[inline]
    fn to_bits(self) -> Bits {
        self
    }

    #[inline]
    fn from_bits(bits: &Bits) -> Bits {
        *bits
    }

    #[inline]
    fn store(self, bits: &mut Bits) {
        *bits = self;
    }
}

const ONES_PER_BYTE: u64 = 0x0101_0101_0101_0101;
const HIGH_PER_BYTE: u64 = 0x8080_8080_8080_8080;

/// `IN_BYTE[b][r]`: the position of the `r`-th set bit of byte `b` (0 past its count).
static IN_BYTE: [[u8; 8]; 256] = in_byte_table();

const fn in_byte_table() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                table[b][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
}

/// The position of the `n`-th set bit (0-based, `n` below the count) of `x`, without
/// loops or data-dependent branches: `pdep` where it is fast, else popcounts where they
/// are one instruction, else per-byte counts (see `cpu`).
#[inline(always)]
pub fn select64(x: u64, n: usize) -> usize {
    // The CPU level read where needed (a `Selector` read ahead costs playout loops that
    // keep it none: measured, 5% more instructions per Tabik game).
    if let Some(pdep) = cpu::pdep() {
        return select_by_pdep(pdep, x, n);
    }
    if cpu::fast_counts() {
        select_by_halves(x, n)
    } else {
        select_by_bytes(x, n)
    }
}

/// Which way [`select64`] goes on this CPU, read once before a loop of draws rather than
/// at every draw.
#[derive(Clone, Copy, Debug)]
pub struct Selector {
    pdep: Option<cpu::Pdep>,
    fast_counts: bool,
}

impl Selector {
    /// The way of this process (cached reads, as [`cpu::pdep`]).
    #[inline(always)]
    pub fn current() -> Selector {
        Selector {
            pdep: cpu::pdep(),
            fast_counts: cpu::fast_counts(),
        }
    }

    /// [`select64`] the way this says.
    #[inline(always)]
    pub fn select64(self, x: u64, n: usize) -> usize {
        if let Some(pdep) = self.pdep {
            return select_by_pdep(pdep, x, n);
        }
        if self.fast_counts {
            select_by_halves(x, n)
        } else {
            select_by_bytes(x, n)
        }
    }
}

/// [`select64`] with `pdep`: the n-th set bit alone; or-ing bit 63 changes nothing but
/// tells the compiler the word is not 0 (one `tzcnt`, no test for 0).
#[inline(always)]
fn select_by_pdep(pdep: cpu::Pdep, x: u64, n: usize) -> usize {
    (pdep.deposit(1 << (n & 63), x) | 1 << 63).trailing_zeros() as usize
}

/// [`select64`] where counting bits is one instruction: counts of the low half, quarter
/// and eighth say whether to skip them, a table finds the bit in the byte left.
#[inline]
fn select_by_halves(x: u64, n: usize) -> usize {
    let (mut x, mut n, mut base) = (x, n as u32, 0);
    for width in [32, 16, 8] {
        let low = (x & ((1 << width) - 1)).count_ones();
        let skip = n >= low;
        let shift = if skip { width } else { 0 };
        x >>= shift;
        base += shift;
        n -= if skip { low } else { 0 };
    }
    base as usize + IN_BYTE[x as usize & 0xff][n as usize & 7] as usize
}

/// [`select64`] without a bit-count instruction: per-byte counts and their prefix sums in
/// one word find the byte that holds the bit, a table the bit within that byte.
#[inline]
fn select_by_bytes(x: u64, n: usize) -> usize {
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i: the ones in bytes 0..=i (at most 64, so no carries between bytes).
    let sums = s.wrapping_mul(ONES_PER_BYTE);
    // Byte i's high bit: whether bytes 0..=i hold at most n ones (the n-th lies beyond).
    let before = (((n as u64).wrapping_mul(ONES_PER_BYTE) | HIGH_PER_BYTE) - sums) & HIGH_PER_BYTE;
    let byte = ((before >> 7).wrapping_mul(ONES_PER_BYTE) >> 56) as usize & 7;
    let skipped = ((sums << 8) >> (8 * byte)) as usize & 0xff;
    8 * byte + IN_BYTE[(x >> (8 * byte)) as usize & 0xff][(n - skipped) & 7] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_lists_the_members() {
        assert_eq!(
            format!("{:?}", Bits([0b101, 1, 0, 1 << 63])),
            "{0, 2, 64, 255}"
        );
        assert_eq!(format!("{:?}", Bits([0; 4])), "{}");
    }

    #[test]
    fn select_finds_every_set_bit() {
        // Detected first, so that `select64` takes this CPU's own path (before detection
        // it reads as the portable one) and `pdep` is there when the CPU has it fast.
        let _ = cpu::level();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200 {
            let expected: Vec<usize> = (0..64).filter(|&i| x >> i & 1 != 0).collect();
            for (n, &i) in expected.iter().enumerate() {
                assert_eq!(select_by_bytes(x, n), i, "{x:#x} {n}");
                assert_eq!(select_by_halves(x, n), i, "{x:#x} {n}");
                if let Some(pdep) = cpu::pdep() {
                    assert_eq!(select_by_pdep(pdep, x, n), i, "{x:#x} {n}");
                }
                assert_eq!(select64(x, n), i, "{x:#x} {n}");
                assert_eq!(Bits([0, x, 0, 0]).nth(n), Some(64 + i));
            }
            x = crate::rules::zobrist::mix(x);
        }
        for select in [select_by_bytes, select64] {
            assert_eq!(select(u64::MAX, 63), 63);
            assert_eq!(select(1 << 63, 0), 63);
            assert_eq!(select(1, 0), 0);
        }
    }

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
    fn shifts_move_every_element_by_any_amount() {
        let mut word: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20 {
            let mut words = [0u64; 4];
            for w in &mut words {
                word = crate::rules::zobrist::mix(word);
                *w = word;
            }
            let bits = Bits(words);
            let members: Vec<usize> = bits.iter().collect();
            for n in 0..=260 {
                let up: Vec<usize> = members.iter().map(|i| i + n).filter(|&i| i < 256).collect();
                let down: Vec<usize> = members.iter().filter(|&&i| i >= n).map(|i| i - n).collect();
                assert_eq!((bits << n).iter().collect::<Vec<_>>(), up, "<< {n}");
                assert_eq!((bits >> n).iter().collect::<Vec<_>>(), down, ">> {n}");
            }
        }
    }

    #[test]
    fn a_set_is_empty_only_with_no_member_in_any_word() {
        // Every choice of words holding 0 or the same members (so that no two words
        // cancel out, nor one word hide another).
        for pattern in 0..16 {
            let words = [0, 1, 2, 3].map(|k| if pattern >> k & 1 != 0 { 0b1010 } else { 0 });
            assert_eq!(Bits(words).is_empty(), pattern == 0, "{words:?}");
        }
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

    #[test]
    fn cell_set_widths_agree() {
        let mut x: u64 = 0x0123_4567_89ab_cdef;
        for _ in 0..100 {
            let (word, bits) = (x, Bits::from_bits(&Bits([x, 0, 0, 0])));
            assert_eq!(u64::from_bits(&bits), word);
            assert_eq!(word.to_bits(), bits);
            assert_eq!(CellSet::count(word), CellSet::count(bits));
            assert_eq!(CellSet::is_empty(word), CellSet::is_empty(bits));
            assert_eq!(word.lowest().to_bits(), bits.lowest());
            for n in 0..CellSet::count(word) {
                assert_eq!(word.select(n), bits.select(n));
            }
            let (mut w, mut b) = (word, bits);
            while !CellSet::is_empty(w) {
                assert_eq!(w.pop_first(), b.pop_first());
            }
            assert!(CellSet::is_empty(b));
            let i = (x >> 58) as usize;
            let (mut w, mut b) = (word, bits);
            CellSet::insert(&mut w, i);
            CellSet::insert(&mut b, i);
            assert_eq!(w.to_bits(), b);
            let mut stored = Bits([0, 7, 7, 7]);
            word.store(&mut stored);
            assert_eq!(stored, Bits([x, 7, 7, 7]));
            x = crate::rules::zobrist::mix(x);
        }
        for n in [0, 1, 37, 63, 64] {
            assert_eq!(u64::below(n).to_bits(), <Bits as CellSet>::below(n));
            assert_eq!(u64::single(n % 64).to_bits(), Bits::single(n % 64));
        }
        assert_eq!(u64::EMPTY.lowest(), 0);
        assert_eq!(Bits::EMPTY.lowest(), Bits::EMPTY);
    }
}
