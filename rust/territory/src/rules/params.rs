//! Game parameters, described once per game: each game's configuration lists its
//! parameters ([`Config::PARAMS`]: name, kind, default, help) and is built from loosely
//! typed values ([`Config::from_values`]), as a caller in another language (the Python
//! bindings, a record's header) holds them. [`Param::check`] is the one place that decides
//! whether a value is allowed and how a wrong one is described, for values read that way
//! and for the typed configurations given to a game's `new` alike.
//!
//! ```
//! use territory::rules::params::{Config, Value};
//! use territory::TabikConfig;
//! let config = TabikConfig::from_values(&[Value::Int(5), Value::Bool(false)]).unwrap();
//! assert_eq!(config, TabikConfig { size: 5, pie: false });
//! let err = TabikConfig::from_values(&[Value::Int(17)]).unwrap_err();
//! assert_eq!(err.to_string(), "size must be an int from 2 to 16, got 17");
//! // Missing trailing values take their defaults.
//! assert_eq!(TabikConfig::from_values(&[]).unwrap(), TabikConfig::default());
//! ```

use std::fmt;

pub use crate::rules::game::ConfigError;
use crate::Excerpt;

/// A parameter value before it is checked, typed as loosely as the caller's language
/// types it. Writes like a Python literal (`None`, `True`, `17`, `2.5`, `'blue'`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    None,
    Bool(bool),
    /// An integer; callers saturate larger ones at `i128`'s bounds (no parameter comes
    /// near them).
    Int(i128),
    Float(f64),
    Str(&'a str),
    /// Anything else (a list, bytes, ...): never allowed.
    Other,
}

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::None => f.write_str("None"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) if x.is_nan() => f.write_str("nan"),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Str(s) => write!(f, "{}", Excerpt::new(s)),
            Value::Other => f.write_str("a value of another type"),
        }
    }
}

/// What a parameter allows.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// An int (not a bool) from `min` to `max`.
    Int { min: i64, max: i64 },
    /// `None`, or an int (not a bool) from `min` to `max`.
    OptionalInt { min: i64, max: i64 },
    /// `True` or `False` (not an int).
    Bool,
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// `None`, or a number (int or float, not bool) k + 0.5 with k a whole number from 0
    /// to `max` (Nume's komi). Read as k.
    HalfPoint { max: u64 },
    /// A string the game reads itself (Migong's border): `valid` decides, `allowed`
    /// describes what it accepts.
    Text {
        allowed: &'static str,
        valid: fn(&str) -> bool,
    },
}

impl Kind {
    /// What the kind allows, as the end of "size must be ...": "an int from 2 to 16".
    pub fn allowed(&self) -> String {
        match self {
            Kind::Int { min, max } => format!("an int from {min} to {max}"),
            Kind::OptionalInt { min, max } => format!("None or an int from {min} to {max}"),
            Kind::Bool => "True or False".to_string(),
            Kind::Choice(choices) => {
                let quoted: Vec<String> = choices.iter().map(|c| format!("'{c}'")).collect();
                format!("one of {}", quoted.join(", "))
            }
            Kind::HalfPoint { max } => {
                format!("None or a number k + 0.5 with k a whole number from 0 to {max}")
            }
            Kind::Text { allowed, .. } => allowed.to_string(),
        }
    }

    /// A short lower-case name of the kind: "int", "int or None", "bool", "choice",
    /// "half point or None" or "text".
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Int { .. } => "int",
            Kind::OptionalInt { .. } => "int or None",
            Kind::Bool => "bool",
            Kind::Choice(_) => "choice",
            Kind::HalfPoint { .. } => "half point or None",
            Kind::Text { .. } => "text",
        }
    }

    /// Whether the kind allows the value.
    #[inline]
    pub fn allows(&self, value: Value<'_>) -> bool {
        let in_range = |i: i128, min: i64, max: i64| (min as i128..=max as i128).contains(&i);
        match (*self, value) {
            (Kind::Int { min, max }, Value::Int(i)) => in_range(i, min, max),
            (Kind::OptionalInt { .. }, Value::None) => true,
            (Kind::OptionalInt { min, max }, Value::Int(i)) => in_range(i, min, max),
            (Kind::Bool, Value::Bool(_)) => true,
            (Kind::Choice(choices), Value::Str(s)) => choices.contains(&s),
            (Kind::HalfPoint { .. }, Value::None) => true,
            (Kind::HalfPoint { max }, Value::Float(x)) => {
                let k = x - 0.5;
                k.is_finite() && k >= 0.0 && k <= max as f64 && k.fract() == 0.0
            }
            (Kind::Text { valid, .. }, Value::Str(s)) => valid(s),
            _ => false,
        }
    }
}

/// One parameter of a game.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The name, as the Python API and records spell it.
    pub name: &'static str,
    pub kind: Kind,
    /// The value when none is given.
    pub default: Value<'static>,
    /// What it means, for a command line's help.
    pub help: &'static str,
}

impl Param {
    /// `Ok` when the parameter allows the value, else the error describing the mistake.
    #[inline]
    pub fn check(&self, value: Value<'_>) -> Result<(), ConfigError> {
        if self.kind.allows(value) {
            Ok(())
        } else {
            Err(self.error(value))
        }
    }

    /// The error for a value this parameter does not allow.
    #[cold]
    pub fn error(&self, value: Value<'_>) -> ConfigError {
        ConfigError {
            parameter: self.name,
            allowed: self.kind.allowed(),
            got: value.to_string(),
        }
    }

    /// An int parameter's value.
    #[inline]
    pub fn int(&self, value: Value<'_>) -> Result<i64, ConfigError> {
        self.check(value)?;
        match value {
            Value::Int(i) => Ok(i as i64),
            _ => Err(self.error(value)),
        }
    }

    /// An int-or-None parameter's value.
    #[inline]
    pub fn optional_int(&self, value: Value<'_>) -> Result<Option<i64>, ConfigError> {
        self.check(value)?;
        match value {
            Value::None => Ok(None),
            Value::Int(i) => Ok(Some(i as i64)),
            _ => Err(self.error(value)),
        }
    }

    /// A bool parameter's value.
    #[inline]
    pub fn boolean(&self, value: Value<'_>) -> Result<bool, ConfigError> {
        self.check(value)?;
        match value {
            Value::Bool(b) => Ok(b),
            _ => Err(self.error(value)),
        }
    }

    /// A choice parameter's value, as its index in the choices.
    #[inline]
    pub fn choice(&self, value: Value<'_>) -> Result<usize, ConfigError> {
        self.check(value)?;
        match (self.kind, value) {
            (Kind::Choice(choices), Value::Str(s)) => {
                Ok(choices.iter().position(|c| *c == s).unwrap_or_default())
            }
            _ => Err(self.error(value)),
        }
    }

    /// A half-point parameter's value, as k of k + 0.5 (`None` for None).
    #[inline]
    pub fn half_point(&self, value: Value<'_>) -> Result<Option<u64>, ConfigError> {
        self.check(value)?;
        match value {
            Value::None => Ok(None),
            Value::Float(x) => Ok(Some((x - 0.5) as u64)),
            _ => Err(self.error(value)),
        }
    }

    /// A text parameter's value, read by `T::from_str` (which decides, like `valid`).
    #[inline]
    pub fn parse<T: std::str::FromStr>(&self, value: Value<'_>) -> Result<T, ConfigError> {
        match value {
            Value::Str(s) => s.parse().map_err(|_| self.error(value)),
            _ => Err(self.error(value)),
        }
    }
}

/// The pie rule, a parameter of several games.
pub const PIE: Param = Param {
    name: "pie",
    kind: Kind::Bool,
    default: Value::Bool(true),
    help: "the pie rule (seat 1 may swap after the first move)",
};

/// A game's configuration: its parameters, described once, and the configuration's
/// values of them.
pub trait Config: Copy + PartialEq + Default + fmt::Debug + Send + Sync + 'static {
    /// The parameters, in the order of the Python constructor's keywords.
    const PARAMS: &'static [Param];

    /// The configuration with these values, one per parameter of [`Config::PARAMS`] in
    /// order; missing trailing values take their defaults. The error names the first
    /// parameter (in order) whose value is not allowed.
    fn from_values(values: &[Value<'_>]) -> Result<Self, ConfigError>;

    /// Calls `f` with each parameter and its value in this configuration, in order.
    fn for_each_value(&self, f: &mut dyn FnMut(&'static Param, Value<'_>));

    /// `Ok` when every field is allowed (a configuration built in Rust may hold any
    /// value in its fields): what a game's `new` checks.
    fn check(&self) -> Result<(), ConfigError> {
        let mut result = Ok(());
        self.for_each_value(&mut |param, value| {
            if result.is_ok() {
                result = param.check(value);
            }
        });
        result
    }
}

/// The values given for `params` (`N` of them), the missing trailing ones filled with
/// their defaults: the start of every [`Config::from_values`]. Panics if more values than
/// parameters are given (a caller's mistake).
#[inline]
pub fn complete<'a, const N: usize>(params: &[Param], values: &[Value<'a>]) -> [Value<'a>; N] {
    assert!(
        params.len() == N && values.len() <= N,
        "{} values for {N} parameters",
        values.len()
    );
    std::array::from_fn(|i| values.get(i).copied().unwrap_or(params[i].default))
}

/// A game whose states are built from a [`Config`].
pub trait Configurable: Sized {
    type Config: Config;
    /// A new game at the start position, or why the configuration is not allowed.
    fn with_config(config: Self::Config) -> Result<Self, ConfigError>;
    /// The configuration the game was built with.
    fn configuration(&self) -> Self::Config;
}

/// Links a game to its configuration: `Default` from the described defaults, and
/// [`Configurable`] through the game's `new(config)` and `config()`.
macro_rules! configurable {
    ($game:ty, $config:ty) => {
        impl Default for $config {
            fn default() -> $config {
                <$config as $crate::rules::params::Config>::from_values(&[])
                    .expect("the defaults are allowed")
            }
        }

        impl $crate::rules::params::Configurable for $game {
            type Config = $config;
            fn with_config(config: $config) -> Result<$game, $crate::rules::params::ConfigError> {
                <$game>::new(config)
            }
            fn configuration(&self) -> $config {
                self.config()
            }
        }
    };
}
pub(crate) use configurable;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_short_name() {
        let kinds = [
            (Kind::Int { min: 0, max: 1 }, "int"),
            (Kind::OptionalInt { min: 0, max: 1 }, "int or None"),
            (Kind::Bool, "bool"),
            (Kind::Choice(&["a"]), "choice"),
            (Kind::HalfPoint { max: 3 }, "half point or None"),
            (Kind::Text { allowed: "x", valid: |_| true }, "text"),
        ];
        for (kind, name) in kinds {
            assert_eq!(kind.name(), name);
        }
    }

    const INT: Param = Param {
        name: "size",
        kind: Kind::Int { min: 2, max: 16 },
        default: Value::Int(8),
        help: "",
    };

    fn message(param: &Param, value: Value<'_>) -> String {
        param.check(value).unwrap_err().to_string()
    }

    #[test]
    fn ints_in_range_and_nothing_else() {
        for i in [2, 3, 16] {
            assert_eq!(INT.int(Value::Int(i)), Ok(i as i64));
        }
        for bad in [
            Value::Int(1),
            Value::Int(17),
            Value::Int(-2),
            Value::Int(i128::MAX),
            Value::Int(i128::MIN),
            Value::Int(1 << 64 | 8),
            Value::Bool(true),
            Value::Float(8.0),
            Value::Str("8"),
            Value::None,
            Value::Other,
        ] {
            assert!(INT.check(bad).is_err(), "{bad}");
        }
        assert_eq!(
            message(&INT, Value::Int(17)),
            "size must be an int from 2 to 16, got 17"
        );
        assert_eq!(
            message(&INT, Value::Str("8")),
            "size must be an int from 2 to 16, got '8'"
        );
        let optional = Param {
            kind: Kind::OptionalInt { min: 2, max: 16 },
            ..INT
        };
        assert_eq!(optional.optional_int(Value::None), Ok(None));
        assert_eq!(optional.optional_int(Value::Int(16)), Ok(Some(16)));
        assert_eq!(
            message(&optional, Value::Int(1)),
            "size must be None or an int from 2 to 16, got 1"
        );
        assert!(optional.check(Value::Bool(false)).is_err());
    }

    #[test]
    fn bools_choices_and_text() {
        let flag = Param {
            name: "pie",
            kind: Kind::Bool,
            default: Value::Bool(true),
            help: "",
        };
        assert_eq!(flag.boolean(Value::Bool(false)), Ok(false));
        for bad in [
            Value::Int(0),
            Value::Int(1),
            Value::None,
            Value::Str("True"),
        ] {
            assert!(flag.check(bad).is_err(), "{bad}");
        }
        assert_eq!(
            message(&flag, Value::Int(1)),
            "pie must be True or False, got 1"
        );
        let choice = Param {
            name: "komi_to",
            kind: Kind::Choice(&["black", "white"]),
            default: Value::Str("black"),
            help: "",
        };
        assert_eq!(choice.choice(Value::Str("white")), Ok(1));
        assert_eq!(choice.choice(Value::Str("black")), Ok(0));
        assert_eq!(
            message(&choice, Value::Str("Black")),
            "komi_to must be one of 'black', 'white', got 'Black'"
        );
        assert!(choice.check(Value::Int(0)).is_err());
        let text = Param {
            name: "border",
            kind: Kind::Text {
                allowed: "'x' or 'yy'",
                valid: |s| s == "x" || s == "yy",
            },
            default: Value::Str("x"),
            help: "",
        };
        assert!(text.check(Value::Str("yy")).is_ok());
        assert_eq!(
            message(&text, Value::Str("z")),
            "border must be 'x' or 'yy', got 'z'"
        );
        assert!(text.check(Value::None).is_err());
        // Long strings are quoted short.
        let long = "z".repeat(5000);
        assert!(message(&text, Value::Str(&long)).ends_with("...' (5000 characters)"));
    }

    #[test]
    fn half_points() {
        let komi = Param {
            name: "komi",
            kind: Kind::HalfPoint { max: 10 },
            default: Value::Float(0.5),
            help: "",
        };
        assert_eq!(komi.half_point(Value::None), Ok(None));
        assert_eq!(komi.half_point(Value::Float(0.5)), Ok(Some(0)));
        assert_eq!(komi.half_point(Value::Float(10.5)), Ok(Some(10)));
        for bad in [
            Value::Float(11.5),
            Value::Float(-0.5),
            Value::Float(1.0),
            Value::Float(0.25),
            Value::Float(f64::NAN),
            Value::Float(f64::INFINITY),
            Value::Float(1e300),
            Value::Int(1),
            Value::Bool(true),
            Value::Str("0.5"),
        ] {
            assert!(komi.check(bad).is_err(), "{bad}");
        }
        assert_eq!(
            message(&komi, Value::Float(2.0)),
            "komi must be None or a number k + 0.5 with k a whole number from 0 to 10, got 2.0"
        );
        assert_eq!(
            message(&komi, Value::Float(f64::NAN)),
            "komi must be None or a number k + 0.5 with k a whole number from 0 to 10, got nan"
        );
    }

    /// Every game's parameters: the defaults build the default configuration, a
    /// configuration gives back values that build it again, and each parameter's kind
    /// allows its default.
    #[test]
    fn every_game_describes_its_parameters() {
        fn check<C: Config>() {
            for param in C::PARAMS {
                assert!(param.check(param.default).is_ok(), "{}", param.name);
                assert!(!param.help.is_empty(), "{}", param.name);
            }
            let config = C::from_values(&[]).unwrap();
            assert_eq!(config, C::default());
            config.check().unwrap();
            let mut names = Vec::new();
            config.for_each_value(&mut |param, value| {
                assert_eq!(value, param.default, "{}", param.name);
                names.push(param.name);
            });
            let listed: Vec<&str> = C::PARAMS.iter().map(|p| p.name).collect();
            assert_eq!(names, listed);
        }
        for &kind in crate::GameKind::ALL {
            crate::with_game!(kind, G => check::<<G as Configurable>::Config>());
            // A game's `new` checks its configuration.
            crate::with_game!(kind, G => {
                let config = <G as Configurable>::Config::default();
                let game = G::with_config(config).unwrap();
                assert_eq!(game.configuration(), config);
            });
            assert!(!kind.params().is_empty());
        }
    }
}
