//! An exact solver: negamax with alpha-beta pruning and a transposition table, for
//! small boards.
//!
//! Values are +1 (win), 0 (draw), -1 (loss) for the player to move, with perfect play.
//! A move may leave the same seat to move (Nume's komi phase: seat 1 choosing Black then
//! places the first stone), so a child's value is negated only when the seat changes.
//!
//! The table keys each position up to the board's symmetries ([`symmetry`]) and stores
//! its value with its bound type (exact, lower, upper), the best move found (tried first
//! when the position is met again under the same symmetry) and the work its search took.
//! It is bounded: it grows by doubling up to [`SolveLimits::memory`] bytes, then keeps,
//! in each bucket of four entries, those whose searches took the most work. A bounded
//! table only costs repeated work, never a wrong value.
//!
//! A search can be stopped from another thread ([`SolveLimits::cancel`]), by a time
//! limit or a node limit, and publishes its progress ([`SolveProgress`]).

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::result_for;
use super::symmetry::{smallest, Feature, Symmetric, Symmetries};

/// The game-theoretic value of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// +1 win, 0 draw, -1 loss for the player to move.
    pub value: i8,
    /// Every legal move achieving `value`, in legal-move order.
    pub best_moves: Vec<M>,
    /// Each legal move with its value for the player to move.
    pub move_values: Vec<(M, i8)>,
    /// Positions searched.
    pub nodes: u64,
    /// Bytes the transposition table took at its largest.
    pub table_bytes: u64,
}

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The search visited more than this many positions.
    NodeLimit(u64),
    /// The search ran longer than this.
    TimeLimit(Duration),
    /// [`SolveLimits::cancel`] was set.
    Cancelled,
    /// The game is already over: there is no player to move.
    GameOver,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NodeLimit(n) => write!(
                f,
                "not solved within max_nodes = {n} positions (raise max_nodes, or None for no limit)"
            ),
            SolveError::TimeLimit(t) => write!(
                f,
                "not solved within time_limit = {} s (raise time_limit, or None for no limit)",
                t.as_secs_f64()
            ),
            SolveError::Cancelled => f.write_str("the search was cancelled"),
            SolveError::GameOver => f.write_str("the game is over: there is no player to move"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Default table budget of [`solve`]: 1 GiB.
pub const DEFAULT_MEMORY: u64 = 1 << 30;

/// Bounds of a search, and how to stop it from outside.
#[derive(Clone, Copy, Debug)]
pub struct SolveLimits<'a> {
    /// Give up past this many positions.
    pub max_nodes: Option<u64>,
    /// Give up after this long.
    pub time_limit: Option<Duration>,
    /// Bytes the transposition table may take (at least one bucket is kept).
    pub memory: u64,
    /// Set from another thread to stop the search (checked every few thousand positions).
    pub cancel: Option<&'a AtomicBool>,
    /// Where the search publishes its progress (every few thousand positions, and at the end).
    pub progress: Option<&'a SolveProgress>,
}

impl Default for SolveLimits<'_> {
    fn default() -> Self {
        SolveLimits {
            max_nodes: None,
            time_limit: None,
            memory: DEFAULT_MEMORY,
            cancel: None,
            progress: None,
        }
    }
}

/// A running search's figures, readable from other threads.
#[derive(Debug, Default)]
pub struct SolveProgress {
    /// Positions searched so far.
    pub nodes: AtomicU64,
    /// Bytes of the transposition table now.
    pub table_bytes: AtomicU64,
}

/// Positions between two looks at the clock and the cancel flag.
const CHECK_EVERY: u64 = 4096;

#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Bound {
    Empty = 0,
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// A table entry: 16 bytes.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    /// Positions its search took (saturating): the entries kept are those worth most.
    work: u32,
    /// The best move's index in the legal-move list.
    best: u16,
    value: i8,
    /// The [`Bound`] in the low two bits, the symmetry under which `best` was found above.
    flags: u8,
}

impl Entry {
    fn bound(&self) -> Bound {
        match self.flags & 3 {
            0 => Bound::Empty,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }

    fn symmetry(&self) -> u8 {
        self.flags >> 2
    }

    fn is_empty(&self) -> bool {
        self.flags & 3 == 0
    }
}

const EMPTY: Entry = Entry {
    key: 0,
    work: 0,
    best: 0,
    value: 0,
    flags: Bound::Empty as u8,
};

const BUCKET: usize = 4;
const ENTRY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

/// The transposition table: buckets of [`BUCKET`] entries, indexed by the low bits of
/// the key; grows by doubling while it is three quarters full and the budget allows.
struct Table {
    entries: Vec<Entry>,
    stored: usize,
    max_entries: usize,
}

impl Table {
    fn new(memory: u64) -> Table {
        let max = (memory / ENTRY_BYTES).max(BUCKET as u64);
        // The largest power-of-two number of buckets within the budget.
        let max_buckets = 1usize << (63 - (max / BUCKET as u64).leading_zeros());
        let max_entries = max_buckets * BUCKET;
        Table {
            entries: vec![EMPTY; max_entries.min(1 << 12)],
            stored: 0,
            max_entries,
        }
    }

    fn bytes(&self) -> u64 {
        (self.entries.len() * std::mem::size_of::<Entry>()) as u64
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let b = (key as usize) & (self.entries.len() / BUCKET - 1);
        b * BUCKET..(b + 1) * BUCKET
    }

    fn get(&self, key: u64) -> Option<Entry> {
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| !e.is_empty() && e.key == key)
            .copied()
    }

    fn store(&mut self, entry: Entry) {
        let range = self.bucket(entry.key);
        let bucket = &mut self.entries[range];
        if let Some(e) = bucket
            .iter_mut()
            .find(|e| !e.is_empty() && e.key == entry.key)
        {
            *e = entry;
            return;
        }
        if let Some(e) = bucket.iter_mut().find(|e| e.is_empty()) {
            *e = entry;
            self.stored += 1;
            if self.stored * 4 > self.entries.len() * 3 && self.entries.len() < self.max_entries {
                self.grow();
            }
            return;
        }
        let weakest = bucket
            .iter_mut()
            .min_by_key(|e| e.work)
            .expect("a bucket has entries");
        if weakest.work <= entry.work {
            *weakest = entry;
        }
    }

    fn grow(&mut self) {
        let doubled = vec![EMPTY; self.entries.len() * 2];
        let old = std::mem::replace(&mut self.entries, doubled);
        self.stored = 0;
        for e in old {
            if !e.is_empty() {
                self.store(e);
            }
        }
    }
}

/// The swaps that ordered a move list (at most three), to find a move's index in the
/// list as generated.
#[derive(Default)]
struct Swaps {
    done: [(usize, usize); 3],
    count: usize,
}

impl Swaps {
    fn swap<M>(&mut self, moves: &mut [M], a: usize, b: usize) {
        if a != b {
            moves.swap(a, b);
            self.done[self.count] = (a, b);
            self.count += 1;
        }
    }

    fn original_index(&self, mut i: usize) -> usize {
        for &(a, b) in self.done[..self.count].iter().rev() {
            if i == a {
                i = b;
            } else if i == b {
                i = a;
            }
        }
        i
    }
}

/// Orders a position's moves, most promising first (say, by a policy network's prior),
/// before the table's move and the killer moves are put in front
/// ([`solve_ordered`]).
pub type MoveOrder<'a, G> = dyn FnMut(&G, &mut [<G as crate::rules::game::Game>::Move]) + 'a;

struct Solver<'a, G: Symmetric> {
    table: Table,
    symmetries: Option<Symmetries>,
    /// The keys of the position at each depth under each symmetry (depth-major), kept
    /// up to date move by move.
    symmetric_keys: Vec<u64>,
    toggled: Vec<Feature>,
    /// Move lists, one per depth, reused.
    moves: Vec<Vec<G::Move>>,
    /// The last two moves that cut the search off, per depth (tried early).
    killers: Vec<[Option<G::Move>; 2]>,
    /// The move order of positions shallower than `order_depth`, and per depth the
    /// moves as generated (the table stores a move's index among them).
    order: Option<&'a mut MoveOrder<'a, G>>,
    order_depth: usize,
    generated: Vec<Vec<G::Move>>,
    nodes: u64,
    max_nodes: u64,
    peak_bytes: u64,
    began: Instant,
    limits: SolveLimits<'a>,
}

impl<'a, G: Symmetric> Solver<'a, G> {
    fn new(game: &G, limits: &SolveLimits<'a>, order: Option<&'a mut MoveOrder<'a, G>>, order_depth: usize) -> Self {
        Solver {
            order,
            order_depth,
            generated: Vec::new(),
            table: Table::new(limits.memory),
            symmetries: game.symmetries().filter(|s| s.len() > 1),
            symmetric_keys: Vec::new(),
            toggled: Vec::new(),
            moves: Vec::new(),
            killers: Vec::new(),
            nodes: 1,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            peak_bytes: 0,
            began: Instant::now(),
            limits: *limits,
        }
    }

    /// The table key of the position at `depth`: the smallest over the board's
    /// symmetries, and the symmetry that gives it.
    fn key(&self, game: &G, depth: usize) -> (u64, u8) {
        match &self.symmetries {
            None => (game.key(), 0),
            Some(symmetries) => {
                let n = symmetries.len();
                smallest(&self.symmetric_keys[depth * n..(depth + 1) * n])
            }
        }
    }

    /// The keys under each symmetry at `depth + 1`, after `mv` from the position at
    /// `depth` whose turn key was `turn_before`.
    fn update_keys(&mut self, game: &G, mv: G::Move, depth: usize, turn_before: u64) {
        let Some(symmetries) = &self.symmetries else {
            return;
        };
        let n = symmetries.len();
        if self.symmetric_keys.len() < (depth + 2) * n {
            self.symmetric_keys.resize((depth + 2) * n, 0);
        }
        self.toggled.clear();
        game.toggled_features(mv, &mut self.toggled);
        let (before, after) = self.symmetric_keys.split_at_mut((depth + 1) * n);
        let after = &mut after[..n];
        after.copy_from_slice(&before[depth * n..]);
        symmetries.update(after, turn_before ^ game.turn_key(), &self.toggled);
        debug_assert_eq!(after.to_vec(), {
            let mut features = Vec::new();
            game.features(&mut features);
            let mut keys = vec![0; n];
            symmetries.keys(game.turn_key(), &features, &mut keys);
            keys
        });
    }

    /// Publishes the figures, and stops on the clock or the cancel flag.
    fn check(&mut self) -> Result<(), SolveError> {
        self.peak_bytes = self.peak_bytes.max(self.table.bytes());
        if let Some(p) = self.limits.progress {
            p.nodes.store(self.nodes, Ordering::Relaxed);
            p.table_bytes.store(self.table.bytes(), Ordering::Relaxed);
        }
        if self
            .limits
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(SolveError::Cancelled);
        }
        match self.limits.time_limit {
            Some(t) if self.began.elapsed() > t => Err(SolveError::TimeLimit(t)),
            _ => Ok(()),
        }
    }

    /// The value of a child position for the seat that moved into it.
    fn child_value(
        &mut self,
        game: &mut G,
        mv: G::Move,
        alpha: i8,
        beta: i8,
        depth: usize,
    ) -> Result<i8, SolveError> {
        let me = game.to_move().expect("running");
        let turn_before = if self.symmetries.is_some() {
            game.turn_key()
        } else {
            0
        };
        game.play_unchecked(mv);
        if game.to_move().is_some() {
            self.update_keys(game, mv, depth, turn_before);
        }
        let value = match game.to_move() {
            None => Ok(result_for(game, me)),
            Some(s) if s == me => self.negamax(game, alpha, beta, depth + 1),
            Some(_) => self.negamax(game, -beta, -alpha, depth + 1).map(|v| -v),
        };
        game.undo();
        value
    }

    /// Puts the table's best move first, then this depth's killer moves (those that
    /// last cut the search off here), in the order tried.
    fn order(&self, moves: &mut [G::Move], first: Option<usize>, depth: usize) -> Swaps {
        let mut swaps = Swaps::default();
        let mut next = 0;
        if let Some(first) = first.filter(|&f| f < moves.len()) {
            swaps.swap(moves, 0, first);
            next = 1;
        }
        for killer in self.killers.get(depth).into_iter().flatten().flatten() {
            if let Some(at) = moves[next..].iter().position(|m| m == killer) {
                swaps.swap(moves, next, next + at);
                next += 1;
            }
        }
        swaps
    }

    fn remember_killer(&mut self, mv: G::Move, depth: usize) {
        if self.killers.len() <= depth {
            self.killers.resize(depth + 1, [None; 2]);
        }
        let killers = &mut self.killers[depth];
        if killers[0] != Some(mv) {
            *killers = [Some(mv), killers[0]];
        }
    }

    fn negamax(
        &mut self,
        game: &mut G,
        mut alpha: i8,
        beta: i8,
        depth: usize,
    ) -> Result<i8, SolveError> {
        if self.nodes >= self.max_nodes {
            return Err(SolveError::NodeLimit(self.max_nodes));
        }
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 {
            self.check()?;
        }
        let nodes_before = self.nodes;
        let (key, symmetry) = self.key(game, depth);
        let mut first = None;
        if let Some(e) = self.table.get(key) {
            match e.bound() {
                Bound::Exact => return Ok(e.value),
                Bound::Lower if e.value >= beta => return Ok(e.value),
                Bound::Upper if e.value <= alpha => return Ok(e.value),
                _ => {}
            }
            if e.symmetry() == symmetry {
                first = Some(e.best as usize);
            }
        }
        if self.moves.len() <= depth {
            self.moves.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        moves.clear();
        game.legal_moves_into(&mut moves);
        let reordered = depth < self.order_depth && self.order.is_some();
        if reordered {
            let first_move = first.and_then(|f| moves.get(f).copied());
            if self.generated.len() <= depth {
                self.generated.resize_with(depth + 1, Vec::new);
            }
            self.generated[depth].clone_from(&moves);
            if let Some(order) = self.order.as_mut() {
                order(game, &mut moves);
            }
            first = first_move.and_then(|m| moves.iter().position(|&x| x == m));
        }
        let order = self.order(&mut moves, first, depth);
        let alpha0 = alpha;
        let (mut best, mut best_i) = (-2, 0);
        let mut outcome = Ok(());
        for (i, &mv) in moves.iter().enumerate() {
            let v = match self.child_value(game, mv, alpha, beta, depth) {
                Ok(v) => v,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            };
            if v > best {
                (best, best_i) = (v, i);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.remember_killer(mv, depth);
                break;
            }
        }
        let best_i = if reordered {
            let best_move = moves[best_i];
            self.generated[depth].iter().position(|&m| m == best_move).unwrap_or(0)
        } else {
            order.original_index(best_i)
        };
        self.moves[depth] = moves;
        outcome?;
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            work: u32::try_from(self.nodes - nodes_before + 1).unwrap_or(u32::MAX),
            best: u16::try_from(best_i).unwrap_or(0),
            value: best,
            flags: bound as u8 | symmetry << 2,
        });
        Ok(best)
    }
}

/// Solves `game` exactly, visiting at most `max_nodes` positions (`None`: no limit),
/// with a table of at most [`DEFAULT_MEMORY`] bytes.
///
/// # Errors
/// [`SolveError::NodeLimit`] past `max_nodes`; [`SolveError::GameOver`] if over.
pub fn solve<G: Symmetric>(
    game: &G,
    max_nodes: Option<u64>,
) -> Result<Solution<G::Move>, SolveError> {
    solve_with(
        game,
        &SolveLimits {
            max_nodes,
            ..SolveLimits::default()
        },
    )
}

/// Solves `game` exactly within `limits`.
///
/// # Errors
/// [`SolveError::GameOver`] if the game is over; otherwise the limit that stopped the
/// search (the figures so far are in `limits.progress`).
pub fn solve_with<G: Symmetric>(
    game: &G,
    limits: &SolveLimits<'_>,
) -> Result<Solution<G::Move>, SolveError> {
    run_solver(game, limits, None, 0)
}

/// [`solve_with`], the moves of every position less than `order_depth` moves deep put
/// in `order`'s order first (then the table's move and the killers in front, as
/// everywhere). The value and the best moves are the same; the positions searched
/// differ.
///
/// # Errors
/// As [`solve_with`].
pub fn solve_ordered<'a, G: Symmetric>(
    game: &G,
    limits: &SolveLimits<'a>,
    order_depth: usize,
    order: &'a mut MoveOrder<'a, G>,
) -> Result<Solution<G::Move>, SolveError> {
    run_solver(game, limits, Some(order), order_depth)
}

fn run_solver<'a, G: Symmetric>(
    game: &G,
    limits: &SolveLimits<'a>,
    order: Option<&'a mut MoveOrder<'a, G>>,
    order_depth: usize,
) -> Result<Solution<G::Move>, SolveError> {
    if game.is_over() {
        return Err(SolveError::GameOver);
    }
    let mut solver = Solver::new(game, limits, order, order_depth);
    let result = solve_root(&mut solver, game);
    // Publish the final figures, even when a limit stopped the search.
    let _ = solver.check();
    let mut solution = result?;
    solution.nodes = solver.nodes;
    solution.table_bytes = solver.peak_bytes;
    Ok(solution)
}

fn solve_root<G: Symmetric>(
    solver: &mut Solver<'_, G>,
    game: &G,
) -> Result<Solution<G::Move>, SolveError> {
    solver.check()?;
    if let Some(symmetries) = &solver.symmetries {
        let mut features = Vec::new();
        game.features(&mut features);
        solver.symmetric_keys = vec![0; symmetries.len()];
        symmetries.keys(game.turn_key(), &features, &mut solver.symmetric_keys);
    }
    let mut game = game.clone();
    let moves = game.legal_moves();
    let mut move_values = Vec::with_capacity(moves.len());
    for &mv in &moves {
        move_values.push((mv, solver.child_value(&mut game, mv, -1, 1, 0)?));
    }
    let value = move_values
        .iter()
        .map(|&(_, v)| v)
        .max()
        .expect("a running game has moves");
    Ok(Solution {
        value,
        best_moves: move_values
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(m, _)| m)
            .collect(),
        move_values,
        nodes: 0,
        table_bytes: 0,
    })
}

#[cfg(test)]
mod tests;
