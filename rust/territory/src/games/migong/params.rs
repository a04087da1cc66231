//! Migong's parameters: the one place they are described and checked, and the text of
//! `border` and `group_size` (as the Python API and records spell them) read and written.

use std::fmt;
use std::str::FromStr;

use super::{Border, GroupSize, Migong, MigongConfig, BORDER_EDGES};
use crate::rules::game::{Color, ConfigError};
use crate::rules::params::{complete, Config, Kind, Param, Value, PIE};

const BORDER: Param = Param {
    name: "border",
    kind: Kind::Text {
        allowed: "'alternate', 'blue', 'yellow' or a string of 84 letters B/Y (one per \
                  border edge, in the order of docs/games/migong.md)",
        valid: |text| text.parse::<Border>().is_ok(),
    },
    default: Value::Str("alternate"),
    help: "border colours",
};

/// The values of `group_size`, in the order of [`GroupSize`]'s variants.
const GROUP_SIZES: [&str; 2] = ["extent", "wedges"];

const GROUP_SIZE: Param = Param {
    name: "group_size",
    kind: Kind::Choice(&GROUP_SIZES),
    default: Value::Str("extent"),
    help: "what a group's size counts",
};

impl Config for MigongConfig {
    const PARAMS: &'static [Param] = &[PIE, BORDER, GROUP_SIZE];

    #[inline]
    fn from_values(values: &[Value<'_>]) -> Result<MigongConfig, ConfigError> {
        let [pie, border, group_size] = complete(Self::PARAMS, values);
        Ok(MigongConfig {
            pie: PIE.boolean(pie)?,
            border: BORDER.parse(border)?,
            group_size: [GroupSize::Extent, GroupSize::Wedges][GROUP_SIZE.choice(group_size)?],
        })
    }

    fn for_each_value(&self, f: &mut dyn FnMut(&'static Param, Value<'_>)) {
        f(&PIE, Value::Bool(self.pie));
        f(&BORDER, Value::Str(&self.border.to_string()));
        f(
            &GROUP_SIZE,
            Value::Str(GROUP_SIZES[self.group_size as usize]),
        );
    }
}

crate::rules::params::configurable!(Migong, MigongConfig);

impl FromStr for Border {
    type Err = ConfigError;

    /// `"alternate"`, `"blue"`, `"yellow"`, or 84 letters `B`/`Y`, one per border edge
    /// in the order of docs/games/migong.md.
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
            _ => Err(BORDER.error(Value::Str(text))),
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
        let index = GROUP_SIZE.choice(Value::Str(text))?;
        Ok([GroupSize::Extent, GroupSize::Wedges][index])
    }
}

impl fmt::Display for GroupSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(GROUP_SIZES[*self as usize])
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
        assert_eq!(
            "pieces".parse::<GroupSize>().unwrap_err().to_string(),
            "group_size must be one of 'extent', 'wedges', got 'pieces'"
        );
    }

    #[test]
    fn configurations_read_from_values() {
        let explicit = "BY".repeat(42);
        let config = MigongConfig::from_values(&[
            Value::Bool(false),
            Value::Str(&explicit),
            Value::Str("wedges"),
        ])
        .unwrap();
        assert!(!config.pie);
        assert_eq!(config.border.to_string(), explicit);
        assert_eq!(config.group_size, GroupSize::Wedges);
        let err = MigongConfig::from_values(&[Value::Bool(true), Value::Int(1)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("border must be {}, got 1", BORDER.kind.allowed())
        );
        assert!(MigongConfig::from_values(&[Value::Int(1)]).is_err());
    }
}
