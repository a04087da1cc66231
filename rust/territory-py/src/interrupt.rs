//! The one way the bindings run long engine work: [`interruptible`]. The work runs on a
//! worker thread with the GIL released, and the calling thread wakes every
//! [`POLL`] to run Python's signal handlers; when one raises (Ctrl-C's
//! KeyboardInterrupt, an alarm handler's exception) it sets the work's
//! [`territory::rules::run::Stop`], waits for the worker to stop (the engine checks the flag
//! every few milliseconds) and returns that exception. See `docs/interrupts.md`.
//!
//! To make a new long call interruptible (the exact solver, say): give the engine loop a
//! `&Stop` (or its `&AtomicBool`, [`Stop::flag`]), check it every few milliseconds of
//! work, and call it as `interruptible(py, true, |stop| engine_call(..., stop))?`; map the
//! engine's own error after that (an interrupted call never gets there: the Python
//! exception is returned instead).
//!
//! Python's signal handlers run once more after the work ends, so a Ctrl-C that came
//! while it ran is raised before any numpy array is made: no numpy call may happen
//! while an exception is pending (rust-numpy panics when it first looks up numpy's API
//! with a KeyboardInterrupt pending; [`warm_up_numpy`] makes that look-up at import).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use territory::rules::run::Stop;

/// How often the calling thread looks for signals while the work runs.
pub const POLL: Duration = Duration::from_millis(50);

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
    let stop = &Stop::new();
    if !long {
        let result = py.detach(|| work(stop));
        py.check_signals()?;
        return Ok(result);
    }
    let done = &AtomicBool::new(false);
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
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
            if let Err(error) = py.check_signals() {
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
