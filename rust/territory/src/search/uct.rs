//! UCT: Monte Carlo tree search with uniform random playouts and the UCB1 rule.
//!
//! Each node holds the visits and the summed results (+1 win, 0 draw, -1 loss) from the
//! point of view of the seat that made its move. A node's children are created, all at
//! once, when it has been visited `EXPAND_AFTER` times and at least `n / WIDEN` times, `n`
//! being its number of legal moves (progressive widening of expansion: the tree grows by
//! at most about `WIDEN` nodes per visit, so wide games such as Nume, with thousands of
//! moves, do not spend their iterations writing nodes); unvisited children are tried
//! first, in a random order, then the child maximising
//! `mean + c * sqrt(ln(parent visits) / visits)` is followed (ties: the first in the
//! list). Rollouts are the game's own [`Game::random_playout`]. Nodes live in one arena,
//! reused across iterations; the root position is copied back (`clone_from`, which the
//! games implement without allocating) after each iteration, so the loop does not
//! allocate once the arena has grown.
//!
//! Root parallelism: `threads` independent trees with seeds derived from `(seed,
//! thread)`, sharing the iterations, whose root statistics are added up. The same seed
//! and number of threads always give the same analysis.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::rules::game::{Game, Seat};
use crate::rules::playout::game_rng;
use crate::rules::run::{each_thread, Interrupted, Stop};
use crate::search::watch::{Progress, Watch};

/// The most iterations a search may be given: the tree grows by up to about a hundred
/// bytes per iteration (about 1.5 GB at this bound), and a node counts its visits in 32
/// bits.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// Parameters of a UCT search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctConfig {
    /// Playouts in all (shared by the threads).
    pub iterations: u64,
    /// Exploration constant of UCB1 (values are in [-1, 1]).
    pub c: f64,
    pub seed: u64,
    /// Independent trees searched in parallel (root parallelism), at least 1.
    pub threads: usize,
}

impl Default for UctConfig {
    fn default() -> UctConfig {
        UctConfig {
            iterations: 1000,
            c: 1.4,
            seed: 0,
            threads: 1,
        }
    }
}

/// What a search found at the root: per legal move (in legal-move order) its visits and
/// mean result for the player to move, and the root's value for that player.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    pub moves: Vec<M>,
    pub visits: Vec<u64>,
    /// Mean result in [-1, 1] for the player to move (0 for an unvisited move).
    pub values: Vec<f64>,
    /// Mean result over all iterations, in [-1, 1], for the player to move.
    pub value: f64,
}

impl<M: Copy> Analysis<M> {
    /// The most visited move (ties: the higher mean value, then the first listed).
    pub fn best(&self) -> Option<M> {
        (0..self.moves.len())
            .max_by(|&a, &b| {
                (self.visits[a], self.values[a])
                    .partial_cmp(&(self.visits[b], self.values[b]))
                    .unwrap()
                    .then(b.cmp(&a))
            })
            .map(|i| self.moves[i])
    }
}

const NONE: u32 = u32::MAX;
/// A node's children are created on its visit number `EXPAND_AFTER + 1`; until then
/// iterations run playouts from it (it keeps the tree small where moves are many).
const EXPAND_AFTER: u32 = 4;
/// Progressive widening of expansion: a node with `n` legal moves is expanded only once it
/// has `n / WIDEN` visits too, so the tree grows by at most about `WIDEN` nodes per
/// iteration however many moves a position has (Nume: thousands), instead of filling
/// memory with children of nodes visited a few times.
const WIDEN: u32 = 16;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// The seat that played `mv`.
    mover: Seat,
    visits: u32,
    total: f64,
    /// Children occupy `first_child .. first_child + n_children`; `NONE`: not expanded.
    first_child: u32,
    /// Unexpanded: the number of legal moves once counted, else 0.
    n_children: u32,
    /// Children `first_child .. first_child + n_tried` have been visited.
    n_tried: u32,
}

/// One search tree with its scratch space.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    /// Per node, `[mean, 1 / sqrt(visits)]`: what UCB1 reads, packed apart from the
    /// nodes so the loop over many children stays in cache.
    ucb: Vec<[f32; 2]>,
    moves: Vec<G::Move>,
    path: Vec<u32>,
}

impl<G: Game> Tree<G> {
    fn new() -> Tree<G> {
        Tree {
            nodes: Vec::new(),
            ucb: Vec::new(),
            moves: Vec::new(),
            path: Vec::new(),
        }
    }

    fn expand(&mut self, node: usize, game: &G) {
        let mover = game.to_move().expect("only running games are expanded");
        self.moves.clear();
        game.legal_moves_into(&mut self.moves);
        let first = self.nodes.len() as u32;
        self.nodes.extend(self.moves.iter().map(|&mv| Node {
            mv,
            mover,
            visits: 0,
            total: 0.0,
            first_child: NONE,
            n_children: 0,
            n_tried: 0,
        }));
        self.ucb.resize(self.nodes.len(), [0.0; 2]);
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.n_children = self.moves.len() as u32;
    }

    /// The child of `node` to follow.
    fn select(&mut self, node: usize, c: f64, rng: &mut Xoshiro256PlusPlus) -> usize {
        let Node {
            first_child,
            n_children,
            n_tried,
            visits,
            ..
        } = self.nodes[node];
        let first = first_child as usize;
        if n_tried < n_children {
            // An untried child, at random: swap it to the end of the tried ones (untried
            // children have no subtree, so moving them is free).
            let pick = first + rng.random_range(n_tried..n_children) as usize;
            let slot = first + n_tried as usize;
            self.nodes.swap(pick, slot);
            self.ucb.swap(pick, slot);
            self.nodes[node].n_tried += 1;
            return slot;
        }
        let c_log = (c * (visits as f64).ln().sqrt()) as f32;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for (i, &[mean, inv_sqrt]) in self.ucb[first..first + n_children as usize]
            .iter()
            .enumerate()
        {
            let score = mean + c_log * inv_sqrt;
            if score > best_score {
                best_score = score;
                best = first + i;
            }
        }
        best
    }

    /// Runs `iterations` iterations from `root` (left unchanged), or fewer if `stop` is
    /// set (an error) or `watch.finish` (checked every [`Stop::EVERY`] iterations, when
    /// the count done is added to `watch.progress`, and the best move so far set by the
    /// tree that `reports`). Always inlined, into each copy of `cpu::dispatch`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        root: &mut G,
        iterations: u64,
        c: f64,
        rng: &mut Xoshiro256PlusPlus,
        stop: &Stop,
        watch: Watch<'_>,
        reports: bool,
    ) -> Result<(), Interrupted> {
        self.nodes.clear();
        self.ucb.clear();
        let Some(root_mover) = root.to_move() else {
            return Ok(());
        };
        self.moves.clear();
        root.legal_moves_into(&mut self.moves);
        self.nodes.push(Node {
            // The root's move is never played: any move of the right type serves.
            mv: self.moves[0],
            mover: root_mover.other(),
            visits: 0,
            total: 0.0,
            first_child: NONE,
            n_children: 0,
            n_tried: 0,
        });
        self.expand(0, root);
        // The root, copied back after each iteration: the games' `clone_from` reuses the
        // allocations, and it drops whatever a playout left lazily undone (keys, Nume's
        // group forest), which undoing move by move would first catch up.
        root.reserve_moves();
        let saved = root.clone();
        for iteration in 0..iterations {
            if iteration % Stop::EVERY == 0 {
                stop.check()?;
                if iteration > 0 {
                    if let Some(progress) = watch.progress {
                        progress.add(Stop::EVERY);
                        if reports {
                            self.report(root, progress);
                        }
                    }
                    if watch.finish.is_stopped() {
                        return Ok(());
                    }
                }
            }
            self.path.clear();
            self.path.push(0);
            let mut node = 0;
            while !root.is_over() {
                if self.nodes[node].first_child == NONE {
                    let visits = self.nodes[node].visits;
                    if visits < EXPAND_AFTER {
                        break;
                    }
                    // Unexpanded, `n_children` caches the number of legal moves (0: not
                    // counted yet; a running game has at least one).
                    if self.nodes[node].n_children == 0 {
                        self.moves.clear();
                        root.legal_moves_into(&mut self.moves);
                        self.nodes[node].n_children = self.moves.len() as u32;
                    }
                    if visits < self.nodes[node].n_children / WIDEN {
                        break;
                    }
                    self.expand(node, root);
                }
                node = self.select(node, c, rng);
                root.play_unchecked(self.nodes[node].mv);
                self.path.push(node as u32);
            }
            // The winning seat's index, or -1 for a draw.
            let winner = root.random_playout(rng).winner;
            let results = [0, 1].map(|seat| match winner {
                -1 => 0.0,
                w if w == seat => 1.0,
                _ => -1.0,
            });
            for &i in &self.path {
                let n = &mut self.nodes[i as usize];
                n.visits += 1;
                n.total += results[n.mover.index()];
                self.ucb[i as usize] = [
                    (n.total / n.visits as f64) as f32,
                    1.0 / (n.visits as f32).sqrt(),
                ];
            }
            root.clone_from(&saved);
        }
        Ok(())
    }

    /// Sets the most visited root move and the root's value in `progress`.
    fn report(&self, root: &G, progress: &Progress) {
        let best = self.root_children().max_by_key(|c| c.visits);
        let action = best.map(|c| root.action_of(c.mv).expect("legal moves have actions"));
        let r = &self.nodes[0];
        progress.set_best(action, if r.visits == 0 { 0.0 } else { (-r.total / r.visits as f64) as f32 });
    }

    /// The root's children, in the tree's order.
    fn root_children(&self) -> impl Iterator<Item = &Node<G::Move>> {
        let root = self.nodes.first();
        let range = root.map_or(0..0, |r| {
            if r.first_child == NONE {
                0..0
            } else {
                r.first_child as usize..(r.first_child + r.n_children) as usize
            }
        });
        self.nodes[range].iter()
    }
}

/// Searches `game` with UCT and returns the statistics of its legal moves.
///
/// # Panics
/// If a thread of the search panics.
pub fn analyse<G: Game>(game: &G, config: &UctConfig) -> Analysis<G::Move> {
    analyse_until(game, config, &Stop::new()).expect("nothing stops this search")
}

/// [`analyse`], stopped early when `stop` is set.
///
/// # Errors
/// If `stop` is set before the search ends.
///
/// # Panics
/// If a thread of the search panics.
pub fn analyse_until<G: Game>(
    game: &G,
    config: &UctConfig,
    stop: &Stop,
) -> Result<Analysis<G::Move>, Interrupted> {
    analyse_watched(game, config, stop, Watch::NONE)
}

/// [`analyse_until`], watched: setting `watch.finish` ends the search at once (each
/// tree after at least one iteration) with the statistics it has; `watch.progress`
/// counts the iterations done and holds the first tree's most visited move and value.
///
/// # Errors
/// If `stop` is set before the search ends.
///
/// # Panics
/// If a thread of the search panics.
pub fn analyse_watched<G: Game>(
    game: &G,
    config: &UctConfig,
    stop: &Stop,
    watch: Watch<'_>,
) -> Result<Analysis<G::Move>, Interrupted> {
    let moves = game.legal_moves();
    // Position of each action in the legal-move list.
    let mut slot = vec![usize::MAX; game.num_actions()];
    for (i, &mv) in moves.iter().enumerate() {
        slot[game.action_of(mv).expect("legal moves have actions")] = i;
    }
    let threads = config.threads.max(1);
    let per_thread = each_thread(threads, |t| {
        let mut game = game.clone();
        let mut tree = Tree::<G>::new();
        let iterations = config.iterations / threads as u64
            + ((t as u64) < config.iterations % threads as u64) as u64;
        let mut rng = game_rng(config.seed, t as u64);
        crate::rules::cpu::dispatch(
            #[inline(always)]
            || tree.search(&mut game, iterations, config.c, &mut rng, stop, watch, t == 0),
        )?;
        // Root statistics in legal-move order.
        let mut stats = vec![(0u64, 0.0f64); moves.len()];
        for child in tree.root_children() {
            let i = slot[game.action_of(child.mv).expect("legal moves have actions")];
            stats[i] = (child.visits as u64, child.total);
        }
        Ok(stats)
    })
    .into_iter()
    .collect::<Result<Vec<Vec<(u64, f64)>>, Interrupted>>()?;
    let mut visits = vec![0u64; moves.len()];
    let mut totals = vec![0.0f64; moves.len()];
    for stats in &per_thread {
        for (i, &(v, t)) in stats.iter().enumerate() {
            visits[i] += v;
            totals[i] += t;
        }
    }
    let all: u64 = visits.iter().sum();
    let value = if all == 0 {
        0.0
    } else {
        totals.iter().sum::<f64>() / all as f64
    };
    let values = visits
        .iter()
        .zip(&totals)
        .map(|(&v, &t)| if v == 0 { 0.0 } else { t / v as f64 })
        .collect();
    let analysis = Analysis {
        moves,
        visits,
        values,
        value,
    };
    if let Some(progress) = watch.progress {
        progress.set_done(all);
        let best = analysis.best().map(|m| game.action_of(m).expect("legal moves have actions"));
        progress.set_best(best, value as f32);
    }
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Tabik, TabikConfig};

    #[test]
    fn progress_is_told_the_most_visited_move_and_the_roots_mean() {
        let mut g = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        g.play_str("b2-b3").unwrap();
        let mut tree = Tree::<Tabik>::new();
        let (stop, progress) = (Stop::new(), Progress::default());
        let watch = Watch { finish: &stop, progress: None };
        tree.search(&mut g.clone(), 2_000, 1.4, &mut game_rng(1, 0), &stop, watch, false).unwrap();
        tree.report(&g, &progress);
        let (mut visits, mut total) = (0, 0.0);
        for child in tree.root_children() {
            visits += child.visits;
            total += child.total;
        }
        let (_, best, value) = progress.read();
        // The children's results are the player to move's; the root holds the last
        // iteration's too, so the two means differ by at most 2 / visits.
        assert!((f64::from(value) - total / f64::from(visits)).abs() <= 2.0 / f64::from(visits), "{value}");
        let most = tree.root_children().max_by_key(|c| c.visits).unwrap();
        assert_eq!(best, Some(g.action_of(most.mv).unwrap()));
    }

    #[test]
    fn a_draw_is_worth_nothing_to_either_seat() {
        // Nume on 2x2 without komi: after these three moves the one move left draws.
        let mut g = crate::Nume::new(crate::NumeConfig { square: Some(2), komi: None, ..Default::default() }).unwrap();
        for mv in ["a1=1", "b2=1", "b1"] {
            g.play_str(mv).unwrap();
        }
        let a = analyse(&g, &UctConfig { iterations: 50, ..UctConfig::default() });
        assert_eq!(a.visits, [50]);
        assert_eq!(a.value, 0.0);
    }

    #[test]
    fn same_seed_same_analysis() {
        let g = Tabik::new(TabikConfig { size: 4, pie: true }).unwrap();
        for threads in [1, 2] {
            // An odd count: two threads share it 251 and 250.
            let config = UctConfig {
                iterations: 501,
                threads,
                ..UctConfig::default()
            };
            let a = analyse(&g, &config);
            assert_eq!(a, analyse(&g, &config));
            assert_eq!(a.visits.iter().sum::<u64>(), 501);
            assert!(a.value.abs() <= 1.0);
        }
    }

    /// The first thread reports the best move as it goes, not only at the end: read
    /// from another thread while a one-thread search runs.
    #[test]
    fn progress_shows_the_best_move_while_the_search_runs() {
        let g = Tabik::new(TabikConfig { size: 6, pie: true }).unwrap();
        let config = UctConfig { iterations: 50_000_000, threads: 1, ..UctConfig::default() };
        let (finish, progress) = (Stop::new(), Progress::default());
        std::thread::scope(|s| {
            let watch = Watch { finish: &finish, progress: Some(&progress) };
            let search = s.spawn(move || analyse_watched(&g, &config, &Stop::new(), watch));
            // Each count is followed by its report: once the second count is in, the
            // first report is too.
            while progress.read().0 < 2 * Stop::EVERY {
                std::thread::yield_now();
            }
            let best = progress.read().1;
            finish.stop();
            search.join().unwrap().unwrap();
            assert!(best.is_some(), "no best move reported while the search ran");
        });
    }

    #[test]
    fn a_finish_ends_a_search_with_its_statistics() {
        let g = Tabik::new(TabikConfig { size: 6, pie: true }).unwrap();
        for threads in [1, 2] {
            let config = UctConfig { iterations: 5_000_000, threads, ..UctConfig::default() };
            let (finish, progress) = (Stop::new(), Progress::default());
            finish.stop();
            let watch = Watch { finish: &finish, progress: Some(&progress) };
            let a = analyse_watched(&g, &config, &Stop::new(), watch).unwrap();
            // Each tree stops at its first check after an iteration.
            let all: u64 = a.visits.iter().sum();
            assert_eq!(all, Stop::EVERY * threads as u64);
            let (done, best, _) = progress.read();
            assert_eq!(done, all);
            assert!(best.is_some());
        }
        // Watched to its end: the same analysis as unwatched, the count and best move kept.
        let config = UctConfig { iterations: 3_000, ..UctConfig::default() };
        let progress = Progress::default();
        let watch = Watch { finish: &Stop::new(), progress: Some(&progress) };
        let a = analyse_watched(&g, &config, &Stop::new(), watch).unwrap();
        assert_eq!(a, analyse(&g, &config));
        let (done, best, _) = progress.read();
        assert_eq!(done, 3_000);
        assert!(best.is_some());
    }
}
