//! The one run loop of the engine: every bulk call (random playouts, matches, traces,
//! UCT's root parallelism, [`crate::bulk::vec_env::VecEnv`]) gets its threads here, and every long
//! one can be stopped (`docs/interrupts.md`).
//!
//! **Threads.** Bulk work is cut into chunks handed to a rayon pool of this process,
//! made on first use and cached by size ([`pool`]); `threads: None` means rayon's
//! default size (`RAYON_NUM_THREADS`, else every core). Rayon's global pool is never
//! used. A forked child (`os.fork`, `multiprocessing`'s "fork" start method) inherits
//! the parent's memory, its pools' queues and latches included, but none of their
//! threads: work sent there would wait forever. So the cache remembers the process that
//! made it, and a child starts its own pools (the parent's are leaked, never dropped:
//! dropping one would wait for threads that do not exist). UCT's trees run on threads
//! of their own ([`each_thread`]): a search runs inside a match's pool, where waiting
//! for another pool would make the waiting thread pick up unrelated games meanwhile.
//!
//! **Stopping.** A long call takes a [`Stop`]: a flag another thread sets
//! ([`Stop::stop`]) to make it return [`RunError::Interrupted`] early. The loops check it
//! between chunks of a few milliseconds of work (UCT: every [`Stop::EVERY`]
//! iterations). A check reads the flag and nothing else: results, generators and
//! seeded streams are those of an uninterrupted run, which a stopped call simply does
//! not finish.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

/// A request to stop a long call, set from another thread (a Ctrl-C handler, a
/// deadline) and read by the call's loops.
#[derive(Debug, Default)]
pub struct Stop(AtomicBool);

impl Stop {
    /// How many units of fine-grained work (UCT iterations, solver nodes) may pass
    /// between two checks: a few milliseconds at most.
    pub const EVERY: u64 = 64;

    pub const fn new() -> Stop {
        Stop(AtomicBool::new(false))
    }

    /// Asks the calls reading this flag to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Interrupted)` once a stop was asked for.
    #[inline]
    pub fn check(&self) -> Result<(), Interrupted> {
        if self.is_stopped() {
            Err(Interrupted)
        } else {
            Ok(())
        }
    }

    /// The flag itself, for code that takes a plain `&AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// A call stopped by its [`Stop`] before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// Why a bulk call did not finish.
#[derive(Debug)]
pub enum RunError {
    /// The pool of threads asked for could not be started.
    Threads(rayon::ThreadPoolBuildError),
    /// Stopped by its [`Stop`].
    Interrupted,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Threads(e) => write!(f, "cannot start the threads: {e}"),
            RunError::Interrupted => Interrupted.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

impl From<Interrupted> for RunError {
    fn from(_: Interrupted) -> RunError {
        RunError::Interrupted
    }
}

impl From<rayon::ThreadPoolBuildError> for RunError {
    fn from(e: rayon::ThreadPoolBuildError) -> RunError {
        RunError::Threads(e)
    }
}

/// The cached pool of `threads` threads (`None`: rayon's default size) of this process.
///
/// # Errors
/// If the pool cannot be started.
pub fn pool(threads: Option<usize>) -> Result<Arc<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    type Pools = (u32, HashMap<Option<usize>, Arc<rayon::ThreadPool>>);
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let mut guard = POOLS
        .get_or_init(|| Mutex::new((std::process::id(), HashMap::new())))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let (pid, pools) = &mut *guard;
    if *pid != std::process::id() {
        // A forked child: the parent's pools have no threads here; dropping one would
        // wait for them, so leave them be.
        std::mem::forget(std::mem::take(pools));
        *pid = std::process::id();
    }
    let threads = threads.map(|t| t.max(1));
    if let Some(pool) = pools.get(&threads) {
        return Ok(pool.clone());
    }
    // Named, or Linux would give them the name of the thread that started the pool
    // (the bindings' `territory-run` worker): the pool outlives every call.
    let mut builder = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("territory-pool-{i}"));
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    let pool = Arc::new(builder.build()?);
    pools.insert(threads, pool.clone());
    Ok(pool)
}

/// Runs `work` inside the pool of `threads` threads ([`pool`]): parallel iterators in
/// `work` use that pool.
///
/// # Errors
/// If the pool cannot be started.
pub fn in_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, rayon::ThreadPoolBuildError> {
    Ok(pool(threads)?.install(work))
}

/// The run loop of the bulk calls: cuts `out` into chunks of `chunk` items, and on the
/// pool of `threads` threads calls `work(state, first, items)` for each chunk, `first`
/// being the index of its first item in `out` and `state` a scratch value made by
/// `init` once per task and reused from chunk to chunk. Returns what each chunk
/// returned, in chunk order.
///
/// A chunk not yet begun when `stop` is set is skipped.
///
/// # Errors
/// [`RunError::Interrupted`] if `stop` was set before every chunk finished; else the
/// error of the first chunk, in chunk order, that failed (an unstartable pool becomes
/// `E` through `From<RunError>`).
pub fn chunks<T, S, R, E>(
    out: &mut [T],
    chunk: usize,
    threads: Option<usize>,
    stop: &Stop,
    init: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, usize, &mut [T]) -> Result<R, E> + Sync + Send,
) -> Result<Vec<R>, E>
where
    T: Send,
    R: Send,
    E: Send + From<RunError>,
{
    let chunk = chunk.max(1);
    let results = in_pool(threads, || {
        out.par_chunks_mut(chunk)
            .enumerate()
            .map_init(&init, |state, (c, items)| {
                stop.check().map_err(|e| E::from(RunError::from(e)))?;
                work(state, c * chunk, items)
            })
            .collect::<Vec<Result<R, E>>>()
    })
    .map_err(|e| E::from(RunError::from(e)))?;
    if stop.is_stopped() {
        return Err(E::from(RunError::Interrupted));
    }
    results.into_iter().collect()
}

/// Runs `work(0) .. work(threads - 1)` at once, each on a thread of its own (the
/// calling thread takes `work(0)`), and returns their results in order.
///
/// # Panics
/// If a `work` panics (the panic is passed on).
pub fn each_thread<T: Send>(threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if threads <= 1 {
        return vec![work(0)];
    }
    let work = &work;
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|t| scope.spawn(move || work(t))).collect();
        let mut results = vec![work(0)];
        results.extend(others.into_iter().map(|h| {
            h.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }));
        results
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_run_in_order_and_stop() {
        let mut out = vec![0usize; 1000];
        let firsts = chunks(
            &mut out,
            64,
            Some(2),
            &Stop::new(),
            || (),
            |_, first, items| {
                for (i, item) in items.iter_mut().enumerate() {
                    *item = first + i;
                }
                Ok::<_, RunError>(first)
            },
        )
        .unwrap();
        assert_eq!(firsts, (0..1000).step_by(64).collect::<Vec<_>>());
        assert!(out.iter().enumerate().all(|(i, &v)| v == i));
        let stop = Stop::new();
        let result = chunks(
            &mut out,
            1,
            Some(2),
            &stop,
            || (),
            |_, first, _| {
                if first == 10 {
                    stop.stop();
                }
                Ok::<_, RunError>(())
            },
        );
        assert!(matches!(result, Err(RunError::Interrupted)));
        assert_eq!(each_thread(3, |t| t * 10), vec![0, 10, 20]);
    }

    #[test]
    fn a_stop_says_interrupted() {
        assert_eq!(Interrupted.to_string(), "interrupted");
        assert_eq!(RunError::from(Interrupted).to_string(), "interrupted");
    }

    /// A pool is started once per size and process, then reused (in a forked child, the
    /// parent's pools are left behind: tests/test_fork_safety.py).
    #[test]
    fn each_size_has_one_pool_per_process() {
        let [a, b, c] = [Some(3), Some(3), Some(0)].map(|threads| pool(threads).unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!((a.current_num_threads(), c.current_num_threads()), (3, 1));
        assert!(Arc::ptr_eq(&c, &pool(Some(1)).unwrap()));
    }
}
