//! Cell names: a letter for the column (a = 0) and a number for the row (1 = 0).

use std::fmt;

use crate::rules::error::{Excerpt, InvalidMove};

/// A cell written as letter + number, 0-based: column `a` = 0, row `1` = 0.
///
/// Each game maps these to its own coordinates (Migong shifts both by 6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Coord {
    pub col: u8,
    pub row: u8,
}

impl Coord {
    pub const fn new(col: u8, row: u8) -> Coord {
        Coord { col, row }
    }

    /// Parses a name such as "b3" (lower-case letter, then a number from 1) into 0-based
    /// column and row, without looking at any board. Row "0" (like "a0") is well-formed
    /// but off every board; the error says so.
    pub fn parse(text: &str) -> Result<Coord, InvalidMove> {
        let bad = || InvalidMove::CellName(Excerpt::new(text));
        if text.len() == 2 && text.as_bytes()[0].is_ascii_lowercase() && text.as_bytes()[1] == b'0'
        {
            return Err(InvalidMove::RowZero(text.as_bytes()[0] as char));
        }
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?;
        let digits = chars.as_str();
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 3
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(bad());
        }
        let number: u16 = digits.parse().map_err(|_| bad())?;
        if number > 256 {
            return Err(bad());
        }
        Ok(Coord {
            col: letter as u8 - b'a',
            row: (number - 1) as u8,
        })
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row as u16 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_numbered_up_to_256() {
        let a256 = Coord::parse("a256").unwrap();
        assert_eq!((a256.col, a256.row), (0, 255));
        assert!(Coord::parse("a257").is_err());
    }

    #[test]
    fn round_trip() {
        for text in ["a1", "h7", "p16", "z100"] {
            assert_eq!(Coord::parse(text).unwrap().to_string(), text);
        }
        for bad in [
            "", "a", "1a", "A1", "a0", "a00", "a01", "a-1", "a+1", "a+12", "ab", "a1 ", "a1000",
        ] {
            assert!(Coord::parse(bad).is_err(), "{bad}");
        }
    }
}
