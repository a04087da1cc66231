//! The one way the bindings run long engine work: [`interruptible`], or
//! [`interruptible_with`] for a call that also takes a [`PyStop`] from Python or reports
//! progress. The work runs on a worker thread with the GIL released, and the calling
//! thread wakes every [`POLL`] to run Python's signal handlers (and, every tick, the
//! caller's `on_tick`); when one raises (Ctrl-C's KeyboardInterrupt, an alarm handler's
//! exception, a progress callback's error) it sets the work's
//! [`territory::rules::run::Stop`], waits for the worker to stop (the engine checks the
//! flag every few milliseconds) and returns that exception. See `docs/interrupts.md`.
//!
//! To make a new long call interruptible: give the engine loop a `&Stop` (or its
//! `&AtomicBool`, [`Stop::flag`]), check it every few milliseconds of work, and call it
//! as `interruptible(py, true, |stop| engine_call(..., stop))?`; map the engine's own
//! error after that (a call interrupted by a signal never gets there: the Python
//! exception is returned instead; an engine error saying "stopped" then means the
//! caller's [`PyStop`] was set).
//!
//! Python's signal handlers run once more after the work ends, so a Ctrl-C that came
//! while it ran is raised before any numpy array is made: no numpy call may happen
//! while an exception is pending (rust-numpy panics when it first looks up numpy's API
//! with a KeyboardInterrupt pending; [`warm_up_numpy`] makes that look-up at import).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use territory::rules::run::Stop;

pyo3::import_exception!(territory.errors, StoppedError);

/// How often the calling thread looks for signals while the work runs.
pub const POLL: Duration = Duration::from_millis(50);

/// A flag another thread sets to stop a search (`territory.Stop`): the engine's own
/// [`Stop`], read by the search itself between iterations, so a stop takes effect
/// within milliseconds, GIL or not.
#[pyclass(module = "territory", name = "Stop", frozen)]
#[derive(Default)]
pub struct PyStop(Arc<Stop>);

#[pymethods]
impl PyStop {
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// Asks every search given this object to stop (they raise `StoppedError`); it
    /// stays set.
    fn set(&self) {
        self.0.stop();
    }

    /// Whether `set()` was called (or a search given this object was interrupted).
    fn is_set(&self) -> bool {
        self.0.is_stopped()
    }

    fn __repr__(&self) -> String {
        format!("Stop(set={})", if self.is_set() { "True" } else { "False" })
    }
}

impl PyStop {
    /// The engine's flag.
    pub fn flag(&self) -> &Stop {
        &self.0
    }
}

/// The error of a search stopped by its [`PyStop`].
pub fn stopped() -> PyErr {
    StoppedError::new_err("the search was stopped (its Stop was set)")
}

/// `on_tick`, called on the calling thread (GIL held) about every `every` while long
/// work runs; its error stops the work and is returned.
pub struct Tick<'a> {
    pub every: Duration,
    pub on_tick: &'a mut dyn FnMut(Python<'_>) -> PyResult<()>,
}

/// Runs `work` (given the call's [`Stop`]) on a worker thread, the GIL released, and
/// returns its result, or the exception a Python signal handler raised meanwhile (the
/// work then told to stop and waited for). Work the caller knows to be short (`long`
/// false: well under 0.1 s, estimated from the size of the work) runs on the calling
/// thread instead, GIL released, and is not interrupted: starting a thread costs tens
/// of microseconds, as much as a short search.
///
/// # Errors
/// The exception of a signal handler (KeyboardInterrupt on Ctrl-C), or RuntimeError if
/// no thread can be started.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    long: bool,
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<T> {
    interruptible_with(py, long, &Stop::new(), None, work)
}

/// [`interruptible`], with the work given `stop` (which a signal sets too: pass a
/// [`PyStop`]'s flag to let Python stop the work from another thread as well) and, for
/// long work, a [`Tick`].
///
/// # Errors
/// As [`interruptible`], and the error of `tick`.
pub fn interruptible_with<T: Send>(
    py: Python<'_>,
    long: bool,
    stop: &Stop,
    tick: Option<Tick<'_>>,
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<T> {
    if !long {
        let result = py.detach(|| work(stop));
        py.check_signals()?;
        return Ok(result);
    }
    let mut tick = tick.map(|t| (Instant::now() + t.every, t));
    let done = &AtomicBool::new(false);
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            // Named, so that tests (and `top -H`) can see when the work runs.
            .name("territory-run".into())
            .spawn_scoped(scope, move || {
                // Wakes the caller however the work ends, a panic included.
                struct Done<'a>(&'a AtomicBool, std::thread::Thread);
                impl Drop for Done<'_> {
                    fn drop(&mut self) {
                        self.0.store(true, Ordering::Release);
                        self.1.unpark();
                    }
                }
                let _done = Done(done, caller);
                work(stop)
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        while !done.load(Ordering::Acquire) {
            py.detach(|| std::thread::park_timeout(POLL));
            if done.load(Ordering::Acquire) {
                break;
            }
            let mut watched = py.check_signals();
            if let (Ok(()), Some((next, t))) = (&watched, &mut tick) {
                if Instant::now() >= *next {
                    *next += t.every;
                    watched = (t.on_tick)(py);
                }
            }
            if let Err(error) = watched {
                stop.stop();
                let _ = py.detach(|| worker.join());
                return Err(error);
            }
        }
        let result = worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        py.check_signals()?;
        Ok(result)
    })
}

/// Makes rust-numpy look up numpy's C API now, at import, rather than on the first
/// array made after some long call: that look-up imports numpy and runs Python code,
/// which raises a pending KeyboardInterrupt inside rust-numpy (a panic). Here numpy is
/// imported first the ordinary way (an interrupt is then a KeyboardInterrupt from the
/// import), and the signals are run just before the look-up.
pub fn warm_up_numpy(py: Python<'_>) -> PyResult<()> {
    py.import("numpy")?;
    py.import("numpy.lib")?;
    py.check_signals()?;
    numpy::PyArray1::<u8>::zeros(py, 0, false);
    Ok(())
}
