//! Parameters coming from Python. The engine decides what is allowed and describes a
//! mistake (`territory::rules::params`); the bindings only convert each Python argument to the
//! engine's loose [`Value`] and turn the engine's error into a `ParameterError` (a
//! `ValueError`) "`{parameter} must be {allowed}, got {value as Python writes it}`", with
//! `.parameter` and `.allowed`.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use territory::rules::params::{Config, ConfigError, Kind, Param, Value};

pyo3::import_exception!(territory.errors, ParameterError);

/// The error for a parameter the engine refused, showing the Python value.
#[cold]
pub fn error(err: &ConfigError, value: &Bound<'_, PyAny>) -> PyErr {
    let shown = crate::game_class::short_repr(value);
    parameter_error(
        format!("{} must be {}, got {shown}", err.parameter, err.allowed),
        err.parameter,
        &err.allowed,
    )
}

/// The error for a parameter the engine refused, in the engine's words.
#[cold]
pub fn config_error(err: &ConfigError) -> PyErr {
    parameter_error(err.to_string(), err.parameter, &err.allowed)
}

/// `ParameterError(message, parameter, allowed)`.
pub fn parameter_error(message: String, parameter: &str, allowed: &str) -> PyErr {
    ParameterError::new_err((message, parameter.to_owned(), allowed.to_owned()))
}

/// The default of every constructor parameter: a private object meaning "not given",
/// read as the engine's default (so the defaults are written once, in the engine).
static UNSET: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

pub fn unset() -> Py<PyAny> {
    Python::attach(|py| {
        UNSET
            .get_or_init(py, || PyList::empty(py).into_any().unbind())
            .clone_ref(py)
    })
}

/// A string argument's text (`None` for other objects, and for strings that are not
/// valid UTF-8, which no parameter allows).
fn text<'a>(value: &'a Bound<'_, PyAny>) -> Option<Cow<'a, str>> {
    // A type check first: a failed cast makes an error object.
    if !value.is_instance_of::<PyString>() {
        return None;
    }
    value.cast::<PyString>().ok()?.to_cow().ok()
}

/// A Python argument as the engine's loose value (`text`: its text, from [`text`]);
/// [`unset`] is `param`'s default.
fn value<'a>(value: &Bound<'_, PyAny>, text: Option<&'a str>, param: &Param) -> Value<'a> {
    if UNSET.get(value.py()).is_some_and(|unset| value.is(unset)) {
        param.default
    } else if let Some(text) = text {
        Value::Str(text)
    } else if value.is_instance_of::<PyBool>() {
        Value::Bool(value.is_truthy().unwrap_or(false))
    } else if value.is_instance_of::<PyInt>() {
        match value.extract::<i64>() {
            Ok(i) => Value::Int(i as i128),
            // Beyond i64: saturated (no parameter comes near).
            Err(_) if value.gt(0).unwrap_or(false) => Value::Int(i128::MAX),
            Err(_) => Value::Int(i128::MIN),
        }
    } else if value.is_none() {
        Value::None
    } else if value.is_instance_of::<PyFloat>() {
        value.extract().map_or(Value::Other, Value::Float)
    } else {
        Value::Other
    }
}

/// The engine configuration of a constructor's arguments, one per parameter of
/// `C::PARAMS`, in order. The success path allocates nothing.
pub fn config<C: Config, const N: usize>(args: [&Bound<'_, PyAny>; N]) -> PyResult<C> {
    let texts: [Option<Cow<'_, str>>; N] = std::array::from_fn(|i| text(args[i]));
    let values: [Value<'_>; N] =
        std::array::from_fn(|i| value(args[i], texts[i].as_deref(), &C::PARAMS[i]));
    C::from_values(&values).map_err(|e| {
        let i = C::PARAMS.iter().position(|p| p.name == e.parameter);
        error(&e, args[i.unwrap_or(0)])
    })
}

/// An argument that is not a game parameter, read with one of the engine's kinds.
fn read<T>(
    value: &Bound<'_, PyAny>,
    param: &Param,
    get: impl FnOnce(&Param, Value<'_>) -> Result<T, ConfigError>,
) -> PyResult<T> {
    let text = text(value);
    get(param, self::value(value, text.as_deref(), param)).map_err(|e| error(&e, value))
}

fn param(name: &'static str, kind: Kind) -> Param {
    Param {
        name,
        kind,
        default: Value::Other,
        help: "",
    }
}

/// An int (not a bool) from `lo` to `hi`.
pub fn int_in(value: &Bound<'_, PyAny>, name: &'static str, lo: i64, hi: i64) -> PyResult<usize> {
    let param = param(name, Kind::Int { min: lo, max: hi });
    read(value, &param, Param::int).map(|i| i as usize)
}

/// A string, one of `choices`; its index.
pub fn choice(
    value: &Bound<'_, PyAny>,
    name: &'static str,
    choices: &'static [&'static str],
) -> PyResult<usize> {
    read(value, &param(name, Kind::Choice(choices)), Param::choice)
}

/// The engine's own message for parameters given by name (`None` when they are allowed),
/// the values written as the engine writes them: what the Python message must agree with.
pub fn engine_error<C: Config>(params: Option<&Bound<'_, PyDict>>) -> PyResult<Option<String>> {
    let mut args = Vec::new();
    for param in C::PARAMS {
        args.push(match params {
            Some(dict) => dict.get_item(param.name)?,
            None => None,
        });
    }
    let texts: Vec<Option<Cow<'_, str>>> = args.iter().map(|a| a.as_ref().and_then(text)).collect();
    let values: Vec<Value<'_>> = C::PARAMS
        .iter()
        .zip(&args)
        .zip(&texts)
        .map(|((param, arg), text)| match arg {
            Some(arg) => value(arg, text.as_deref(), param),
            None => param.default,
        })
        .collect();
    Ok(C::from_values(&values).err().map(|e| e.to_string()))
}

/// A loose value as a Python object.
fn to_python<'py>(py: Python<'py>, value: Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    match value {
        Value::None | Value::Other => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Int(i) => i.into_bound_py_any(py),
        Value::Float(x) => x.into_bound_py_any(py),
        Value::Str(s) => s.into_bound_py_any(py),
    }
}

/// A configuration's parameters as a dict (the constructor's keywords), in order.
pub fn dict<'py, C: Config>(py: Python<'py>, config: &C) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let mut result = Ok(());
    config.for_each_value(&mut |param, value| {
        if result.is_ok() {
            result = to_python(py, value).and_then(|v| dict.set_item(param.name, v));
        }
    });
    result.map(|()| dict)
}

/// The description of a game's parameters, for `Class.parameters()`: one dict per
/// parameter, in order, with `name`, `kind`, `default`, `allowed` and `help`, and
/// `min` and `max` (int kinds), `max` (the largest k of a half point) or `choices`.
pub fn describe<'py, C: Config>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    C::PARAMS
        .iter()
        .map(|param| {
            let dict = PyDict::new(py);
            dict.set_item("name", param.name)?;
            dict.set_item("kind", param.kind.name())?;
            dict.set_item("default", to_python(py, param.default)?)?;
            dict.set_item("allowed", param.kind.allowed())?;
            dict.set_item("help", param.help)?;
            match param.kind {
                Kind::Int { min, max } | Kind::OptionalInt { min, max } => {
                    dict.set_item("min", min)?;
                    dict.set_item("max", max)?;
                }
                Kind::HalfPoint { max } => dict.set_item("max", max)?,
                Kind::Choice(choices) => dict.set_item("choices", choices.to_vec())?,
                _ => {}
            }
            Ok(dict)
        })
        .collect()
}

/// A Python object for a constructor's default value (signature defaults are Rust
/// expressions, and a parameter must accept any object to report a `ValueError`).
pub fn default<T>(value: T) -> Py<PyAny>
where
    T: for<'py> IntoPyObject<'py>,
{
    use pyo3::IntoPyObjectExt;
    Python::attach(|py| value.into_py_any(py))
        .unwrap_or_else(|_| unreachable!("plain values convert"))
}
