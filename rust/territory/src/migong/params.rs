//! The text of Migong's parameters (as the Python API and records spell them): the one
//! place `border` and `group_size` are read and written.

use std::fmt;
use std::str::FromStr;

use super::{Border, GroupSize, BORDER_EDGES};
use crate::game::{Color, ConfigError};

impl FromStr for Border {
    type Err = ConfigError;

    /// `"alternate"`, `"blue"`, `"yellow"`, or 84 letters `B`/`Y`, one per border edge
    /// in the order of docs/conventions.md.
    fn from_str(text: &str) -> Result<Border, ConfigError> {
        match text {
            "alternate" => Ok(Border::Alternate),
            "blue" => Ok(Border::AllBlue),
            "yellow" => Ok(Border::AllYellow),
            _ if text.len() == BORDER_EDGES && text.bytes().all(|b| b == b'B' || b == b'Y') => {
                let mut colors = [Color::First; BORDER_EDGES];
                for (color, b) in colors.iter_mut().zip(text.bytes()) {
                    if b == b'Y' {
                        *color = Color::Second;
                    }
                }
                Ok(Border::Explicit(colors))
            }
            _ => Err(ConfigError {
                parameter: "border",
                message: format!(
                    "must be 'alternate', 'blue', 'yellow' or a string of {BORDER_EDGES} letters \
                     B/Y (one per border edge, in the order of docs/conventions.md)"
                ),
            }),
        }
    }
}

impl fmt::Display for Border {
    /// The parameter's text: a named border by name, an explicit one as its 84 letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Border::Alternate => f.write_str("alternate"),
            Border::AllBlue => f.write_str("blue"),
            Border::AllYellow => f.write_str("yellow"),
            Border::Explicit(colors) => colors
                .iter()
                .try_for_each(|c| f.write_str(if *c == Color::First { "B" } else { "Y" })),
        }
    }
}

impl FromStr for GroupSize {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<GroupSize, ConfigError> {
        match text {
            "extent" => Ok(GroupSize::Extent),
            "wedges" => Ok(GroupSize::Wedges),
            _ => Err(ConfigError {
                parameter: "group_size",
                message: "must be one of 'extent', 'wedges'".to_string(),
            }),
        }
    }
}

impl fmt::Display for GroupSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GroupSize::Extent => "extent",
            GroupSize::Wedges => "wedges",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borders_round_trip_and_alternate_colours_by_direction() {
        for text in ["alternate", "blue", "yellow", &"BY".repeat(42)] {
            assert_eq!(text.parse::<Border>().unwrap().to_string(), text);
        }
        for bad in ["", "red", "Blue", &"B".repeat(83), &"BX".repeat(42)] {
            assert_eq!(bad.parse::<Border>().unwrap_err().parameter, "border");
        }
        for text in ["extent", "wedges"] {
            assert_eq!(text.parse::<GroupSize>().unwrap().to_string(), text);
        }
        assert!("pieces".parse::<GroupSize>().is_err());
    }
}
