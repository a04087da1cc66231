//! A running search seen from another thread: how many simulations it has run, its best
//! move and value so far ([`Progress`]), and a request to end at once with what it has
//! found (a `finish` [`Stop`], as against the call's own `stop`, which abandons the
//! search). UCT and PUCT update it where they check their `stop`, every few
//! milliseconds; a search given none pays nothing.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::rules::run::Stop;

/// What a running search reports; read from any thread.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    /// The best action so far + 1 (0: none yet).
    best: AtomicU64,
    /// The root's value for the player to move, as `f32` bits.
    value: AtomicU32,
}

impl Progress {
    /// Adds `simulations` to the count done.
    pub fn add(&self, simulations: u64) {
        self.done.fetch_add(simulations, Ordering::Relaxed);
    }

    /// Sets the count done.
    pub fn set_done(&self, simulations: u64) {
        self.done.store(simulations, Ordering::Relaxed);
    }

    /// Sets the best action so far and the root's value for the player to move.
    pub fn set_best(&self, action: Option<usize>, value: f32) {
        self.best.store(action.map_or(0, |a| a as u64 + 1), Ordering::Relaxed);
        self.value.store(value.to_bits(), Ordering::Relaxed);
    }

    /// (simulations done, the best action so far, the root's value for the player to
    /// move).
    pub fn read(&self) -> (u64, Option<usize>, f32) {
        let best = self.best.load(Ordering::Relaxed);
        (
            self.done.load(Ordering::Relaxed),
            best.checked_sub(1).map(|a| a as usize),
            f32::from_bits(self.value.load(Ordering::Relaxed)),
        )
    }
}

/// A search's watchers: `finish`, set from another thread, ends it at once with the
/// statistics it has (after its first simulation, so that it always has a move);
/// `progress`, if given, is kept up to date.
#[derive(Clone, Copy, Debug)]
pub struct Watch<'a> {
    pub finish: &'a Stop,
    pub progress: Option<&'a Progress>,
}

impl Watch<'_> {
    /// Nobody watches: the search runs to its end.
    pub const NONE: Watch<'static> = Watch { finish: &NOBODY, progress: None };
}

static NOBODY: Stop = Stop::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_and_reports_the_best_so_far() {
        let progress = Progress::default();
        assert_eq!(progress.read(), (0, None, 0.0));
        progress.add(3);
        progress.add(4);
        progress.set_best(Some(0), -0.5);
        assert_eq!(progress.read(), (7, Some(0), -0.5));
        progress.set_done(2);
        progress.set_best(None, 0.25);
        assert_eq!(progress.read(), (2, None, 0.25));
    }
}
