//! The "largest size you hold" scoring shared by Migong and Tabik.

use crate::rules::game::{BySeat, Color, Seat};

/// Larger than any group: 256 Tabik stones, 126 Migong pieces or 756 Migong wedges.
pub const MAX_GROUP_SIZE: usize = 1024;

/// Per colour, the largest size of which it has strictly more groups than the other
/// colour, or 0. `groups` yields each group's colour and size.
pub fn largest_held(groups: impl IntoIterator<Item = (Color, usize)>) -> [u32; 2] {
    let mut tally = Tally::<MAX_GROUP_SIZE>::new();
    for (color, size) in groups {
        tally.add(color, size);
    }
    tally.held()
}

/// Group counts by colour and size, for sizes below `MAX`, kept on the stack.
pub struct Tally<const MAX: usize> {
    counts: [[u16; MAX]; 2],
    largest: usize,
}

impl<const MAX: usize> Default for Tally<MAX> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const MAX: usize> Tally<MAX> {
    pub fn new() -> Self {
        Tally {
            counts: [[0; MAX]; 2],
            largest: 0,
        }
    }

    #[inline]
    pub fn add(&mut self, color: Color, size: usize) {
        self.add_many(color, size, 1);
    }

    /// Adds `n` groups of `color` and `size` (a size counted with none is held by no one).
    #[inline]
    pub fn add_many(&mut self, color: Color, size: usize, n: usize) {
        self.counts[color.index()][size] += n as u16;
        self.largest = self.largest.max(size);
    }

    /// Adds a group of the colour of index `color` (0 or 1) and `size`, leaving the
    /// largest size as it is: for callers that give it once ([`Tally::raise_largest`]).
    #[inline]
    pub fn add_unsized(&mut self, color: usize, size: usize) {
        self.counts[color & 1][size] += 1;
    }

    /// Makes `largest` (at least) the largest size counted.
    #[inline]
    pub fn raise_largest(&mut self, largest: usize) {
        self.largest = self.largest.max(largest);
    }

    /// Whether `color` holds `size`: it has strictly more groups of that size.
    #[inline]
    pub fn holds(&self, color: Color, size: usize) -> bool {
        self.counts[color.index()][size] > self.counts[color.other().index()][size]
    }

    /// Per colour, the largest size it holds, or 0.
    #[inline]
    pub fn held(&self) -> [u32; 2] {
        // Each colour on its own: where both hold sizes, they hold different ones.
        [self.largest_held(0), self.largest_held(1)]
    }

    /// The largest size the colour of index `color` holds, or 0.
    #[inline]
    fn largest_held(&self, color: usize) -> u32 {
        let (own, other) = (&self.counts[color], &self.counts[1 - color]);
        let mut size = self.largest.min(MAX - 1);
        while size > 0 && own[size] <= other[size] {
            size -= 1;
        }
        size as u32
    }
}

/// Per-seat scores from per-colour held sizes.
pub fn seat_scores(held: [u32; 2], color_of: impl Fn(Seat) -> Color) -> BySeat<u32> {
    BySeat(Seat::BOTH.map(|seat| held[color_of(seat).index()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_size_needs_strictly_more_groups() {
        use Color::{First as A, Second as B};
        // A: sizes 3, 1, 1; B: sizes 3, 2. Size 3 tied, B holds 2, A holds 1.
        assert_eq!(
            largest_held([(A, 3), (A, 1), (A, 1), (B, 3), (B, 2)]),
            [1, 2]
        );
        assert_eq!(largest_held([(A, 2), (B, 2)]), [0, 0]);
        assert_eq!(largest_held([]), [0, 0]);
    }

    #[test]
    fn holds_is_strictly_more_groups_of_that_size() {
        use Color::{First as A, Second as B};
        let mut tally = Tally::<8>::new();
        tally.add_many(A, 3, 2);
        tally.add(B, 3);
        tally.add(A, 2);
        tally.add(B, 2);
        assert!(tally.holds(A, 3) && !tally.holds(B, 3));
        assert!(
            !tally.holds(A, 2) && !tally.holds(B, 2),
            "a tie is held by no one"
        );
        assert!(
            !tally.holds(A, 5) && !tally.holds(B, 5),
            "a size no one has"
        );
        assert_eq!(tally.held(), [3, 0]);
    }
}
