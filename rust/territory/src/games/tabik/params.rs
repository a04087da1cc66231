//! Tabik's parameters: the one place they are described and checked.

use super::{Tabik, TabikConfig, MAX_SIZE, MIN_SIZE};
use crate::rules::params::{complete, Config, ConfigError, Kind, Param, Value, PIE};

const SIZE: Param = Param {
    name: "size",
    kind: Kind::Int {
        min: MIN_SIZE as i64,
        max: MAX_SIZE as i64,
    },
    default: Value::Int(8),
    help: "board side",
};

impl Config for TabikConfig {
    const PARAMS: &'static [Param] = &[SIZE, PIE];

    #[inline]
    fn from_values(values: &[Value<'_>]) -> Result<TabikConfig, ConfigError> {
        let [size, pie] = complete(Self::PARAMS, values);
        Ok(TabikConfig {
            size: SIZE.int(size)? as usize,
            pie: PIE.boolean(pie)?,
        })
    }

    fn for_each_value(&self, f: &mut dyn FnMut(&'static Param, Value<'_>)) {
        f(&SIZE, Value::Int(self.size as i128));
        f(&PIE, Value::Bool(self.pie));
    }
}

crate::rules::params::configurable!(Tabik, TabikConfig);
