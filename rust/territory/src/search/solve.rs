//! An exact solver: negamax with alpha-beta pruning and a transposition table keyed by
//! [`Game::key`], for small boards.
//!
//! Values are +1 (win), 0 (draw), -1 (loss) for the player to move, with perfect play.
//! A move may leave the same seat to move (Nume's komi phase: seat 1 choosing Black then
//! places the first stone), so a child's value is negated only when the seat changes.
//! The table stores each position's value with its bound type (exact, lower, upper) and
//! the best move found, which is tried first when the position is met again.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use crate::rules::game::Game;

use super::result_for;

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
}

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The search visited more than this many positions.
    NodeLimit(u64),
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
            SolveError::GameOver => f.write_str("the game is over: there is no player to move"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Position keys are already uniformly random: the table uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type Table = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    value: i8,
    bound: Bound,
    best: u32,
}

struct Solver<G: Game> {
    table: Table,
    /// Move lists, one per depth, reused.
    moves: Vec<Vec<G::Move>>,
    nodes: u64,
    max_nodes: u64,
}

impl<G: Game> Solver<G> {
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
        game.play_unchecked(mv);
        let value = match game.to_move() {
            None => Ok(result_for(game, me)),
            Some(s) if s == me => self.negamax(game, alpha, beta, depth + 1),
            Some(_) => self.negamax(game, -beta, -alpha, depth + 1).map(|v| -v),
        };
        game.undo();
        value
    }

    fn negamax(
        &mut self,
        game: &mut G,
        mut alpha: i8,
        beta: i8,
        depth: usize,
    ) -> Result<i8, SolveError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(SolveError::NodeLimit(self.max_nodes));
        }
        let key = game.key();
        let mut first = 0;
        if let Some(e) = self.table.get(&key) {
            match e.bound {
                Bound::Exact => return Ok(e.value),
                Bound::Lower if e.value >= beta => return Ok(e.value),
                Bound::Upper if e.value <= alpha => return Ok(e.value),
                _ => {}
            }
            first = e.best as usize;
        }
        if self.moves.len() <= depth {
            self.moves.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        moves.clear();
        game.legal_moves_into(&mut moves);
        if first < moves.len() {
            moves.swap(0, first);
        }
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
                break;
            }
        }
        // The best move's index in the unswapped list.
        let best_i = match best_i {
            0 => first,
            i if i == first => 0,
            i => i,
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
        self.table.insert(
            key,
            Entry {
                value: best,
                bound,
                best: best_i as u32,
            },
        );
        Ok(best)
    }
}

/// Solves `game` exactly, visiting at most `max_nodes` positions (`None`: no limit).
///
/// # Errors
/// [`SolveError::NodeLimit`] past `max_nodes`; [`SolveError::GameOver`] if over.
pub fn solve<G: Game>(game: &G, max_nodes: Option<u64>) -> Result<Solution<G::Move>, SolveError> {
    if game.is_over() {
        return Err(SolveError::GameOver);
    }
    let mut solver = Solver::<G> {
        table: Table::default(),
        moves: Vec::new(),
        nodes: 1,
        max_nodes: max_nodes.unwrap_or(u64::MAX),
    };
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
        nodes: solver.nodes,
    })
}

#[cfg(test)]
mod tests;
