//! Per-game measurements behind the design metrics (Ludii's `Evaluation` package; the
//! definitions are in `docs/metrics.md`).
//!
//! A game is a list of actions `m_0 .. m_{L-1}` through states `S_0` (the start) to `S_L`
//! (the end). Before every action the [`Tracer`] records the number of legal moves in the
//! current state, the seat to move and seat 0's *lead*: its score difference, counted so
//! that positive is good for seat 0 (Nume, where the lower score wins, negated). Ludii
//! evaluates the states before each move (`S_0 .. S_{L-1}`) with a heuristic; we use the
//! game's own score instead. When the game ends the records are folded into a
//! [`GameTrace`]: a small fixed record of sums and counts, so nothing large leaves the
//! engine.
//!
//! Random games are played by [`crate::rules::playout::play_out_observed`], which makes the very
//! moves of [`crate::Game::random_playout`] behind [`crate::rules::playout::run`] (checked in
//! `tests/playouts.rs`), with the same per-game generators: the outcomes are exactly
//! those of the playouts with the same seed.

use std::fmt;

use crate::bulk::matches::{self, Agent};
use crate::rules::game::{Game, Seat};
// `Learn::legal_count` counts the legal moves without listing them.
use crate::observe::Learn;
use crate::rules::playout::{self, game_rng, restart, PlayoutResult};
use crate::rules::run::{chunks, Interrupted, RunError, Stop};

/// What one game measured, folded into sums and counts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameTrace {
    /// Winning seat 0 or 1, or -1 for a draw.
    pub winner: i8,
    /// Number of actions L (passes and the pie swap included): Ludii's real moves.
    pub moves: u32,
    /// Number of turns: maximal runs of actions by the same seat.
    pub turns: u32,
    /// Number of passes.
    pub passes: u32,
    /// Whether the pie swap was taken.
    pub swapped: bool,
    /// Final scores of seats 0 and 1.
    pub scores: [f64; 2],
    /// Sum over the states before each action of the number of legal moves.
    pub branching_sum: f64,
    /// Sum of the squares of the same.
    pub branching_sq_sum: f64,
    /// Largest number of legal moves met.
    pub branching_max: u32,
    /// Number of actions chosen among more than one legal move.
    pub decisions: u32,
    /// Number of states `S_i`, i < L, whose set of leaders differs from that of the
    /// state before (for `S_0`, from the empty set, as in Ludii: so at least 1 when L > 0).
    pub lead_changes: u32,
    /// Sum over `S_0 .. S_{L-1}` of seat 0's lead.
    pub lead_sum: f64,
    /// Sum of the squares of the same.
    pub lead_sq_sum: f64,
    /// Sum over `S_0 .. S_{L-1}` of Ludii's drama term: how far the eventual winner's
    /// evaluation lies below the best evaluation (0 when it leads or ties).
    pub drama_sum: f64,
    /// Largest drama term.
    pub drama_max: f64,
    /// Index i of the first state `S_i` (i < L) in which the winner's evaluation exceeds
    /// the decisiveness threshold (the loser's best evaluation over the game); L if none.
    pub decisive_at: u32,
    /// Seat 0's lead in the final state.
    pub final_lead: f64,
}

/// Records a game state by state and folds it into a [`GameTrace`]; its buffer is
/// reused from game to game.
#[derive(Debug, Default)]
pub struct Tracer {
    leads: Vec<f64>,
    trace: GameTrace,
    last_mover: Option<Seat>,
}

/// Seat 0's lead in `game`: its score difference, positive when seat 0 is ahead.
pub fn lead<G: Game>(game: &G) -> f64 {
    let scores = game.scores();
    let difference = scores[Seat::First].into() - scores[Seat::Second].into();
    if lower_score_wins::<G>() {
        -difference
    } else {
        difference
    }
}

/// Whether the lower score wins (the game's [`WinRule`](crate::rules::game::WinRule)).
fn lower_score_wins<G: Game>() -> bool {
    G::WIN_RULE.lower_score_wins()
}

impl Tracer {
    /// Starts a new game.
    pub fn begin(&mut self) {
        self.leads.clear();
        self.trace = GameTrace::default();
        self.last_mover = None;
    }

    /// Records the state `game` before an action is played in it.
    pub fn before_move<G: Learn>(&mut self, game: &G) {
        let legal = game.legal_count() as u32;
        let t = &mut self.trace;
        t.moves += 1;
        t.branching_sum += f64::from(legal);
        t.branching_sq_sum += f64::from(legal) * f64::from(legal);
        t.branching_max = t.branching_max.max(legal);
        t.decisions += u32::from(legal > 1);
        let mover = game.to_move();
        if mover != self.last_mover {
            t.turns += 1;
            self.last_mover = mover;
        }
        self.leads.push(lead(game));
    }

    /// Folds the finished game `game` into its record.
    pub fn finish<G: Game>(&mut self, game: &G) -> GameTrace {
        let (_, winner) = game.outcome();
        let mut t = self.trace;
        t.winner = winner.map_or(-1, |seat| seat.index() as i8);
        t.final_lead = lead(game);
        let history = game.history();
        let played = &history[history.len() - t.moves as usize..];
        t.passes = played.iter().filter(|&&mv| G::is_pass(mv)).count() as u32;
        t.swapped = played.iter().any(|&mv| G::is_pie_swap(mv));
        let scores = game.scores();
        t.scores = [scores[Seat::First].into(), scores[Seat::Second].into()];
        // The winner's evaluation of a state is seat 0's lead seen from the winner (the
        // two seats' evaluations are opposite, as with Ludii's heuristic differences).
        let sign = match winner {
            Some(Seat::First) => 1.0,
            Some(Seat::Second) => -1.0,
            None => 0.0,
        };
        let mut leaders_before = 0u8; // bit set of leading seats; empty before S_0
        let mut threshold = f64::NEG_INFINITY;
        for &d in &self.leads {
            t.lead_sum += d;
            t.lead_sq_sum += d * d;
            let leaders = if d > 0.0 {
                1
            } else if d < 0.0 {
                2
            } else {
                3
            };
            t.lead_changes += u32::from(leaders != leaders_before);
            leaders_before = leaders;
            // Drama: best evaluation minus the winners' (mean) evaluation. With a winner w:
            // max(e_w, -e_w) - e_w; after a draw both seats are "winners": |d| - 0.
            let drama = if winner.is_some() {
                (d.abs() - sign * d).max(0.0)
            } else {
                d.abs()
            };
            t.drama_sum += drama;
            t.drama_max = t.drama_max.max(drama);
            if winner.is_some() {
                threshold = threshold.max(-sign * d);
            }
        }
        t.decisive_at = self
            .leads
            .iter()
            .position(|&d| sign * d > threshold || winner.is_none())
            .map_or(t.moves, |i| i as u32);
        t
    }

    /// Traces the game of `actions` played from `start`.
    ///
    /// # Errors
    /// The index and reason of the first action that is out of range or not legal.
    pub fn trace_actions<G: Learn>(
        &mut self,
        game: &mut G,
        start: &G,
        actions: &[u32],
    ) -> Result<GameTrace, (usize, String)> {
        restart(game, start);
        self.begin();
        for (i, &action) in actions.iter().enumerate() {
            let mv = game
                .move_of(action as usize)
                .ok_or_else(|| (i, format!("action {action} is out of range")))?;
            game.check(mv).map_err(|e| (i, e.to_string()))?;
            self.before_move(game);
            game.play_unchecked(mv);
        }
        if !game.is_over() {
            return Err((
                actions.len(),
                "the game is not over after the last action".into(),
            ));
        }
        Ok(self.finish(game))
    }

    /// Plays and traces game `index` of the random run seeded with `seed` from `start`:
    /// the same game as [`crate::rules::playout::run`] plays.
    pub fn trace_random<G: Learn>(
        &mut self,
        game: &mut G,
        start: &G,
        seed: u64,
        index: u64,
    ) -> GameTrace {
        restart(game, start);
        self.begin();
        let result: PlayoutResult =
            playout::play_out_observed(game, &mut game_rng(seed, index), |g, _| {
                self.before_move(g)
            });
        let t = self.finish(game);
        debug_assert_eq!(t.moves, result.length);
        debug_assert_eq!(t.winner, result.winner);
        t
    }
}

/// Traces random games `first .. first + out.len()` of the run seeded with `seed`, each
/// from `start`, on `threads` threads (`None`: all cores).
///
/// # Errors
/// If a pool of `threads` threads cannot be started, or `stop` is set before the end.
pub fn run_random<G: Learn>(
    start: &G,
    seed: u64,
    first: u64,
    out: &mut [GameTrace],
    threads: Option<usize>,
    stop: &Stop,
) -> Result<(), RunError> {
    let init = || (start.clone(), Tracer::default());
    chunks(
        out,
        64,
        threads,
        stop,
        init,
        |(game, tracer), at, traces| {
            for (i, trace) in traces.iter_mut().enumerate() {
                *trace = tracer.trace_random(game, start, seed, first + (at + i) as u64);
            }
            Ok::<_, RunError>(())
        },
    )?;
    Ok(())
}

/// Plays and traces games `first .. first + out.len()` of the match between `agents`
/// seeded with `seed` from `start` (the games of [`crate::bulk::matches::run`]), measuring each
/// move as it is played, on `threads` threads (`None`: all cores).
///
/// # Errors
/// If a pool of `threads` threads cannot be started, or `stop` is set before the end.
#[allow(clippy::too_many_arguments)]
pub fn run_match<G: Learn>(
    start: &G,
    agents: &[Agent; 2],
    seed: u64,
    first: u64,
    swap_seats: bool,
    out: &mut [GameTrace],
    threads: Option<usize>,
    stop: &Stop,
) -> Result<(), RunError> {
    chunks(
        out,
        1,
        threads,
        stop,
        Tracer::default,
        |tracer, at, traces| {
            for (i, trace) in traces.iter_mut().enumerate() {
                let index = first + (at + i) as u64;
                tracer.begin();
                let (game, _) = matches::play_game_observed(
                    start,
                    agents,
                    seed,
                    index,
                    swap_seats,
                    stop,
                    |g| tracer.before_move(g),
                )?;
                *trace = tracer.finish(&game);
            }
            Ok::<_, RunError>(())
        },
    )?;
    Ok(())
}

/// Why games given as actions could not be traced.
#[derive(Debug)]
pub enum TraceError {
    /// Action `action` of game `game` is out of range or not legal, or the game is not
    /// over after its last action.
    Action {
        game: usize,
        action: usize,
        why: String,
    },
    Run(RunError),
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Action { game, action, why } => {
                write!(f, "game {game}, action {action}: {why}")
            }
            TraceError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TraceError {}

impl From<RunError> for TraceError {
    fn from(e: RunError) -> TraceError {
        TraceError::Run(e)
    }
}

impl From<Interrupted> for TraceError {
    fn from(e: Interrupted) -> TraceError {
        TraceError::Run(e.into())
    }
}

/// Traces the games whose actions are `actions[offsets[g] .. offsets[g + 1]]`, each from
/// `start`, on `threads` threads.
///
/// # Errors
/// The game, action index and reason of an action that is not legal (the first game
/// with one, in game order), a thread pool that cannot start, or `stop` set before the
/// end.
pub fn run_actions<G: Learn>(
    start: &G,
    actions: &[u32],
    offsets: &[usize],
    threads: Option<usize>,
    stop: &Stop,
) -> Result<Vec<GameTrace>, TraceError> {
    let mut out = vec![GameTrace::default(); offsets.len().saturating_sub(1)];
    let init = || (start.clone(), Tracer::default());
    chunks(
        &mut out,
        16,
        threads,
        stop,
        init,
        |(game, tracer), at, traces| {
            for (i, trace) in traces.iter_mut().enumerate() {
                let g = at + i;
                *trace = tracer
                    .trace_actions(game, start, &actions[offsets[g]..offsets[g + 1]])
                    .map_err(|(action, why)| TraceError::Action {
                        game: g,
                        action,
                        why,
                    })?;
            }
            Ok::<_, TraceError>(())
        },
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::playout::PlayoutResult;
    use crate::{Nume, NumeConfig, Tabik, TabikConfig};

    fn tabik(size: usize, pie: bool) -> Tabik {
        Tabik::new(TabikConfig { size, pie }).unwrap()
    }

    fn actions_of<G: Game>(game: &G) -> Vec<u32> {
        game.history()
            .iter()
            .map(|&mv| game.action_of(mv).unwrap() as u32)
            .collect()
    }

    #[test]
    fn random_traces_are_the_playouts() {
        let start = tabik(5, true);
        let mut playouts = vec![PlayoutResult::default(); 300];
        playout::run(&start, 3, 100, &mut playouts, Some(2), &Stop::new()).unwrap();
        let mut traces = vec![GameTrace::default(); 300];
        run_random(&start, 3, 100, &mut traces, Some(2), &Stop::new()).unwrap();
        for (p, t) in playouts.iter().zip(&traces) {
            assert_eq!(
                (p.winner, p.length, p.passes, p.swapped, p.scores),
                (t.winner, t.moves, t.passes, t.swapped, t.scores)
            );
        }
    }

    #[test]
    fn traces_of_replayed_actions_equal_random_traces() {
        let start = Nume::new(NumeConfig {
            n: 2,
            ..NumeConfig::default()
        })
        .unwrap();
        let mut random = vec![GameTrace::default(); 40];
        run_random(&start, 9, 0, &mut random, Some(1), &Stop::new()).unwrap();
        let mut actions = Vec::new();
        let mut offsets = vec![0];
        for i in 0..40 {
            actions.extend(actions_of(&playout::replay(&start, 9, i)));
            offsets.push(actions.len());
        }
        assert_eq!(
            run_actions(&start, &actions, &offsets, Some(2), &Stop::new()).unwrap(),
            random
        );
    }

    fn counts_match_lists<G: Learn>(start: &G, games: u64) {
        for i in 0..games {
            let end = playout::replay(start, 4, i);
            let mut game = start.clone();
            for &mv in end.history() {
                assert_eq!(game.legal_count(), game.legal_moves().len(), "{game:?}");
                game.play_unchecked(mv);
            }
            assert_eq!(game.legal_count(), 0);
        }
    }

    #[test]
    fn legal_counts_match_the_lists() {
        counts_match_lists(&tabik(4, true), 30);
        counts_match_lists(&tabik(2, false), 10);
        counts_match_lists(
            &crate::Migong::new(crate::MigongConfig::default()).unwrap(),
            2,
        );
        let phase = NumeConfig {
            n: 2,
            komi_phase: true,
            ..NumeConfig::default()
        };
        counts_match_lists(&Nume::new(phase).unwrap(), 20);
    }

    #[test]
    fn match_traces_are_the_traces_of_the_recorded_games() {
        let start = tabik(4, true);
        let uct = Agent::Uct(crate::search::UctConfig {
            iterations: 50,
            ..Default::default()
        });
        let agents = [uct, Agent::Random];
        let stop = Stop::new();
        let mut games = vec![matches::MatchGame::default(); 6];
        let (actions, offsets) =
            matches::run_recorded(&start, &agents, 5, 2, true, &mut games, Some(2), &stop).unwrap();
        let offsets: Vec<usize> = offsets.iter().map(|&o| o as usize).collect();
        let replayed = run_actions(&start, &actions, &offsets, Some(2), &stop).unwrap();
        let mut traced = vec![GameTrace::default(); 6];
        run_match(&start, &agents, 5, 2, true, &mut traced, Some(2), &stop).unwrap();
        assert_eq!(traced, replayed);
        stop.stop();
        let stopped = run_match(&start, &agents, 5, 2, true, &mut traced, Some(2), &stop);
        assert!(matches!(stopped, Err(RunError::Interrupted)));
    }

    #[test]
    fn bad_actions_are_reported() {
        let start = tabik(3, true);
        let err = run_actions(&start, &[0, 0], &[0, 2], Some(1), &Stop::new())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("game 0, action 1:"), "{err}");
        let err = run_actions(&start, &[0], &[0, 1], Some(1), &Stop::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("not over"), "{err}");
    }
}
