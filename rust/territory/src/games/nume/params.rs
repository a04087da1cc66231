//! Nume's parameters: the one place they are described and checked.

use super::{Nume, NumeConfig, MAX_KOMI, MAX_N, MAX_SQUARE};
use crate::rules::game::Color;
use crate::rules::params::{complete, Config, ConfigError, Kind, Param, Value};

const N: Param = Param {
    name: "n",
    kind: Kind::Int {
        min: 1,
        max: MAX_N as i64,
    },
    default: Value::Int(4),
    help: "hexagonal board of sides n and n + 2 (unused with square)",
};

const SQUARE: Param = Param {
    name: "square",
    kind: Kind::OptionalInt {
        min: 2,
        max: MAX_SQUARE as i64,
    },
    default: Value::None,
    help: "a k x k square board instead of the hexagon",
};

const KOMI: Param = Param {
    name: "komi",
    kind: Kind::HalfPoint { max: MAX_KOMI },
    default: Value::Float(0.5),
    help: "the komi, e.g. 2.5 (None: no komi, and equal scores draw)",
};

/// The colours by name, [`Color::First`] first.
const COLORS: [&str; 2] = ["black", "white"];

const KOMI_TO: Param = Param {
    name: "komi_to",
    kind: Kind::Choice(&COLORS),
    default: Value::Str("black"),
    help: "who receives the komi",
};

const KOMI_PHASE: Param = Param {
    name: "komi_phase",
    kind: Kind::Bool,
    default: Value::Bool(false),
    help: "the players choose komi and sides before the game",
};

impl Config for NumeConfig {
    const PARAMS: &'static [Param] = &[N, SQUARE, KOMI, KOMI_TO, KOMI_PHASE];

    #[inline]
    fn from_values(values: &[Value<'_>]) -> Result<NumeConfig, ConfigError> {
        let [n, square, komi, komi_to, komi_phase] = complete(Self::PARAMS, values);
        Ok(NumeConfig {
            n: N.int(n)? as usize,
            square: SQUARE.optional_int(square)?.map(|k| k as usize),
            komi: KOMI.half_point(komi)?,
            komi_to: Color::BOTH[KOMI_TO.choice(komi_to)?],
            komi_phase: KOMI_PHASE.boolean(komi_phase)?,
        })
    }

    fn for_each_value(&self, f: &mut dyn FnMut(&'static Param, Value<'_>)) {
        f(&N, Value::Int(self.n as i128));
        f(
            &SQUARE,
            self.square.map_or(Value::None, |k| Value::Int(k as i128)),
        );
        // k + 0.5 is exact in f64 up to 2^52; a larger k (not allowed) still shows as one.
        f(
            &KOMI,
            self.komi
                .map_or(Value::None, |k| Value::Float(k as f64 + 0.5)),
        );
        f(&KOMI_TO, Value::Str(COLORS[self.komi_to.index()]));
        f(&KOMI_PHASE, Value::Bool(self.komi_phase));
    }
}

crate::rules::params::configurable!(Nume, NumeConfig);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_are_checked_field_by_field() {
        let bad = |config: NumeConfig| Nume::new(config).unwrap_err().to_string();
        let default = NumeConfig::default();
        assert_eq!(
            bad(NumeConfig { n: 9, ..default }),
            "n must be an int from 1 to 8, got 9"
        );
        // n is checked even when the square board makes it unused (as from Python).
        assert!(Nume::new(NumeConfig {
            n: 0,
            square: Some(4),
            ..default
        })
        .is_err());
        assert_eq!(
            bad(NumeConfig {
                square: Some(17),
                ..default
            }),
            "square must be None or an int from 2 to 16, got 17"
        );
        assert_eq!(
            bad(NumeConfig {
                komi: Some(MAX_KOMI + 1),
                ..default
            }),
            format!(
                "komi must be None or a number k + 0.5 with k a whole number from 0 to \
                 {MAX_KOMI}, got {}.5",
                MAX_KOMI + 1
            )
        );
        let read = NumeConfig::from_values(&[
            Value::Int(3),
            Value::Int(16),
            Value::None,
            Value::Str("white"),
            Value::Bool(true),
        ])
        .unwrap();
        assert_eq!(
            read,
            NumeConfig {
                n: 3,
                square: Some(16),
                komi: None,
                komi_to: Color::Second,
                komi_phase: true
            }
        );
        let max = NumeConfig::from_values(&[
            Value::Int(4),
            Value::None,
            Value::Float(MAX_KOMI as f64 + 0.5),
        ]);
        assert_eq!(max.unwrap().komi, Some(MAX_KOMI));
    }
}
