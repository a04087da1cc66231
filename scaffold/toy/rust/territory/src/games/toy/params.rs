//! Toy's parameters: the one place they are described and checked (the Python
//! constructor, the command line's options and records all read `PARAMS`).

use super::{Toy, ToyConfig};
use crate::rules::params::{complete, Config, ConfigError, Kind, Param, Value};

const SIZE: Param = Param {
    name: "size",
    kind: Kind::Int { min: 2, max: 16 },
    default: Value::Int(5),
    help: "board side",
};

impl Config for ToyConfig {
    const PARAMS: &'static [Param] = &[SIZE];

    fn from_values(values: &[Value<'_>]) -> Result<ToyConfig, ConfigError> {
        let [size] = complete(Self::PARAMS, values);
        Ok(ToyConfig {
            size: SIZE.int(size)? as usize,
        })
    }

    fn for_each_value(&self, f: &mut dyn FnMut(&'static Param, Value<'_>)) {
        f(&SIZE, Value::Int(self.size as i128));
    }
}

// `Default` for the configuration, from the described defaults, and `Configurable`
// through `Toy::new` and `Toy::config`.
crate::rules::params::configurable!(Toy, ToyConfig);
