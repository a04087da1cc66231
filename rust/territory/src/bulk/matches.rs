//! Matches between two agents (uniform random play, UCT or PUCT with the engine's
//! network), many games in parallel.
//!
//! Game `i` of a match seeded with `s` draws everything (random moves, the seeds of the
//! UCT searches) from the generator of `(s, i)`, so results do not depend on the number
//! of threads, and any contiguous range of games `[first, first + n)` can be run on its
//! own (shards of a match put together equal the whole match).

use rand::Rng;

use crate::rules::game::Seat;
use crate::rules::playout::{game_rng, PlayoutResult};
use crate::rules::run::{Interrupted, RunError, Stop};
use crate::rules::zobrist::mix;
use crate::observe::Learn;
use crate::search::guided::{Buffers, Guided};
use crate::search::{analyse_until, PuctConfig, UctConfig};

/// An agent the engine can run by itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Agent {
    /// Uniform random legal moves.
    Random,
    /// UCT; each move's search is seeded from the game's generator and `config.seed`.
    Uct(UctConfig),
    /// PUCT guided by a network; each move's search is seeded as UCT's are.
    Puct(Guided),
}

impl Agent {
    /// The agent's move in `game` (running).
    ///
    /// # Errors
    /// If `stop` is set during a search.
    pub fn choose<G: Learn, R: Rng>(
        &self,
        game: &G,
        rng: &mut R,
        stop: &Stop,
    ) -> Result<G::Move, Interrupted> {
        Ok(match self {
            Agent::Random => game.random_move(rng).expect("the game is running"),
            Agent::Uct(config) => {
                let config = UctConfig {
                    seed: mix(config.seed) ^ rng.next_u64(),
                    ..*config
                };
                analyse_until(game, &config, stop)?
                    .best()
                    .expect("the game is running")
            }
            Agent::Puct(guided) => {
                let player = Guided {
                    config: PuctConfig {
                        seed: mix(guided.config.seed) ^ rng.next_u64(),
                        ..guided.config
                    },
                    ..guided.clone()
                };
                player.choose(game, &mut Buffers::default(), stop)?
            }
        })
    }
}

/// One game of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchGame {
    /// Winner by seat, length, passes, pie swap, scores by seat.
    pub result: PlayoutResult,
    /// Whether agent 0 sat in seat 1.
    pub seats_swapped: bool,
    /// The winning agent, 0 or 1, or -1 for a draw.
    pub agent_winner: i8,
}

/// The seat agent 0 takes in game `index`.
pub fn seat_of_agent0(index: u64, swap_seats: bool) -> Seat {
    if swap_seats && index % 2 == 1 {
        Seat::Second
    } else {
        Seat::First
    }
}

/// Plays game `index` of a match seeded with `seed` from `start`; returns the finished
/// game and its summary.
///
/// # Errors
/// If `stop` is set before the game ends.
pub fn play_game<G: Learn>(
    start: &G,
    agents: &[Agent; 2],
    seed: u64,
    index: u64,
    swap_seats: bool,
    stop: &Stop,
) -> Result<(G, MatchGame), Interrupted> {
    play_game_observed(start, agents, seed, index, swap_seats, stop, |_| {})
}

/// [`play_game`], calling `before_move(game)` before each move is played (the moves are
/// the same: the observer sees the game but cannot change it).
///
/// # Errors
/// If `stop` is set before the game ends.
pub fn play_game_observed<G: Learn>(
    start: &G,
    agents: &[Agent; 2],
    seed: u64,
    index: u64,
    swap_seats: bool,
    stop: &Stop,
    mut before_move: impl FnMut(&G),
) -> Result<(G, MatchGame), Interrupted> {
    let mut game = start.clone();
    let mut rng = game_rng(seed, index);
    let seat0 = seat_of_agent0(index, swap_seats);
    let mut result = PlayoutResult::default();
    while let Some(seat) = game.to_move() {
        let agent = &agents[(seat != seat0) as usize];
        let mv = agent.choose(&game, &mut rng, stop)?;
        before_move(&game);
        game.play_unchecked(mv);
        result.length += 1;
        result.passes += G::is_pass(mv) as u32;
        result.swapped |= G::is_pie_swap(mv);
    }
    let result = result.finish(&game);
    let agent_winner = match result.winner {
        -1 => -1,
        w => (w != seat0.index() as i8) as i8,
    };
    let summary = MatchGame {
        result,
        seats_swapped: seat0 == Seat::Second,
        agent_winner,
    };
    Ok((game, summary))
}

/// Plays games `first .. first + out.len()` of the match seeded with `seed`, on
/// `threads` threads (`None`: all cores), writing game `first + i` to `out[i]`.
///
/// # Errors
/// If a pool of `threads` threads cannot be started, or `stop` is set before the end.
#[allow(clippy::too_many_arguments)]
pub fn run<G: Learn>(
    start: &G,
    agents: &[Agent; 2],
    seed: u64,
    first: u64,
    swap_seats: bool,
    out: &mut [MatchGame],
    threads: Option<usize>,
    stop: &Stop,
) -> Result<(), RunError> {
    crate::rules::run::chunks(
        out,
        1,
        threads,
        stop,
        || (),
        |_, at, games| {
            for (i, slot) in games.iter_mut().enumerate() {
                let index = first + (at + i) as u64;
                *slot = play_game(start, agents, seed, index, swap_seats, stop)?.1;
            }
            Ok::<_, RunError>(())
        },
    )?;
    Ok(())
}

/// Games per task of [`run_recorded`]: each task appends its games' actions to one buffer.
const RECORD_CHUNK: usize = 64;

/// As [`run`], and also records each game's actions: the action numbers of the moves
/// played after `start`'s own history, read from the finished game's history (the game
/// loop is the same). Returns them one game after the other, with the offsets (one more
/// than the games): game `first + i` is `actions[offsets[i]..offsets[i + 1]]`.
///
/// # Errors
/// If a pool of `threads` threads cannot be started, or `stop` is set before the end.
#[allow(clippy::too_many_arguments)]
pub fn run_recorded<G: Learn>(
    start: &G,
    agents: &[Agent; 2],
    seed: u64,
    first: u64,
    swap_seats: bool,
    out: &mut [MatchGame],
    threads: Option<usize>,
    stop: &Stop,
) -> Result<(Vec<u32>, Vec<u64>), RunError> {
    let before = start.history().len();
    let parts = crate::rules::run::chunks(
        out,
        RECORD_CHUNK,
        threads,
        stop,
        || (),
        |_, at, chunk| {
            let mut actions = Vec::new();
            let mut lengths = Vec::with_capacity(chunk.len());
            for (i, slot) in chunk.iter_mut().enumerate() {
                let index = first + (at + i) as u64;
                let (game, summary) = play_game(start, agents, seed, index, swap_seats, stop)?;
                *slot = summary;
                let played = &game.history()[before..];
                actions.extend(played.iter().map(|&mv| {
                    game.action_of(mv)
                        .expect("a played move has an action number") as u32
                }));
                lengths.push(played.len() as u32);
            }
            Ok::<_, RunError>((actions, lengths))
        },
    )?;
    let mut actions = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut offsets = Vec::with_capacity(out.len() + 1);
    let mut end = 0u64;
    offsets.push(end);
    for (part, lengths) in parts {
        actions.extend_from_slice(&part);
        for length in lengths {
            end += u64::from(length);
            offsets.push(end);
        }
    }
    Ok((actions, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::{Tabik, TabikConfig};

    #[test]
    fn matches_are_reproducible_and_uct_beats_random() {
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let uct = Agent::Uct(UctConfig {
            iterations: 300,
            ..UctConfig::default()
        });
        let agents = [uct, Agent::Random];
        let mut one = vec![MatchGame::default(); 12];
        run(&start, &agents, 3, 0, true, &mut one, Some(1), &Stop::new()).unwrap();
        let mut two = vec![MatchGame::default(); 12];
        run(
            &start,
            &agents,
            3,
            0,
            true,
            &mut two[..5],
            Some(2),
            &Stop::new(),
        )
        .unwrap();
        run(
            &start,
            &agents,
            3,
            5,
            true,
            &mut two[5..],
            Some(2),
            &Stop::new(),
        )
        .unwrap();
        assert_eq!(one, two);
        let mut recorded = vec![MatchGame::default(); 12];
        let (flat, offsets) = run_recorded(
            &start,
            &agents,
            3,
            0,
            true,
            &mut recorded,
            Some(2),
            &Stop::new(),
        )
        .unwrap();
        assert_eq!(one, recorded);
        assert_eq!((offsets.len(), offsets[12] as usize), (13, flat.len()));
        let actions: Vec<&[u32]> = offsets
            .windows(2)
            .map(|w| &flat[w[0] as usize..w[1] as usize])
            .collect();
        for (g, played) in recorded.iter().zip(&actions) {
            assert_eq!(played.len(), g.result.length as usize);
            let mut replay = start.clone();
            for &a in played.iter() {
                replay.play(replay.move_of(a as usize).unwrap()).unwrap();
            }
            assert!(replay.is_over());
            assert_eq!(
                replay.outcome().1.map_or(-1, |s| s.index() as i8),
                g.result.winner
            );
        }
        assert!(actions.iter().any(|a| a != &actions[0]), "the games differ");
        for (i, g) in one.iter().enumerate() {
            assert_eq!(g.seats_swapped, i % 2 == 1);
            let seat0 = seat_of_agent0(i as u64, true).index() as i8;
            let expected = match g.result.winner {
                -1 => -1,
                w => (w != seat0) as i8,
            };
            assert_eq!(g.agent_winner, expected);
        }
        let uct_wins = one.iter().filter(|g| g.agent_winner == 0).count();
        assert!(uct_wins >= 9, "{uct_wins} of 12");
    }
}
