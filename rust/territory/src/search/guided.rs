//! PUCT searches evaluated by the engine's own [`Network`]: a move chosen, or a whole
//! self-play game, with no round trip to Python (docs/learning.md).
//!
//! A leaf's value is the network's, or with `rollout_weight = λ > 0` the mix
//! `(1 - λ) v + λ r` of it with the result `r` of one uniformly random playout from the
//! leaf (AlphaGo's mixing): the playouts cost little in these games and correct a value
//! head trained on little data.

use std::sync::Arc;

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::observe::Learn;
use crate::rules::game::{Color, Seat};
use crate::rules::playout::game_rng;
use crate::rules::run::{chunks, Interrupted, RunError, Stop};
use crate::search::network::{Network, Scratch};
use crate::search::puct::{PuctConfig, PuctTree};
use crate::search::result_for;
use crate::search::solve::{solve_with, SolveError, SolveLimits};
use crate::search::symmetry::Symmetric;
use crate::search::watch::Watch;

/// A PUCT player: its network and search parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Guided {
    pub network: Arc<Network>,
    pub config: PuctConfig,
    /// Weight λ of a random playout's result in a leaf's value, 0 to 1.
    pub rollout_weight: f32,
    /// A leaf is evaluated by the network and expanded on its `expansion_visits`-th
    /// visit (1: at once); before that each visit is valued by a random playout alone
    /// (AlphaGo's expansion threshold: the network's cost is shared by that many
    /// simulations). The root is expanded at once.
    pub expansion_visits: u32,
    /// The priors are `softmax(logits / policy_temperature)`: below 1 sharper (the
    /// search spends more of its simulations on the network's favourite moves), above 1
    /// flatter; 1 is the network's own policy (self-play's: its visit counts are the
    /// policy targets). A small network's policy is close to uniform, and a search of a
    /// few hundred simulations plays better with it sharpened (docs/learning.md).
    pub policy_temperature: f32,
}

/// Buffers reused from search to search.
#[derive(Clone, Debug, Default)]
pub struct Buffers {
    obs: Vec<f32>,
    logits: Vec<f32>,
    scratch: Scratch,
}

/// A move order for the solver ([`crate::search::solve_ordered`]): the moves by
/// `network`'s logits, highest first (equal logits in legal-move order).
///
/// # Panics
/// When called, if the network does not read the game's positions (see
/// [`Network::reads_features`]).
pub fn prior_order<G: Learn>(network: &Network) -> impl FnMut(&G, &mut [G::Move]) + '_ {
    let mut buffers = Buffers::default();
    move |game, moves| {
        let features = network.reads_features(game).expect("the network reads this game's positions");
        buffers.obs.resize(game.network_input_len(features), 0.0);
        buffers.logits.resize(network.actions(), 0.0);
        game.network_input(features, &mut buffers.obs);
        network.evaluate(&buffers.obs, &mut buffers.scratch, &mut buffers.logits);
        let logits = &buffers.logits;
        let logit = |mv: &G::Move| logits[game.action_of(*mv).expect("legal moves have actions")];
        moves.sort_by(|a, b| logit(b).total_cmp(&logit(a)));
    }
}

impl Guided {
    /// Runs `config.iterations` simulations from `root` (a running game), one leaf at a
    /// time.
    ///
    /// # Errors
    /// If `stop` is set during the search.
    ///
    /// # Panics
    /// If the network does not read this game's positions and actions.
    pub fn search<G: Learn>(&self, root: &G, buffers: &mut Buffers, stop: &Stop) -> Result<PuctTree<G>, Interrupted> {
        self.search_watched(root, buffers, stop, Watch::NONE)
    }

    /// [`Guided::search`], watched: setting `watch.finish` ends the search at once (once
    /// the root is expanded) with the tree it has; `watch.progress` holds the
    /// simulations done, the most visited move and the root's value (both checked and
    /// updated every 16 simulations, well under a millisecond).
    ///
    /// # Errors
    /// If `stop` is set during the search.
    ///
    /// # Panics
    /// If the network does not read this game's positions and actions.
    pub fn search_watched<G: Learn>(
        &self,
        root: &G,
        buffers: &mut Buffers,
        stop: &Stop,
        watch: Watch<'_>,
    ) -> Result<PuctTree<G>, Interrupted> {
        let features = self.network.reads_features(root).expect("the network reads this game's positions");
        let mut tree = PuctTree::new(root, PuctConfig { features, ..self.config });
        let mut rng = game_rng(self.config.seed, u64::MAX);
        buffers.logits.resize(self.network.actions(), 0.0);
        buffers.obs.resize(root.network_input_len(features), 0.0);
        let mut rounds = 0u32;
        loop {
            rounds += 1;
            if rounds % 16 == 0 {
                stop.check()?;
                let finish = watch.finish.is_stopped();
                if watch.progress.is_some() || finish {
                    let best = tree.best_action();
                    if let Some(progress) = watch.progress {
                        progress.set_done(u64::from(tree.simulations()));
                        progress.set_best(best, tree.root_value());
                    }
                    // A root not yet expanded (`expansion_visits` > 1) has no move yet.
                    if finish && best.is_some() {
                        return Ok(tree);
                    }
                }
            }
            // One leaf a round, evaluated before the next: no leaf is ever left waiting,
            // so none selected means the search is done.
            if !tree.select_leaf() {
                debug_assert!(tree.is_done());
                if let Some(progress) = watch.progress {
                    progress.set_done(u64::from(tree.simulations()));
                    progress.set_best(tree.best_action(), tree.root_value());
                }
                return Ok(tree);
            }
            let due = tree.leaf_due(0, self.expansion_visits);
            let mut value = 0.0;
            if due {
                tree.leaf_game(0).network_input(features, &mut buffers.obs);
                value = self.network.evaluate(&buffers.obs, &mut buffers.scratch, &mut buffers.logits);
                if self.policy_temperature != 1.0 {
                    let inverse = self.policy_temperature.recip();
                    buffers.logits.iter_mut().for_each(|logit| *logit *= inverse);
                }
                tree.expand(0, &buffers.logits);
            }
            if !due || self.rollout_weight > 0.0 {
                let weight = if due { self.rollout_weight } else { 1.0 };
                let result = tree.play_out_leaf(0, &mut rng);
                value = (1.0 - weight) * value + weight * result;
            }
            tree.backup(0, value);
            tree.finish_round();
        }
    }

    /// The most visited move of a search from `root` (a running game).
    ///
    /// # Errors
    /// If `stop` is set during the search.
    pub fn choose<G: Learn>(&self, root: &G, buffers: &mut Buffers, stop: &Stop) -> Result<G::Move, Interrupted> {
        let tree = self.search(root, buffers, stop)?;
        let action = tree.best_action().expect("a running game has a move");
        Ok(root.move_of(action).expect("the best action is legal"))
    }

    /// Plays one self-play game from `start` (running) and appends a training example
    /// for every position to `data` (the network's input, legal mask, the search's visit
    /// distribution over all actions, the game's result, the search's value, the final
    /// score margin and the final ownership of the cells for the seat to move), and
    /// the game's length. The first `sample_moves` moves are drawn in
    /// proportion to the visits, the later ones are the most visited. Everything random
    /// comes from `seed` (the searches' noise, the draws and the playouts).
    ///
    /// With `solve_nodes` > 0 the game's positions are then solved exactly from the last
    /// backwards, each within `solve_nodes` positions searched ([`solve_with`]): a
    /// solved position's result is its exact value for the seat to move and its
    /// `solved` flag is set. The walk stops at the first position not solved within the
    /// limit (the earlier ones are larger), so the solved positions are the game's last.
    ///
    /// # Errors
    /// If `stop` is set during the game or its solves (nothing is appended then).
    #[allow(clippy::too_many_arguments)]
    pub fn self_play<G: Learn + Symmetric>(
        &self,
        start: &G,
        sample_moves: u32,
        solve_nodes: u64,
        seed: u64,
        buffers: &mut Buffers,
        data: &mut SelfPlayData,
        stop: &Stop,
    ) -> Result<u32, Interrupted> {
        let mut rng: Xoshiro256PlusPlus = game_rng(seed, 0);
        let mut game = start.clone();
        let features = self.network.reads_features(start).expect("the network reads this game's positions");
        let (len_obs, actions) = (game.network_input_len(features), game.num_actions());
        let mut mine = SelfPlayData::default();
        let mut seats = Vec::new();
        // The game's positions, kept only to be solved.
        let mut positions = Vec::new();
        let mut moves = 0u32;
        while let Some(seat) = game.to_move() {
            if solve_nodes > 0 {
                positions.push(game.clone());
            }
            let player = Guided { config: PuctConfig { seed: rng.random(), ..self.config }, ..self.clone() };
            let tree = player.search(&game, buffers, stop)?;
            let stats = tree.root_stats();
            let start_obs = mine.obs.len();
            mine.obs.resize(start_obs + len_obs, 0.0);
            game.network_input(features, &mut mine.obs[start_obs..]);
            mine.values.push(tree.root_value());
            let start_actions = mine.policy.len();
            mine.policy.resize(start_actions + actions, 0.0);
            mine.masks.resize(start_actions + actions, false);
            game.legal_mask(&mut mine.masks[start_actions..]);
            let total: u32 = stats.iter().map(|s| s.1).sum();
            for &(action, visits, _, _) in &stats {
                mine.policy[start_actions + action] = visits as f32 / total.max(1) as f32;
            }
            seats.push((seat, game.color_of(seat)));
            let action = if moves < sample_moves && total > 0 {
                let mut pick = rng.random_range(0..total);
                stats
                    .iter()
                    .find(|s| {
                        let hit = pick < s.1;
                        pick = pick.saturating_sub(s.1);
                        hit
                    })
                    .expect("the draw is below the total")
                    .0
            } else {
                tree.best_action().expect("a running game has a move")
            };
            game.play_unchecked(game.move_of(action).expect("the chosen action is legal"));
            moves += 1;
        }
        mine.results.extend(seats.iter().map(|&(seat, _): &(Seat, Color)| f32::from(result_for(&game, seat))));
        mine.solved.resize(seats.len(), false);
        solve_the_end(&positions, solve_nodes, &mut mine.results, &mut mine.solved, stop)?;
        mine.margins.extend(seats.iter().map(|&(seat, _)| game.score_margin(seat)));
        let cells = game.ownership_len();
        let mut owners = vec![0.0; 2 * cells];
        for color in Color::BOTH {
            game.ownership_as(color, &mut owners[color.index() * cells..(color.index() + 1) * cells]);
        }
        for &(_, color) in &seats {
            mine.ownership.extend_from_slice(&owners[color.index() * cells..(color.index() + 1) * cells]);
        }
        mine.lengths.push(moves);
        data.append(&mine);
        Ok(moves)
    }
}

/// Table budget of each solve of a self-play position: 32 bytes per position the
/// search may visit, so that the table (a power of two of 16-byte entries within the
/// budget) has more entries than the search can store and a solve within its limit
/// seldom drops one; at least 1 MiB, and at most 64 MiB (one solve at a time per
/// thread), where a dropped entry costs only repeated work. The table starts at 64 KiB
/// and doubles only as it fills.
fn solve_memory(max_nodes: u64) -> u64 {
    max_nodes.saturating_mul(32).clamp(1 << 20, 64 << 20)
}

/// Solves `positions` (a game's, in order) from the last backwards within `max_nodes`
/// positions each (0: none), until one is not solved: each solved position's `results`
/// entry becomes its exact value for the seat to move and its `solved` entry is set.
fn solve_the_end<G: Symmetric>(
    positions: &[G],
    max_nodes: u64,
    results: &mut [f32],
    solved: &mut [bool],
    stop: &Stop,
) -> Result<(), Interrupted> {
    let limits = SolveLimits {
        max_nodes: Some(max_nodes),
        memory: solve_memory(max_nodes),
        cancel: Some(stop.flag()),
        ..SolveLimits::default()
    };
    for (k, position) in positions.iter().enumerate().rev() {
        match solve_with(position, &limits) {
            Ok(solution) => {
                results[k] = f32::from(solution.value);
                solved[k] = true;
            }
            Err(SolveError::Cancelled) => return Err(Interrupted),
            Err(_) => break,
        }
    }
    Ok(())
}

/// The training examples of many self-play games, one game after the other.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayData {
    /// The network's inputs (`network_input_len` values per position).
    pub obs: Vec<f32>,
    /// Visit distributions over all actions, `num_actions` values per position.
    pub policy: Vec<f32>,
    /// Legal actions, `num_actions` values per position.
    pub masks: Vec<bool>,
    /// The game's result for the seat to move at each position, or the position's
    /// exact value where it was solved: +1, 0 or -1.
    pub results: Vec<f32>,
    /// Whether each position was solved exactly ([`Guided::self_play`]'s `solve_nodes`).
    pub solved: Vec<bool>,
    /// The search's value of each position (its root's mean) for the seat to move.
    pub values: Vec<f32>,
    /// The game's final score margin for the seat to move at each position
    /// ([`Learn::score_margin`]).
    pub margins: Vec<f32>,
    /// Who holds each cell at the game's end, from the side of the colour the seat to
    /// move plays at each position ([`Learn::ownership_as`]), `ownership_len` values
    /// per position.
    pub ownership: Vec<f32>,
    /// The number of positions (moves) of each game.
    pub lengths: Vec<u32>,
}

impl SelfPlayData {
    /// Appends the games of `other`.
    pub fn append(&mut self, other: &SelfPlayData) {
        self.obs.extend_from_slice(&other.obs);
        self.policy.extend_from_slice(&other.policy);
        self.masks.extend_from_slice(&other.masks);
        self.results.extend_from_slice(&other.results);
        self.solved.extend_from_slice(&other.solved);
        self.values.extend_from_slice(&other.values);
        self.margins.extend_from_slice(&other.margins);
        self.ownership.extend_from_slice(&other.ownership);
        self.lengths.extend_from_slice(&other.lengths);
    }
}

/// Plays games `first .. first + games` of the self-play round seeded with `seed` from
/// `start` (running) with `player` ([`Guided::self_play`], with `sample_moves` and
/// `solve_nodes`), on `threads` threads (`None`: all cores). Game `i` is seeded from
/// `(seed, i)` alone, so the data do not depend on the number of threads, and a round
/// played in ranges gives, put together in order, the data of the round played at once.
/// The last game's index, `first + games - 1`, must be at most `u64::MAX`.
///
/// # Errors
/// If a pool of `threads` threads cannot be started, or `stop` is set before the end.
#[allow(clippy::too_many_arguments)]
pub fn self_play_games<G: Learn + Symmetric>(
    start: &G,
    player: &Guided,
    first: u64,
    games: usize,
    sample_moves: u32,
    solve_nodes: u64,
    seed: u64,
    threads: Option<usize>,
    stop: &Stop,
) -> Result<SelfPlayData, RunError> {
    let mut out = vec![SelfPlayData::default(); games];
    chunks(&mut out, 1, threads, stop, Buffers::default, |buffers, at, slots| {
        for (i, slot) in slots.iter_mut().enumerate() {
            let game_seed = game_rng(seed, first + (at + i) as u64).random::<u64>();
            player.self_play(start, sample_moves, solve_nodes, game_seed, buffers, slot, stop)?;
        }
        Ok::<_, RunError>(())
    })?;
    let mut data = SelfPlayData::default();
    for game in &out {
        data.append(game);
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::network::Weights;
    use crate::search::solve;
    use crate::search::watch::Progress;
    use crate::{Game, Tabik, TabikConfig};

    /// A network whose logits and value are all zero: uniform priors.
    fn zero_network(game: &Tabik, hidden: usize) -> Network {
        zeros(game.observation_len(), game.num_actions(), hidden)
    }

    /// A network of zeros with `i` inputs and `a` actions.
    fn zeros(i: usize, a: usize, hidden: usize) -> Network {
        constant(i, a, hidden, 0.0)
    }

    /// Uniform priors and the same `value` for every position.
    fn constant(i: usize, a: usize, hidden: usize, value: f32) -> Network {
        fixed(i, hidden, &vec![0.0; a], value)
    }

    /// The same logits (`logits`, one per action) and `value` for every position.
    fn fixed(i: usize, hidden: usize, logits: &[f32], value: f32) -> Network {
        let a = logits.len();
        let z = vec![0.0f32; (i + a + hidden) * hidden];
        let bv = [value.atanh()];
        let w = Weights {
            w1: &z[..i * hidden],
            b1: &z[..hidden],
            w2: &z[..hidden * hidden],
            b2: &z[..hidden],
            wp: &z[..hidden * a],
            bp: logits,
            wv: &z[..hidden],
            bv: &bv,
        };
        Network::new(i, hidden, a, w).unwrap()
    }

    fn player(game: &Tabik, iterations: u32, rollout_weight: f32) -> Guided {
        Guided {
            network: Arc::new(zero_network(game, 4)),
            config: PuctConfig { iterations, ..PuctConfig::default() },
            rollout_weight,
            expansion_visits: 1,
            policy_temperature: 1.0,
        }
    }

    #[test]
    fn a_leaf_mixes_the_networks_value_and_its_playout_by_the_rollout_weight() {
        // The network says 0.9 everywhere; with weight 0.5 a leaf is worth
        // 0.5 * 0.9 + 0.5 * (+1 or -1): 0.95 or -0.05 for the player to move there.
        let game = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let network = constant(game.observation_len(), game.num_actions(), 4, 0.9);
        let p = Guided { network: Arc::new(network), ..player(&game, 40, 0.5) };
        let tree = p.search(&game, &mut Buffers::default(), &Stop::new()).unwrap();
        let once: Vec<f32> = tree.root_stats().iter().filter(|s| s.1 == 1).map(|s| s.2).collect();
        assert!(once.len() >= 3, "{once:?}");
        // Each root child visited once holds its one leaf's value, for the root's player.
        for mean in once {
            assert!([-0.95f32, 0.05].iter().any(|v| (mean - v).abs() < 1e-5), "{mean}");
        }
    }

    /// A drawn playout is worth 0. Nume 3x3 without komi (equal scores draw): after
    /// White's c2 the last stone is forced and the game drawn, so every playout through
    /// c2 is a draw and c2's mean is 0.
    #[test]
    fn a_drawn_playout_backs_up_zero() {
        use crate::observe::Learn;
        use crate::{Nume, NumeConfig};
        let config = NumeConfig { square: Some(3), komi: None, ..NumeConfig::default() };
        let game = Nume::from_position(config, "w(2)bw(1)/1b(2)1/b(4)bw(3) 1 - - bw").unwrap();
        let p = Guided {
            network: Arc::new(zeros(game.observation_len(), game.num_actions(), 4)),
            config: PuctConfig { iterations: 20, ..PuctConfig::default() },
            rollout_weight: 1.0,
            expansion_visits: 1_000_000,
            policy_temperature: 1.0,
        };
        let tree = p.search(&game, &mut Buffers::default(), &Stop::new()).unwrap();
        let c2 = game.action_of(game.parse_move("c2").unwrap()).unwrap();
        let stats = tree.root_stats().into_iter().find(|s| s.0 == c2).unwrap();
        assert!(stats.1 > 0 && stats.2 == 0.0, "c2: {stats:?}");
    }

    #[test]
    fn a_network_reads_features_when_its_inputs_take_them() {
        let g = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let (plain, with) = (g.network_input_len(false), g.network_input_len(true));
        assert!(with > plain);
        let a = g.num_actions();
        assert_eq!(zeros(plain, a, 4).reads_features(&g), Some(false));
        assert_eq!(zeros(with, a, 4).reads_features(&g), Some(true));
        assert_eq!(zeros(with + 1, a, 4).reads_features(&g), None, "another input size");
        assert_eq!(zeros(plain, a + 1, 4).reads_features(&g), None, "another game's actions");
        let other = Tabik::new(TabikConfig { size: 5, pie: true }).unwrap();
        assert_eq!(zeros(plain, a, 4).reads_features(&other), None, "another board");
    }

    #[test]
    fn a_self_play_solve_gets_32_bytes_a_position_from_1_to_64_mib() {
        assert_eq!(solve_memory(0), 1 << 20);
        assert_eq!(solve_memory(1_000), 1 << 20);
        assert_eq!(solve_memory(100_000), 3_200_000);
        assert_eq!(solve_memory(u64::MAX), 64 << 20);
    }

    #[test]
    fn rollouts_find_the_winning_swap_on_2x2() {
        // Tabik 2x2 with the pie rule: after any first placement, the swap is the only
        // winning answer (docs/solved.md); a value of zero everywhere cannot tell, the
        // playouts can.
        let mut game = Tabik::new(TabikConfig { size: 2, pie: true }).unwrap();
        game.play_str("a1-b1").unwrap();
        let best = solve(&game, None).unwrap().best_moves;
        let mv = player(&game, 400, 1.0).choose(&game, &mut Buffers::default(), &Stop::new()).unwrap();
        assert!(best.contains(&mv), "{} is not one of the best moves", game.move_text(mv));
        assert!(Tabik::is_pie_swap(mv));
    }

    #[test]
    fn an_expansion_threshold_expands_a_leaf_on_its_nth_visit() {
        let game = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let root_children = game.legal_count();
        let search = |expansion_visits, iterations| {
            let p = Guided { expansion_visits, ..player(&game, iterations, 0.0) };
            p.search(&game, &mut Buffers::default(), &Stop::new()).unwrap()
        };
        // Never due: the root alone is expanded, and every simulation is a playout.
        let tree = search(1_000_000, 500);
        assert_eq!(tree.size(), 1 + root_children);
        assert_eq!(tree.simulations(), 500);
        assert_eq!(tree.root_stats().iter().map(|s| s.1).sum::<u32>(), 499);
        // Each visit is valued by its playout (Tabik has no draws): a child's mean is 0
        // only when its wins and losses happen to balance.
        let valued = tree.root_stats().iter().filter(|s| s.2 != 0.0).count();
        assert!(valued > root_children / 2, "{valued} of {root_children}");
        // Due on the third visit: as many expansions as children visited three times
        // or more (below the root), each adding that child's moves.
        let tree = search(3, 500);
        let expanded = tree.root_stats().iter().filter(|s| s.1 >= 3).count();
        assert!(expanded > 0 && tree.size() > 1 + root_children);
        // At once (1): every simulation but the first expands a new leaf.
        assert!(search(1, 50).size() > search(3, 50).size());
    }

    /// The root's priors are `softmax(logits / policy_temperature)`: a network whose
    /// only opinion is a logit of 2 for one move gives it `e^(2/T) / (e^(2/T) + n - 1)`.
    #[test]
    fn the_policy_temperature_divides_the_logits_of_the_priors() {
        let game = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let favourite = game.action_of(game.legal_moves()[3]).unwrap();
        let mut logits = vec![0.0f32; game.num_actions()];
        logits[favourite] = 2.0;
        let network = Arc::new(fixed(game.observation_len(), 4, &logits, 0.0));
        let n = game.legal_count() as f32;
        for policy_temperature in [0.25f32, 0.5, 1.0, 4.0] {
            let p = Guided { network: network.clone(), policy_temperature, ..player(&game, 1, 0.0) };
            let tree = p.search(&game, &mut Buffers::default(), &Stop::new()).unwrap();
            let stats = tree.root_stats();
            let prior = stats.iter().find(|s| s.0 == favourite).unwrap().3;
            let e = (2.0 / policy_temperature).exp();
            assert!((prior - e / (e + n - 1.0)).abs() < 1e-5, "T {policy_temperature}: {prior}");
            let other = stats.iter().find(|s| s.0 != favourite).unwrap().3;
            assert!((other - 1.0 / (e + n - 1.0)).abs() < 1e-5, "T {policy_temperature}: {other}");
        }
    }

    #[test]
    fn a_threshold_still_finds_the_winning_swap_on_2x2() {
        let mut game = Tabik::new(TabikConfig { size: 2, pie: true }).unwrap();
        game.play_str("a1-b1").unwrap();
        let p = Guided { expansion_visits: 8, ..player(&game, 400, 0.0) };
        let mv = p.choose(&game, &mut Buffers::default(), &Stop::new()).unwrap();
        assert!(Tabik::is_pie_swap(mv));
    }

    #[test]
    fn self_play_is_seeded_and_its_examples_add_up() {
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let p = player(&start, 30, 0.5);
        let run = |seed| {
            let mut data = SelfPlayData::default();
            let moves = p.self_play(&start, 4, 0, seed, &mut Buffers::default(), &mut data, &Stop::new()).unwrap();
            (moves, data)
        };
        let (moves, data) = run(3);
        assert_eq!(run(3), (moves, data.clone()));
        assert_ne!(run(4).1, data);
        let n = moves as usize;
        assert_eq!(data.lengths, [moves]);
        assert_eq!(data.obs.len(), n * start.observation_len());
        assert_eq!(data.results.len(), n);
        assert_eq!(data.values.len(), n);
        assert!(data.values.iter().all(|v| (-1.0..=1.0).contains(v)));
        let actions = start.num_actions();
        for (row, mask) in data.policy.chunks(actions).zip(data.masks.chunks(actions)) {
            assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(row.iter().zip(mask).all(|(&p, &legal)| legal || p == 0.0));
        }
        assert!(data.results.iter().all(|&r| r == 1.0 || r == -1.0 || r == 0.0));
        // Seats alternate in Tabik (no pass twice here): the results alternate in sign.
        assert!(data.results.windows(2).all(|w| w[0] == -w[1]));
    }

    #[test]
    fn self_play_at_one_simulation_a_move_still_plays_whole_games() {
        // One simulation expands the root and visits no child: nothing to draw a move
        // from in proportion to visits, so even the sampled moves are the best action.
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let p = player(&start, 1, 0.5);
        let mut data = SelfPlayData::default();
        let moves = p.self_play(&start, 100, 0, 5, &mut Buffers::default(), &mut data, &Stop::new()).unwrap();
        assert!(moves > 0 && data.lengths == [moves]);
        assert_eq!(data.results.len(), moves as usize);
    }

    #[test]
    fn self_play_games_do_not_depend_on_the_threads() {
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let p = player(&start, 20, 0.5);
        let one = self_play_games(&start, &p, 0, 5, 3, 0, 9, Some(1), &Stop::new()).unwrap();
        let two = self_play_games(&start, &p, 0, 5, 3, 0, 9, Some(2), &Stop::new()).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.lengths.len(), 5);
        assert_eq!(one.results.len() as u32, one.lengths.iter().sum::<u32>());
    }

    /// A digest of every bit of `data` (FNV-1a over the values' bits).
    fn digest(data: &SelfPlayData) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |bits: u64| {
            h ^= bits;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for v in data.obs.iter().chain(&data.policy).chain(&data.results).chain(&data.values) {
            eat(u64::from(v.to_bits()));
        }
        for v in data.margins.iter().chain(&data.ownership) {
            eat(u64::from(v.to_bits()));
        }
        data.masks.iter().for_each(|&m| eat(u64::from(m)));
        data.lengths.iter().for_each(|&n| eat(u64::from(n)));
        h
    }

    #[test]
    fn solve_nodes_0_leaves_the_data_as_they_were() {
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let p = player(&start, 20, 0.5);
        let data = self_play_games(&start, &p, 0, 6, 3, 0, 11, Some(2), &Stop::new()).unwrap();
        // The digest of these games' data before solving was added.
        assert_eq!(digest(&data), 0x8ec1_0c89_e3bf_3534);
        assert_eq!(data.solved, vec![false; data.results.len()]);
    }

    /// Each game's positions, replayed from `start`: the move from one position to the
    /// next is the one legal move giving the next position's network input.
    fn replay(start: &Tabik, data: &SelfPlayData) -> Vec<Tabik> {
        let len = start.observation_len();
        let mut obs = vec![0.0; len];
        let mut positions = Vec::new();
        let mut at = 0;
        for &n in &data.lengths {
            let mut game = start.clone();
            for k in at..at + n as usize {
                positions.push(game.clone());
                if k + 1 == at + n as usize {
                    break;
                }
                let next = &data.obs[(k + 1) * len..(k + 2) * len];
                let fits: Vec<_> = game
                    .legal_moves()
                    .into_iter()
                    .filter(|&mv| {
                        let mut after = game.clone();
                        after.play_unchecked(mv);
                        after.network_input(false, &mut obs);
                        obs == next
                    })
                    .collect();
                assert_eq!(fits.len(), 1, "one move leads to the next position");
                game.play_unchecked(fits[0]);
            }
            at += n as usize;
        }
        positions
    }

    #[test]
    fn solved_targets_are_each_games_last_positions_with_their_exact_values() {
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let p = player(&start, 20, 0.5);
        let limit = 3000;
        let plain = self_play_games(&start, &p, 0, 8, 3, 0, 5, Some(1), &Stop::new()).unwrap();
        let data = self_play_games(&start, &p, 0, 8, 3, limit, 5, Some(2), &Stop::new()).unwrap();
        // The games are the same; only the solved positions' results differ.
        let SelfPlayData { results, solved, .. } = data.clone();
        assert_eq!(
            SelfPlayData { results: plain.results.clone(), solved: plain.solved.clone(), ..data.clone() },
            plain
        );
        let positions = replay(&start, &data);
        assert_eq!(positions.len(), results.len());
        let (mut at, mut some_not) = (0, false);
        for &n in &data.lengths {
            let game = at..at + n as usize;
            let unsolved = solved[game.clone()].iter().take_while(|&&s| !s).count();
            assert!(solved[game.start + unsolved..game.end].iter().all(|&s| s), "a suffix of each game");
            assert!(unsolved < game.len(), "the last position of a game is small");
            if unsolved > 0 {
                // The walk stopped at a position not solved within the limit.
                some_not = true;
                let limits =
                    SolveLimits { max_nodes: Some(limit), memory: solve_memory(limit), ..SolveLimits::default() };
                let last = game.start + unsolved - 1;
                assert_eq!(solve_with(&positions[last], &limits).unwrap_err(), SolveError::NodeLimit(limit));
            }
            for k in game.clone() {
                if solved[k] {
                    assert_eq!(results[k], f32::from(solve(&positions[k], None).unwrap().value), "position {k}");
                } else {
                    assert_eq!(results[k], plain.results[k]);
                }
            }
            at = game.end;
        }
        assert!(some_not && solved.iter().any(|&s| s));
        // Some exact value differs from the game's result (else nothing was tested).
        assert!(results.iter().zip(&plain.results).any(|(a, b)| a != b));
    }

    #[test]
    fn a_round_played_in_ranges_is_the_round() {
        let start = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        let p = player(&start, 20, 0.5);
        let whole = self_play_games(&start, &p, 0, 6, 3, 2000, 7, Some(2), &Stop::new()).unwrap();
        let mut parts = SelfPlayData::default();
        for (first, games) in [(0, 1), (1, 4), (5, 1)] {
            parts.append(&self_play_games(&start, &p, first, games, 3, 2000, 7, Some(1), &Stop::new()).unwrap());
        }
        assert_eq!(parts, whole);
        assert!(whole.solved.iter().any(|&s| s));
    }

    #[test]
    fn a_stop_ends_the_solving_of_a_games_end() {
        let positions = [Tabik::new(TabikConfig { size: 3, pie: true }).unwrap()];
        let (mut results, mut solved) = ([0.0], [false]);
        let stop = Stop::new();
        stop.stop();
        assert!(solve_the_end(&positions, 1_000_000, &mut results, &mut solved, &stop).is_err());
        assert_eq!(solved, [false]);
        solve_the_end(&positions, 1_000_000, &mut results, &mut solved, &Stop::new()).unwrap();
        assert_eq!(solved, [true]);
    }

    #[test]
    fn a_stop_ends_a_search() {
        let game = Tabik::new(TabikConfig { size: 6, pie: true }).unwrap();
        let stop = Stop::new();
        stop.stop();
        assert!(player(&game, 1_000_000, 0.0).search(&game, &mut Buffers::default(), &stop).is_err());
    }

    #[test]
    fn a_finish_ends_a_search_with_a_move_and_progress_follows_it() {
        let game = Tabik::new(TabikConfig { size: 6, pie: true }).unwrap();
        let p = Guided { expansion_visits: 5, ..player(&game, 1_000_000, 0.0) };
        let (finish, progress) = (Stop::new(), Progress::default());
        finish.stop();
        let watch = Watch { finish: &finish, progress: Some(&progress) };
        let tree = p.search_watched(&game, &mut Buffers::default(), &Stop::new(), watch).unwrap();
        // Ended at the first check after the root's expansion (its 5th visit).
        assert!(tree.best_action().is_some());
        assert!((15..=31).contains(&tree.simulations()), "{}", tree.simulations());
        let (done, best, value) = progress.read();
        assert_eq!((done, best, value), (u64::from(tree.simulations()), tree.best_action(), tree.root_value()));
        // A finish with nobody following the progress ends the search all the same.
        let watch = Watch { finish: &finish, progress: None };
        let unfollowed = p.search_watched(&game, &mut Buffers::default(), &Stop::new(), watch).unwrap();
        assert_eq!(unfollowed.simulations(), tree.simulations());
        // Unwatched, the same search runs to its end, and reports its end when watched.
        let p = player(&game, 200, 0.0);
        let full = p.search(&game, &mut Buffers::default(), &Stop::new()).unwrap();
        let watch = Watch { finish: &Stop::new(), progress: Some(&progress) };
        let watched = p.search_watched(&game, &mut Buffers::default(), &Stop::new(), watch).unwrap();
        assert_eq!(full.root_stats(), watched.root_stats());
        assert_eq!(progress.read(), (200, full.best_action(), full.root_value()));
    }
}
