//! PUCT: tree search guided by a policy and a value (AlphaZero), whose evaluations the
//! caller makes, in batches.
//!
//! The engine does the game work and the caller (Python, with a neural network) only
//! evaluates positions: [`PuctTree::select`] walks from the root to a leaf and stops at
//! a position to evaluate; the caller reads its observation ([`PuctTree::observe`]) and
//! hands back the network's logits over all actions and its value for the player to move
//! ([`PuctTree::expand_and_backup`]). Many trees (one per game played in parallel) make
//! the caller's batches: [`PuctBatch`] gathers one leaf per tree and spreads the answers
//! back.
//!
//! - Each node holds its visits and the summed values from the point of view of the
//!   seat that made its move, as UCT does; values are seats' results (+1 win, 0 draw,
//!   -1 loss), so passes, the pie swap and any order of turns need nothing special.
//! - A leaf is expanded once, when evaluated: all its legal moves become children with
//!   the softmax of the logits over the legal actions as priors (plus Dirichlet noise at
//!   the root with `noise_fraction > 0`, for self-play).
//! - Selection follows the child maximising `Q + c * P * sqrt(N) / (1 + n)`, `N` the
//!   parent's visits, `n` the child's, `Q` its mean value for the player choosing;
//!   unvisited children count the parent's own mean (for that player) as their `Q`.
//!   Ties go to the child of the higher prior, then to the first in legal-move order:
//!   a node's children are put in order of falling prior one at a time, as selection
//!   reaches them, so that it reads the visited children and the first unvisited one
//!   only.
//! - A finished game met on the way is a leaf with its exact result: it is backed up at
//!   once (it counts as a simulation) without asking the caller.
//! - Exact values are proven upwards (MCTS-solver): a node whose chooser has a child
//!   proven to win, or whose children are all proven, is proven too, and a simulation
//!   reaching a proven node backs up its exact value. Selection takes a proven win and
//!   skips proven losses; the search ends once the root is proven.
//! - Every random draw (the noise) comes from the tree's seed: the same seed and the
//!   same evaluations give the same search.

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::observe::Learn;
use crate::rules::game::Seat;
use crate::rules::playout::{game_rng, play_out};
use crate::search::result_for;

/// Parameters of a PUCT search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctConfig {
    /// Simulations (evaluated leaves plus finished games reached), at least 1.
    pub iterations: u32,
    /// The exploration constant `c`.
    pub c_puct: f32,
    /// Concentration of the Dirichlet noise mixed into the root's priors.
    pub noise_alpha: f32,
    /// Weight of that noise, 0 (none: for play) to 1.
    pub noise_fraction: f32,
    pub seed: u64,
    /// Leaves give the network the game's features after the observation planes
    /// ([`Learn::network_input`]).
    pub features: bool,
}

impl Default for PuctConfig {
    fn default() -> PuctConfig {
        PuctConfig {
            iterations: 100,
            c_puct: 1.5,
            noise_alpha: 0.3,
            noise_fraction: 0.0,
            seed: 0,
            features: false,
        }
    }
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// The seat that played `mv`.
    mover: Seat,
    /// The leaf waits for its evaluation (selected in the current round).
    waiting: bool,
    prior: f32,
    /// Visits, the simulations in flight through the node included.
    visits: u32,
    /// Summed values for `mover`; each simulation in flight counts a loss until its
    /// value comes back (virtual loss).
    total: f32,
    /// Children occupy `first_child .. first_child + n_children`; `NONE`: not expanded.
    first_child: u32,
    n_children: u32,
    /// The node's place in its parent's legal-move order.
    rank: u32,
    /// How many of the children, from the first, are in place: the children of highest
    /// prior in order of falling prior (equal priors in legal-move order), every later one
    /// no higher. Selection puts the next one in place when it needs it
    /// ([`PuctTree::best_child`]).
    sorted: u32,
    /// The exact result for `mover` once proven (a finished game, or every child or a
    /// winning child proven: MCTS-solver), else [`UNPROVEN`].
    proven: i8,
}

/// [`Node::proven`] of a node whose value is not known exactly.
const UNPROVEN: i8 = i8::MIN;

/// A leaf selected and waiting for its evaluation.
#[derive(Clone, Debug)]
struct Leaf<G> {
    game: G,
    path: Vec<u32>,
    /// The seat to move at the leaf (its game may have been played on since).
    to_move: Seat,
}

/// What selection reads of every node, apart from the nodes and one array per field,
/// so that the loop over many children stays in cache and computes several children's
/// scores at once.
#[derive(Clone, Debug, Default)]
struct Selection {
    /// The mean value for the node's mover (unvisited: 0); a proven win +inf, a proven
    /// loss -inf.
    mean: Vec<f32>,
    prior: Vec<f32>,
    /// 1 + visits.
    visits_1: Vec<f32>,
}

impl Selection {
    fn fields<M>(node: &Node<M>) -> [f32; 3] {
        let mean = match node.proven {
            1 => f32::INFINITY,
            -1 => f32::NEG_INFINITY,
            _ if node.visits == 0 => 0.0,
            _ => node.total / node.visits as f32,
        };
        [mean, node.prior, (1 + node.visits) as f32]
    }

    fn push<M>(&mut self, node: &Node<M>) {
        let [mean, prior, visits_1] = Self::fields(node);
        self.mean.push(mean);
        self.prior.push(prior);
        self.visits_1.push(visits_1);
    }

    /// [`Selection::push`] for children just made (unvisited, not proven): mean 0, their
    /// priors, 1 + 0 visits.
    fn push_unvisited<M>(&mut self, children: &[Node<M>]) {
        let len = self.prior.len() + children.len();
        self.mean.resize(len, 0.0);
        self.prior.extend(children.iter().map(|child| child.prior));
        self.visits_1.resize(len, 1.0);
    }

    /// Reads node `i` again.
    fn update<M>(&mut self, i: usize, node: &Node<M>) {
        [self.mean[i], self.prior[i], self.visits_1[i]] = Self::fields(node);
    }

    /// The index of the first of the children `children` with the highest PUCT score
    /// `q + scale * prior / (1 + visits)`, `q` the mean or `first_play` if unvisited
    /// (a proven win's +inf is taken first, a proven loss's -inf never).
    ///
    /// The children are in order of falling prior as far as [`Node::sorted`] says, so every
    /// unvisited child after the first unvisited one scores no more than it does (the same
    /// `first_play`, a prior no larger): the visited children are always the first ones,
    /// and the scan stops at the first unvisited child. A wide node (Tabik 8x8's 300
    /// moves, Nume's 1,444 actions) costs its visited children, not all of them.
    fn best(&self, children: std::ops::Range<usize>, scale: f32, first_play: f32) -> usize {
        let mut best = children.start;
        let mut best_score = f32::NEG_INFINITY;
        for i in children {
            let visits_1 = self.visits_1[i];
            if visits_1 == 1.0 {
                if first_play + scale * self.prior[i] > best_score {
                    best = i;
                }
                break;
            }
            let score = self.mean[i] + scale * self.prior[i] / visits_1;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }
}

/// One search from one root position.
#[derive(Clone, Debug)]
pub struct PuctTree<G: Learn> {
    config: PuctConfig,
    root: G,
    nodes: Vec<Node<G::Move>>,
    /// Per node, what selection reads.
    selection: Selection,
    /// The leaves waiting, `leaves[..waiting]` (entries past it are kept for reuse).
    leaves: Vec<Leaf<G>>,
    waiting: usize,
    moves: Vec<G::Move>,
    /// Simulations backed up.
    done: u32,
    rng: Xoshiro256PlusPlus,
}

impl<G: Learn> PuctTree<G> {
    /// A search from `root`, which must be a running game.
    ///
    /// # Panics
    /// If `root` is over or `config.iterations` is 0.
    pub fn new(root: &G, config: PuctConfig) -> PuctTree<G> {
        let to_move = root.to_move().expect("the root must be a running game");
        assert!(
            config.iterations > 0,
            "a search needs at least one iteration"
        );
        let mut moves = Vec::new();
        root.legal_moves_into(&mut moves);
        let root_node = Node {
            // Never played: any move of the right type serves.
            mv: moves[0],
            mover: to_move.other(),
            waiting: false,
            prior: 1.0,
            visits: 0,
            total: 0.0,
            first_child: NONE,
            n_children: 0,
            rank: 0,
            sorted: 0,
            proven: UNPROVEN,
        };
        let mut selection = Selection::default();
        selection.push(&root_node);
        PuctTree {
            config,
            root: root.clone(),
            nodes: vec![root_node],
            selection,
            leaves: Vec::new(),
            waiting: 0,
            moves,
            done: 0,
            rng: game_rng(config.seed, 0),
        }
    }

    /// Whether every simulation has been run.
    pub fn is_done(&self) -> bool {
        self.done >= self.config.iterations || self.nodes[0].proven != UNPROVEN
    }

    /// The root's exact value for the player to move there (+1 win, 0 draw, -1 loss),
    /// once the search has proven it (the search then ends early).
    pub fn proven_value(&self) -> Option<i8> {
        let root = &self.nodes[0];
        (root.proven != UNPROVEN).then(|| -root.proven)
    }

    /// Selects up to `max` leaves to evaluate (at least one unless the search is done
    /// or leaves wait already) and appends their network inputs (observations, and
    /// features with `config.features`, from the point of view of the seat to move
    /// there) to `obs`; returns how many. Each leaf selected counts as a loss on its
    /// path until its value comes back (virtual loss), so the next selections go
    /// elsewhere; selection stops early when it meets a leaf already waiting. Finished
    /// games met on the way are backed up at once.
    pub fn select_leaves(&mut self, max: usize, obs: &mut Vec<f32>) -> usize {
        let first = self.waiting;
        while self.waiting - first < max && self.select_leaf() {
            let game = &self.leaves[self.waiting - 1].game;
            let len = game.network_input_len(self.config.features);
            let start = obs.len();
            obs.resize(start + len, 0.0);
            game.network_input(self.config.features, &mut obs[start..]);
        }
        self.waiting - first
    }

    /// Selects one more leaf to evaluate, as [`PuctTree::select_leaves`] does, without
    /// writing its input (read it from [`PuctTree::leaf_game`]); false if none (the
    /// search is done, or selection met a leaf already waiting).
    pub fn select_leaf(&mut self) -> bool {
        while self.done + (self.waiting as u32) < self.config.iterations && self.nodes[0].proven == UNPROVEN {
            if self.leaves.len() == self.waiting {
                self.leaves.push(Leaf {
                    game: self.root.clone(),
                    path: Vec::new(),
                    to_move: self.nodes[0].mover.other(),
                });
            }
            // The path is taken out and put back (no copy); the leaf's game is reset
            // in place, keeping its buffers.
            let mut path = std::mem::take(&mut self.leaves[self.waiting].path);
            self.leaves[self.waiting].game.clone_from(&self.root);
            path.clear();
            path.push(0);
            let mut node = 0;
            while self.nodes[node].first_child != NONE && self.nodes[node].proven == UNPROVEN {
                node = self.best_child(node);
                self.leaves[self.waiting].game.play_unchecked(self.nodes[node].mv);
                path.push(node as u32);
            }
            let game = &self.leaves[self.waiting].game;
            if self.nodes[node].proven == UNPROVEN && game.is_over() {
                self.nodes[node].proven = result_for(game, self.nodes[node].mover);
                self.selection.update(node, &self.nodes[node]);
                self.propagate_proof(&path);
            }
            let proven = self.nodes[node].proven;
            if proven != UNPROVEN {
                // An exact value: backed up as it is, without asking for an evaluation.
                let mover = self.nodes[node].mover;
                let value = f32::from(proven);
                self.add_along(&path, 1, |seat| if seat == mover { value } else { -value });
                self.done += 1;
                self.leaves[self.waiting].path = path;
                continue;
            }
            if self.nodes[node].waiting {
                self.leaves[self.waiting].path = path;
                return false;
            }
            self.nodes[node].waiting = true;
            self.add_along(&path, 1, |_| -1.0);
            let leaf = &mut self.leaves[self.waiting];
            leaf.to_move = leaf.game.to_move().expect("a running game");
            leaf.path = path;
            self.waiting += 1;
            return true;
        }
        false
    }

    /// Whether the `k`-th waiting leaf is due to be expanded under a threshold of
    /// `expansion_visits`: it is the root, or this visit is at least its
    /// `expansion_visits`-th. A leaf not due is backed up without being expanded
    /// ([`PuctTree::backup`]).
    pub fn leaf_due(&self, k: usize, expansion_visits: u32) -> bool {
        assert!(k < self.waiting, "no leaf {k} waits for an evaluation");
        let node = *self.leaves[k].path.last().expect("a path has the root") as usize;
        // Visits count this one (its virtual loss).
        node == 0 || self.nodes[node].visits >= expansion_visits
    }

    /// The game at waiting leaf `k` (`k < waiting()`), the seat to move there being
    /// the one its evaluation is for.
    pub fn leaf_game(&self, k: usize) -> &G {
        assert!(k < self.waiting, "no leaf {k} waits for an evaluation");
        &self.leaves[k].game
    }

    /// The number of nodes: the root and the children of every expanded node.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// The number of simulations backed up so far.
    pub fn simulations(&self) -> u32 {
        self.done
    }

    /// The number of leaves waiting for their evaluations.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// Expands the `k`-th waiting leaf with the priors `softmax(logits)` over its legal
    /// actions (`logits` has one entry per action of the game) and backs up `value`, the
    /// leaf's value in [-1, 1] for the seat to move there. Once every waiting leaf has
    /// its evaluation, call [`PuctTree::finish_round`].
    ///
    /// # Panics
    /// If no `k`-th leaf waits, or `logits` is shorter than the game's actions.
    pub fn expand_and_backup(&mut self, k: usize, logits: &[f32], value: f32) {
        self.expand(k, logits);
        self.backup(k, value);
    }

    /// Expands the `k`-th waiting leaf with the priors `softmax(logits)` over its legal
    /// actions, without backing up a value yet ([`PuctTree::backup`] does).
    ///
    /// # Panics
    /// If no `k`-th leaf waits, it was played on, or `logits` is shorter than the
    /// game's actions.
    pub fn expand(&mut self, k: usize, logits: &[f32]) {
        assert!(k < self.waiting, "no leaf {k} waits for an evaluation");
        let node = *self.leaves[k].path.last().expect("a path has the root") as usize;
        let game = &self.leaves[k].game;
        self.moves.clear();
        game.legal_moves_into(&mut self.moves);
        let to_move = game.to_move().expect("a waiting leaf is a running game");
        let first = self.nodes.len();
        let mut max = f32::NEG_INFINITY;
        self.nodes.extend(self.moves.iter().enumerate().map(|(rank, &mv)| {
            // The child's logit, kept as its prior until the softmax below.
            let logit = logits[game.action_of(mv).expect("legal moves have actions")];
            max = max.max(logit);
            Node {
                mv,
                mover: to_move,
                waiting: false,
                prior: logit,
                visits: 0,
                total: 0.0,
                first_child: NONE,
                n_children: 0,
                rank: rank as u32,
                sorted: 0,
                proven: UNPROVEN,
            }
        }));
        let mut sum = 0.0;
        for child in &mut self.nodes[first..] {
            child.prior = (child.prior - max).exp();
            sum += child.prior;
        }
        for child in &mut self.nodes[first..] {
            child.prior /= sum;
        }
        if node == 0 && self.config.noise_fraction > 0.0 {
            self.add_noise(first);
        }
        self.selection.push_unvisited(&self.nodes[first..]);
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.n_children = self.moves.len() as u32;
    }

    /// Plays the `k`-th waiting leaf's game out at random, in place (nothing else may
    /// read it afterwards: expand first), and returns the result for the seat to move
    /// at the leaf: +1, 0 or -1.
    ///
    /// # Panics
    /// If no `k`-th leaf waits.
    pub fn play_out_leaf(&mut self, k: usize, rng: &mut Xoshiro256PlusPlus) -> f32 {
        assert!(k < self.waiting, "no leaf {k} waits for an evaluation");
        let leaf = &mut self.leaves[k];
        f32::from(play_out(&mut leaf.game, rng).result_for(leaf.to_move))
    }

    /// Backs up `value` (in [-1, 1], for the seat to move there) for the `k`-th waiting
    /// leaf; a leaf not expanded stays a leaf, to be selected again.
    ///
    /// # Panics
    /// If no `k`-th leaf waits.
    pub fn backup(&mut self, k: usize, value: f32) {
        assert!(k < self.waiting, "no leaf {k} waits for an evaluation");
        let path = std::mem::take(&mut self.leaves[k].path);
        let node = *path.last().expect("a path has the root") as usize;
        let to_move = self.leaves[k].to_move;
        self.nodes[node].waiting = false;
        let value = value.clamp(-1.0, 1.0);
        // The virtual loss (-1) is taken back as the value comes in.
        self.add_along(&path, 0, |seat| 1.0 + if seat == to_move { value } else { -value });
        self.done += 1;
        self.leaves[k].path = path;
    }

    /// Ends a round: every waiting leaf has had its evaluation.
    ///
    /// # Panics
    /// If a waiting leaf has not been expanded.
    pub fn finish_round(&mut self) {
        for leaf in &self.leaves[..self.waiting] {
            let node = *leaf.path.last().expect("a path has the root") as usize;
            assert!(
                !self.nodes[node].waiting,
                "a leaf still waits for its evaluation"
            );
        }
        self.waiting = 0;
    }

    /// Mixes Dirichlet(alpha) noise into the priors of the children from `first` on.
    fn add_noise(&mut self, first: usize) {
        let alpha = self.config.noise_alpha;
        let fraction = self.config.noise_fraction;
        let noise: Vec<f32> = (first..self.nodes.len())
            .map(|_| gamma(alpha, &mut self.rng))
            .collect();
        let sum: f32 = noise.iter().sum();
        if sum.is_nan() || sum <= 0.0 {
            return;
        }
        for (node, n) in self.nodes[first..].iter_mut().zip(noise) {
            node.prior = (1.0 - fraction) * node.prior + fraction * n / sum;
        }
    }

    /// Adds `visits` and `value_for(mover)` to every node of `path`.
    fn add_along(&mut self, path: &[u32], visits: u32, value_for: impl Fn(Seat) -> f32) {
        for &i in path {
            let node = &mut self.nodes[i as usize];
            node.visits += visits;
            node.total += value_for(node.mover);
            self.selection.update(i as usize, node);
        }
    }

    /// After the last node of `path` was proven: proves its ancestors in turn while
    /// they can be (a child proven a win for the seat choosing there, or every child
    /// proven: the best of them), stopping at the first that cannot.
    fn propagate_proof(&mut self, path: &[u32]) {
        for &parent in path.iter().rev().skip(1) {
            let parent = parent as usize;
            let first = self.nodes[parent].first_child as usize;
            let children = &self.nodes[first..first + self.nodes[parent].n_children as usize];
            let chooser = children[0].mover;
            let best = children.iter().map(|c| c.proven).max().unwrap_or(UNPROVEN);
            let all = children.iter().all(|c| c.proven != UNPROVEN);
            let value = match (best, all) {
                (1, _) => 1,
                (_, true) => best,
                _ => return,
            };
            let node = &mut self.nodes[parent];
            node.proven = if node.mover == chooser { value } else { -value };
            self.selection.update(parent, node);
        }
    }

    /// The child of the expanded `node` to follow.
    fn best_child(&mut self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let first = parent.first_child as usize;
        let children = &self.nodes[first..first + parent.n_children as usize];
        let chooser = children[0].mover;
        let parent_mean = if parent.visits == 0 {
            0.0
        } else {
            parent.total / parent.visits as f32
        };
        let first_play = if parent.mover == chooser {
            parent_mean
        } else {
            -parent_mean
        };
        let scale = self.config.c_puct * (parent.visits.max(1) as f32).sqrt();
        let (n_children, sorted) = (parent.n_children as usize, parent.sorted as usize);
        if sorted < n_children && (sorted == 0 || self.nodes[first + sorted - 1].visits > 0) {
            // Every child in place was visited: the next one is put in place, the
            // unvisited child of highest prior (the first in legal-move order of equal
            // ones), swapped with the one there (neither was visited: no path holds them).
            let place = first + sorted;
            let next = self.highest_prior(place..first + n_children);
            self.nodes.swap(place, next);
            self.selection.update(place, &self.nodes[place]);
            self.selection.update(next, &self.nodes[next]);
            self.nodes[node].sorted += 1;
        }
        self.selection.best(first..first + n_children, scale, first_play)
    }

    /// The node of highest prior among `nodes` (a node's children not yet in place), the
    /// first in legal-move order (lowest rank) among equal ones; `nodes.start` if no
    /// prior is a number.
    ///
    /// A wide node (Nume n=4's 3,660 children) reads many priors for each child it puts in
    /// place, so they are read from the selection's contiguous array, eight lanes at a
    /// time (each lane keeping its highest prior and where it is), and the ranks only
    /// where priors are equal: a second pass counts the priors equal to the highest, and
    /// unless it is the one the lanes found, every equal one's rank is compared.
    fn highest_prior(&self, nodes: std::ops::Range<usize>) -> usize {
        const LANES: usize = 8;
        let start = nodes.start;
        let priors = &self.selection.prior[nodes];
        let mut lane_max = [f32::NEG_INFINITY; LANES];
        let mut lane_at = [0usize; LANES];
        let chunks = priors.chunks_exact(LANES);
        let tail = chunks.remainder();
        for (c, chunk) in chunks.enumerate() {
            for lane in 0..LANES {
                if chunk[lane] > lane_max[lane] {
                    lane_max[lane] = chunk[lane];
                    lane_at[lane] = c * LANES + lane;
                }
            }
        }
        let (mut max, mut at) = (f32::NEG_INFINITY, 0);
        let tail_at = priors.len() - tail.len();
        for (p, i) in lane_max.into_iter().zip(lane_at).chain(tail.iter().copied().zip(tail_at..)) {
            if p > max {
                (max, at) = (p, i);
            }
        }
        let equal = priors.iter().filter(|&&p| p == max).count();
        if equal == 0 {
            return start;
        }
        if equal > 1 {
            let rank = |i: usize| self.nodes[start + i].rank;
            at = (0..priors.len()).filter(|&i| priors[i] == max).min_by_key(|&i| rank(i)).expect("equal > 1");
        }
        start + at
    }

    /// The root's children: (action, visits, mean value for the player to move, prior),
    /// in legal-move order; empty before the root's evaluation.
    pub fn root_stats(&self) -> Vec<(usize, u32, f32, f32)> {
        self.stats_of(&self.root_children())
    }

    /// [`PuctTree::root_stats`] of the root's children `children`.
    fn stats_of(&self, children: &[usize]) -> Vec<(usize, u32, f32, f32)> {
        children
            .iter()
            .map(|&i| {
                let c = &self.nodes[i];
                let action = self.root.action_of(c.mv).expect("legal moves have actions");
                let mean = if c.visits == 0 {
                    0.0
                } else {
                    c.total / c.visits as f32
                };
                (action, c.visits, mean, c.prior)
            })
            .collect()
    }

    /// The root's children's nodes in legal-move order (selection puts them in order of
    /// prior); empty before the root's evaluation.
    fn root_children(&self) -> Vec<usize> {
        let root = &self.nodes[0];
        if root.first_child == NONE {
            return Vec::new();
        }
        let first = root.first_child as usize;
        let mut children = vec![0; root.n_children as usize];
        for i in first..first + root.n_children as usize {
            children[self.nodes[i].rank as usize] = i;
        }
        children
    }

    /// The root's mean value for the player to move there.
    pub fn root_value(&self) -> f32 {
        if let Some(value) = self.proven_value() {
            return f32::from(value);
        }
        let root = &self.nodes[0];
        if root.visits == 0 {
            0.0
        } else {
            -root.total / root.visits as f32
        }
    }

    /// The most visited root action (ties: the higher mean, then the higher prior, then
    /// the first in legal-move order); `None` before the root's evaluation.
    pub fn best_action(&self) -> Option<usize> {
        let children = self.root_children();
        let stats = self.stats_of(&children);
        // A move proven to win first, one proven to lose last.
        let class = |i: usize| match self.nodes[children[i]].proven {
            1 => 2,
            -1 => 0,
            _ => 1,
        };
        (0..stats.len())
            .max_by(|&a, &b| {
                (class(a), stats[a].1, stats[a].2, stats[a].3)
                    .partial_cmp(&(class(b), stats[b].1, stats[b].2, stats[b].3))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(b.cmp(&a))
            })
            .map(|i| stats[i].0)
    }

    /// The game at the root.
    pub fn root(&self) -> &G {
        &self.root
    }
}

/// A Gamma(alpha, 1) draw (Marsaglia and Tsang; alpha < 1 by boosting).
fn gamma(alpha: f32, rng: &mut Xoshiro256PlusPlus) -> f32 {
    let alpha = f64::from(alpha.max(1e-3));
    let (a, boost) = if alpha < 1.0 {
        (alpha + 1.0, rng.random::<f64>().powf(1.0 / alpha))
    } else {
        (alpha, 1.0)
    };
    let d = a - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal draw (Box-Muller).
        let u1: f64 = 1.0 - rng.random::<f64>();
        let u2: f64 = rng.random();
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = 1.0 - rng.random::<f64>();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return (d * v * boost) as f32;
        }
    }
}

/// Searches from many roots at once, asking for one leaf evaluation per unfinished tree
/// per round: the caller's batches are as large as the number of trees.
#[derive(Clone, Debug)]
pub struct PuctBatch<G: Learn> {
    pub trees: Vec<PuctTree<G>>,
    /// Leaves selected per tree and round, at most.
    leaves_per_tree: usize,
    /// The trees whose leaves the last [`PuctBatch::collect`] returned, in order, with
    /// their number of leaves.
    waiting: Vec<(usize, usize)>,
}

impl<G: Learn> PuctBatch<G> {
    /// One tree per root, tree `i` seeded from `(config.seed, i)`, each giving up to
    /// `leaves_per_tree` leaves (at least 1) per round.
    pub fn new(roots: &[G], config: PuctConfig, leaves_per_tree: usize) -> PuctBatch<G> {
        let trees = roots
            .iter()
            .enumerate()
            .map(|(i, root)| {
                let seed = game_rng(config.seed, i as u64).random::<u64>();
                PuctTree::new(root, PuctConfig { seed, ..config })
            })
            .collect();
        PuctBatch {
            trees,
            leaves_per_tree: leaves_per_tree.max(1),
            waiting: Vec::new(),
        }
    }

    /// Selects leaves in every unfinished tree and writes their observations, one after
    /// the other, into `obs` (cleared first). Returns the number of leaves (0: every
    /// search is done).
    ///
    /// # Panics
    /// If the leaves of the last `collect` have not been backed up.
    pub fn collect(&mut self, obs: &mut Vec<f32>) -> usize {
        assert!(
            self.waiting.is_empty(),
            "the last leaves wait for their evaluations"
        );
        obs.clear();
        let mut total = 0;
        for (i, tree) in self.trees.iter_mut().enumerate() {
            let n = tree.select_leaves(self.leaves_per_tree, obs);
            if n > 0 {
                self.waiting.push((i, n));
                total += n;
            }
        }
        total
    }

    /// Hands back the evaluations of the leaves of the last `collect`: `logits` holds
    /// one row of `num_actions` per leaf, `values` one value per leaf.
    ///
    /// # Panics
    /// If the lengths do not match the leaves waiting.
    pub fn backup(&mut self, logits: &[f32], values: &[f32]) {
        assert_eq!(values.len(), self.waiting(), "one value per leaf");
        let width = logits.len() / values.len().max(1);
        assert_eq!(
            width * values.len(),
            logits.len(),
            "one row of logits per leaf"
        );
        let mut row = 0;
        for &(i, n) in &self.waiting {
            let tree = &mut self.trees[i];
            for k in 0..n {
                tree.expand_and_backup(k, &logits[row * width..(row + 1) * width], values[row]);
                row += 1;
            }
            tree.finish_round();
        }
        self.waiting.clear();
    }

    /// How many leaves the last `collect` returned and still wait.
    pub fn waiting(&self) -> usize {
        self.waiting.iter().map(|&(_, n)| n).sum()
    }

    /// Runs every search to the end with `evaluate(observations, leaves) -> (logits,
    /// values)`.
    pub fn run(&mut self, mut evaluate: impl FnMut(&[f32], usize) -> (Vec<f32>, Vec<f32>)) {
        let mut obs = Vec::new();
        loop {
            let n = self.collect(&mut obs);
            if n == 0 {
                return;
            }
            let (logits, values) = evaluate(&obs, n);
            self.backup(&logits, &values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solve;
    use crate::{Game, Tabik, TabikConfig};

    fn uniform<G: Learn>(game: &G) -> impl FnMut(&[f32], usize) -> (Vec<f32>, Vec<f32>) {
        let actions = game.num_actions();
        move |_, n| (vec![0.0; n * actions], vec![0.0; n])
    }

    #[test]
    fn selection_takes_the_first_best_score_and_reads_proofs_and_first_play() {
        // Children: (mean, prior, 1 + visits).
        let selection = |children: &[(f32, f32, f32)]| Selection {
            mean: children.iter().map(|c| c.0).collect(),
            prior: children.iter().map(|c| c.1).collect(),
            visits_1: children.iter().map(|c| c.2).collect(),
        };
        // Visited children first, then the unvisited ones by falling prior (as
        // best_child puts them in place). Scores with scale 2: 0.5 + 0.5, 0.2 + 0.8 (a tie: the first),
        // 0.1 + 0.4; the first unvisited child first_play + 0.5.
        let s = selection(&[(0.5, 0.5, 2.0), (0.2, 0.8, 2.0), (0.1, 0.4, 2.0), (0.0, 0.25, 1.0), (0.0, 0.2, 1.0)]);
        assert_eq!(s.best(0..5, 2.0, 0.0), 0);
        assert_eq!(s.best(1..5, 2.0, 0.0), 1);
        // The first unvisited child plays as first_play: 0.9 + 0.5 beats them; a tie
        // with a visited child goes to the visited one, which comes first.
        assert_eq!(s.best(0..5, 2.0, 0.9), 3);
        assert_eq!(s.best(0..5, 2.0, 0.5), 0);
        assert_eq!(s.best(3..5, 2.0, 0.0), 3);
        // The scan ends at the first unvisited child: one after it is never read (here
        // a prior out of order, which best_child never leaves, would otherwise win).
        let s = selection(&[(0.0, 0.5, 2.0), (0.0, 0.1, 1.0), (0.0, 0.9, 1.0)]);
        assert_eq!(s.best(0..3, 1.0, 0.2), 1);
        // A proven win is taken whatever the others' priors; a proven loss never.
        let s = selection(&[(0.0, 0.9, 3.0), (f32::INFINITY, 0.01, 9.0), (f32::NEG_INFINITY, 0.09, 2.0)]);
        assert_eq!(s.best(0..3, 100.0, 0.0), 1);
        assert_eq!(s.best(2..3, 1.0, 0.0), 2, "the only child is taken, lost or not");
        // Many children: the last one best.
        let many: Vec<(f32, f32, f32)> = (0..37).map(|i| (i as f32 / 100.0, 0.01, 5.0)).collect();
        assert_eq!(selection(&many).best(0..37, 1.0, 0.0), 36);
    }

    fn tabik(size: usize, pie: bool) -> Tabik {
        Tabik::new(TabikConfig { size, pie }).unwrap()
    }

    #[test]
    fn uniform_priors_and_zero_values_spread_the_visits_evenly() {
        let g = tabik(6, true);
        let config = PuctConfig {
            iterations: 1 + 3 * 120,
            ..PuctConfig::default()
        };
        let mut batch = PuctBatch::new(&[g.clone()], config, 1);
        batch.run(uniform(&g));
        let stats = batch.trees[0].root_stats();
        assert_eq!(stats.len(), g.legal_moves().len());
        // The root's own evaluation is the first simulation; the rest go round the
        // 120 moves, three times each (ties: legal-move order).
        assert!(stats.iter().all(|s| s.1 == 3), "{stats:?}");
        assert!(stats.iter().all(|s| (s.3 - 1.0 / 120.0).abs() < 1e-6));
        assert_eq!(batch.trees[0].root_value(), 0.0);
        assert_eq!(batch.trees[0].best_action(), Some(stats[0].0));
    }

    #[test]
    fn each_tree_of_a_batch_gets_its_own_leaves_evaluations() {
        // Without noise a tree's seed changes nothing, so a root searched beside another,
        // several leaves a round, is searched as alone: each leaf's row of the batch's
        // answers reaches that leaf.
        let mut roots = vec![tabik(4, true), tabik(4, true)];
        roots[1].play_str("b2-b3").unwrap();
        let config = PuctConfig { iterations: 120, ..PuctConfig::default() };
        let search = |roots: &[Tabik]| {
            let mut batch = PuctBatch::new(roots, config, 3);
            batch.run(|obs, n| {
                let per = obs.len() / n;
                let rows = obs.chunks(per);
                let logits = rows.clone().flat_map(|row| (0..74).map(move |a| row[a % per] * (a % 5) as f32 * 0.1)).collect();
                let values = rows.map(|row| (row.iter().enumerate().map(|(i, v)| v * (i % 7) as f32).sum::<f32>() * 0.05).tanh()).collect();
                (logits, values)
            });
            batch.trees.iter().map(|t| t.root_stats()).collect::<Vec<_>>()
        };
        let together = search(&roots);
        assert_eq!(together[0], search(&roots[..1])[0]);
        assert_eq!(together[1], search(&roots[1..])[0]);
        assert_ne!(together[0], together[1]);
    }

    #[test]
    fn visits_add_up_and_the_same_seed_gives_the_same_search() {
        let mut roots = vec![tabik(4, true), tabik(4, true)];
        roots[1].play_str("b2-b3").unwrap();
        let config = PuctConfig {
            iterations: 300,
            noise_fraction: 0.25,
            seed: 7,
            ..PuctConfig::default()
        };
        let run = || {
            let mut batch = PuctBatch::new(&roots, config, 1);
            // Logits that favour low actions, values that depend on the observation.
            batch.run(|obs, n| {
                let logits = (0..n * 74).map(|i| -((i % 74) as f32) * 0.01).collect();
                let per = obs.len() / n;
                let values = (0..n)
                    .map(|k| obs[k * per..(k + 1) * per].iter().sum::<f32>() % 1.0 - 0.5)
                    .collect();
                (logits, values)
            });
            batch
                .trees
                .iter()
                .map(|t| t.root_stats())
                .collect::<Vec<_>>()
        };
        let a = run();
        for stats in &a {
            // The root's evaluation is a simulation without a child.
            assert_eq!(stats.iter().map(|s| s.1).sum::<u32>(), 299);
            let priors: f32 = stats.iter().map(|s| s.3).sum();
            assert!((priors - 1.0).abs() < 1e-4);
        }
        assert_eq!(a, run());
    }

    /// On boards small enough, the search with no knowledge (uniform priors, zero
    /// values) still finds the solver's moves from the exact results of finished games.
    #[test]
    fn finished_games_give_exact_values_pie_swap_included() {
        // Tabik 2x2 with the pie rule: after any placement, only the swap wins.
        let mut g = tabik(2, true);
        let first = g.legal_moves()[0];
        g.play_unchecked(first);
        let config = PuctConfig {
            iterations: 3000,
            ..PuctConfig::default()
        };
        let mut batch = PuctBatch::new(&[g.clone()], config, 1);
        batch.run(uniform(&g));
        let best = batch.trees[0].best_action().unwrap();
        let solution = solve(&g, None).unwrap();
        assert_eq!(solution.value, 1);
        let best_move = g.move_of(best).unwrap();
        assert!(Tabik::is_pie_swap(best_move));
        assert!(solution.best_moves.contains(&best_move));
        assert!(batch.trees[0].root_value() > 0.5);
    }

    /// Positions of random Tabik 3x3 games (pie rule on) where every legal move ends the
    /// game, and positions where the only legal move is a pass.
    fn near_the_end() -> (Vec<Tabik>, Vec<Tabik>) {
        let (mut last, mut passes) = (Vec::new(), Vec::new());
        for index in 0..40 {
            let mut g = tabik(3, true);
            let mut rng = game_rng(3, index);
            while let Some(mv) = g.random_move(&mut rng) {
                let moves = g.legal_moves();
                if moves.iter().all(|&m| Tabik::is_pass(m)) {
                    passes.push(g.clone());
                }
                let ends = |&m: &_| {
                    let mut after = g.clone();
                    after.play_unchecked(m);
                    after.is_over()
                };
                if moves.iter().all(ends) {
                    last.push(g.clone());
                }
                g.play_unchecked(mv);
            }
        }
        (last, passes)
    }

    #[test]
    fn finished_games_are_backed_up_exactly_without_evaluation() {
        let (last, passes) = near_the_end();
        assert!(!last.is_empty() && !passes.is_empty());
        for g in &last {
            let mut calls = 0;
            let mut batch = PuctBatch::new(&[g.clone()], PuctConfig::default(), 1);
            let actions = g.num_actions();
            batch.run(|_, n| {
                calls += 1;
                (vec![0.0; n * actions], vec![0.0; n])
            });
            // Only the root is evaluated; every other simulation ends a game.
            assert_eq!(calls, 1);
            let tree = &batch.trees[0];
            let seat = g.to_move().unwrap();
            let mut best_result = -1.0f32;
            for (action, visits, mean, _) in tree.root_stats() {
                let mut after = g.clone();
                after.play_unchecked(g.move_of(action).unwrap());
                let result = f32::from(result_for(&after, seat));
                best_result = best_result.max(result);
                assert!(
                    visits == 0 || mean == result,
                    "{action}: {mean} vs {result}"
                );
            }
            let mut after = g.clone();
            after.play_unchecked(g.move_of(tree.best_action().unwrap()).unwrap());
            assert_eq!(f32::from(result_for(&after, seat)), best_result);
            // Every move ends the game: the root is proven, with the solver's value.
            assert_eq!(tree.proven_value(), Some(solve(g, None).unwrap().value));
            assert_eq!(tree.root_value(), best_result);
        }
        // A forced pass: the search goes through it (the other seat's pass or moves).
        for g in &passes {
            let mut batch = PuctBatch::new(&[g.clone()], PuctConfig::default(), 1);
            batch.run(uniform(g));
            let stats = batch.trees[0].root_stats();
            assert_eq!(stats.len(), 1);
            assert!(Tabik::is_pass(g.move_of(stats[0].0).unwrap()));
            // The search ends once it has proven the root's value: the solver's.
            let tree = &batch.trees[0];
            assert!(stats[0].1 >= 1 && tree.is_done());
            assert_eq!(tree.proven_value(), Some(solve(g, None).unwrap().value));
        }
    }

    #[test]
    fn several_leaves_per_round_take_their_virtual_losses_back() {
        let g = tabik(6, true);
        let config = PuctConfig {
            iterations: 500,
            ..PuctConfig::default()
        };
        let mut batch = PuctBatch::new(&[g.clone(), g.clone()], config, 8);
        let mut rounds = 0;
        let mut largest = 0;
        batch.run(|_, n| {
            rounds += 1;
            largest = largest.max(n);
            (vec![0.0; n * g.num_actions()], vec![0.0; n])
        });
        assert_eq!(largest, 16);
        assert!(rounds < 500 / 4, "{rounds} rounds");
        for tree in &batch.trees {
            let stats = tree.root_stats();
            assert_eq!(stats.iter().map(|s| s.1).sum::<u32>(), 499);
            // Every value was 0: no virtual loss is left in any mean.
            assert!(stats.iter().all(|s| s.2 == 0.0), "{stats:?}");
            assert_eq!(tree.root_value(), 0.0);
            assert_eq!(tree.waiting(), 0);
        }
        // Tabik 2x2 after a placement: the swap still wins with 8 leaves a round.
        let mut g = tabik(2, true);
        g.play_unchecked(g.legal_moves()[0]);
        let config = PuctConfig {
            iterations: 3000,
            ..PuctConfig::default()
        };
        let mut batch = PuctBatch::new(&[g.clone()], config, 8);
        batch.run(uniform(&g));
        let best = g.move_of(batch.trees[0].best_action().unwrap()).unwrap();
        assert!(Tabik::is_pie_swap(best));
    }

    /// With the exact values (the solver's) as the evaluation, the most visited move
    /// is an optimal one: the values are backed up with the right signs.
    #[test]
    fn exact_evaluations_lead_to_optimal_moves() {
        let mut checked = 0;
        for index in 0..30 {
            let mut g = tabik(3, true);
            let mut rng = game_rng(11, index);
            for _ in 0..(index % 4) {
                let mv = g.random_move(&mut rng).unwrap();
                g.play_unchecked(mv);
            }
            let solution = solve(&g, None).unwrap();
            if solution.best_moves.len() == solution.move_values.len() {
                continue;
            }
            let config = PuctConfig {
                iterations: 200,
                ..PuctConfig::default()
            };
            let mut tree = PuctTree::new(&g, config);
            let mut obs = Vec::new();
            while !tree.is_done() {
                obs.clear();
                let n = tree.select_leaves(4, &mut obs);
                for k in 0..n {
                    let value = f32::from(solve(&tree.leaves[k].game, None).unwrap().value);
                    tree.expand_and_backup(k, &vec![0.0; g.num_actions()], value);
                }
                tree.finish_round();
            }
            let best = g.move_of(tree.best_action().unwrap()).unwrap();
            assert!(solution.best_moves.contains(&best), "{index}");
            assert_eq!(
                tree.root_value().signum(),
                f32::from(solution.value).signum()
            );
            checked += 1;
        }
        assert!(checked >= 5, "{checked}");
    }

    /// Leaves selected in two calls before any evaluation: the second call still
    /// selects up to its own `max`. Every leaf is worth +0.5 to the root's mover, so
    /// every root child's mean is +0.5 however often it was visited.
    #[test]
    fn a_second_selection_adds_up_to_max_leaves_and_means_are_per_visit() {
        let g = tabik(5, false);
        let root_mover = g.to_move();
        let config = PuctConfig { iterations: 300, ..PuctConfig::default() };
        let mut tree = PuctTree::new(&g, config);
        let mut obs = Vec::new();
        let logits = vec![0.0; g.num_actions()];
        let evaluate_waiting = |tree: &mut PuctTree<Tabik>| {
            for k in 0..tree.waiting() {
                let value = if tree.leaf_game(k).to_move() == root_mover { 0.5 } else { -0.5 };
                tree.expand_and_backup(k, &logits, value);
            }
            tree.finish_round();
        };
        assert_eq!(tree.select_leaves(1, &mut obs), 1, "the root");
        evaluate_waiting(&mut tree);
        assert_eq!(tree.select_leaves(1, &mut obs), 1);
        assert_eq!(tree.select_leaves(2, &mut obs), 2, "two more, as the second call asks");
        assert_eq!(tree.waiting(), 3);
        evaluate_waiting(&mut tree);
        while !tree.is_done() {
            tree.select_leaves(4, &mut obs);
            evaluate_waiting(&mut tree);
        }
        let stats = tree.root_stats();
        assert!(stats.iter().any(|&(_, visits, _, _)| visits > 2), "{stats:?}");
        for (action, visits, mean, _) in stats {
            if visits > 0 {
                assert!((mean - 0.5).abs() < 1e-5, "action {action}: mean {mean} over {visits} visits");
            }
        }
    }

    #[test]
    fn gamma_draws_have_the_right_mean_and_variance() {
        // Gamma(alpha, 1) has mean and variance alpha.
        let mut rng = game_rng(1, 2);
        for alpha in [0.3f32, 1.0, 2.5] {
            let draws: Vec<f32> = (0..20_000).map(|_| gamma(alpha, &mut rng)).collect();
            let mean = draws.iter().sum::<f32>() / 20_000.0;
            let variance = draws.iter().map(|g| (g - mean) * (g - mean)).sum::<f32>() / 20_000.0;
            assert!((mean - alpha).abs() < 0.05 * alpha.max(1.0), "{alpha}: {mean}");
            assert!((variance - alpha).abs() < 0.1 * alpha.max(1.0), "{alpha}: {variance}");
        }
    }

    /// The draws of a seed are pinned, bit for bit: the root noise, and with it every
    /// seeded search and self-play game, repeats them (another sampler of the same law
    /// would change every seeded result).
    #[test]
    fn gamma_draws_of_a_seed_are_pinned() {
        let mut rng = game_rng(3, 4);
        let alphas = [0.3f32, 0.3, 0.3, 1.0, 1.0, 1.0, 2.5, 2.5, 2.5];
        let bits = alphas.map(|alpha| gamma(alpha, &mut rng).to_bits());
        let pinned = [
            1068271869, 1032201588, 940276698, 1076110733, 1047695632, 1069875282, 1077552936, 1060328856,
            1084523055,
        ];
        assert_eq!(bits, pinned, "{:?}", bits.map(f32::from_bits));
    }

    #[test]
    fn gamma_draws_at_alpha_1_follow_the_exponential_distribution() {
        // Gamma(1, 1) is Exp(1): the largest gap between the draws' CDF and 1 - e^-x
        // (Kolmogorov-Smirnov) is about 1.36 / sqrt(n) at 95% for the right sampler.
        let n = 100_000;
        let mut rng = game_rng(5, 6);
        let mut draws: Vec<f64> = (0..n).map(|_| f64::from(gamma(1.0, &mut rng))).collect();
        draws.sort_by(f64::total_cmp);
        let gap = draws
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let cdf = 1.0 - (-x).exp();
                (cdf - i as f64 / n as f64).abs().max((cdf - (i + 1) as f64 / n as f64).abs())
            })
            .fold(0.0, f64::max);
        assert!(gap < 1.36 / (n as f64).sqrt() * 1.2, "{gap}");
    }

    /// The priors are the softmax of the legal actions' logits, computed without
    /// overflow: logits in the hundreds give the priors of the same logits less 200.
    #[test]
    fn priors_are_the_softmax_of_large_logits_too() {
        let g = tabik(4, true);
        let actions = g.num_actions();
        let priors = |offset: f32| {
            let config = PuctConfig { iterations: 2, ..PuctConfig::default() };
            let mut batch = PuctBatch::new(std::slice::from_ref(&g), config, 1);
            batch.run(|_, n| {
                let logits = (0..n * actions).map(|i| offset + (i % actions) as f32 / actions as f32).collect();
                (logits, vec![0.0; n])
            });
            batch.trees[0].root_stats().iter().map(|s| s.3).collect::<Vec<f32>>()
        };
        let (small, large) = (priors(0.0), priors(200.0));
        assert!((small.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(small.first() < small.last(), "higher logits, higher priors: {small:?}");
        for (s, l) in small.iter().zip(&large) {
            assert!((s - l).abs() < 1e-5, "{s} against {l}");
        }
    }

    #[test]
    fn noise_stirs_the_roots_priors_only_when_asked() {
        let g = tabik(4, true);
        let priors = |noise_fraction: f32| {
            let config = PuctConfig { iterations: 2, noise_fraction, seed: 3, ..PuctConfig::default() };
            let mut batch = PuctBatch::new(&[g.clone()], config, 1);
            batch.run(uniform(&g));
            batch.trees[0].root_stats().iter().map(|s| s.3).collect::<Vec<f32>>()
        };
        let even = 1.0 / g.legal_moves().len() as f32;
        assert!(priors(0.0).iter().all(|&p| p == even));
        let stirred = priors(0.25);
        assert!((stirred.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(stirred.iter().all(|&p| p >= 0.75 * even - 1e-6), "noise takes at most its fraction");
        assert!(stirred.iter().any(|&p| (p - even).abs() > 1e-3));
    }

    #[test]
    fn selection_reads_a_proven_win_as_infinite_and_a_proven_loss_as_never() {
        let node = |visits: u32, total: f32, proven: i8| Node {
            mv: 0u8,
            mover: crate::rules::game::Seat::First,
            waiting: false,
            prior: 0.25,
            visits,
            total,
            first_child: NONE,
            n_children: 0,
            rank: 0,
            sorted: 0,
            proven,
        };
        assert_eq!(Selection::fields(&node(4, 2.0, UNPROVEN)), [0.5, 0.25, 5.0]);
        assert_eq!(Selection::fields(&node(0, 0.0, UNPROVEN)), [0.0, 0.25, 1.0]);
        assert_eq!(Selection::fields(&node(4, -2.0, 1)), [f32::INFINITY, 0.25, 5.0]);
        assert_eq!(Selection::fields(&node(4, 2.0, -1)), [f32::NEG_INFINITY, 0.25, 5.0]);
    }

    #[test]
    fn the_best_action_is_a_proven_win_first_and_a_proven_loss_last() {
        let g = tabik(4, true);
        let config = PuctConfig { iterations: 60, seed: 3, ..PuctConfig::default() };
        let mut batch = PuctBatch::new(std::slice::from_ref(&g), config, 1);
        batch.run(uniform(&g));
        let tree = &mut batch.trees[0];
        let stats = tree.root_stats();
        let best = tree.best_action().unwrap();
        let most = stats.iter().position(|s| s.0 == best).unwrap();
        let least = (0..stats.len()).min_by_key(|&i| stats[i].1).unwrap();
        assert!(stats[least].1 < stats[most].1);
        let children = tree.root_children();
        // The least visited child proven to win for the player to move: it comes first.
        tree.nodes[children[least]].proven = 1;
        assert_eq!(tree.best_action(), Some(stats[least].0));
        // The most visited proven to lose (and the win forgotten): it comes last.
        tree.nodes[children[least]].proven = UNPROVEN;
        tree.nodes[children[most]].proven = -1;
        assert_ne!(tree.best_action(), Some(stats[most].0));
    }

    #[test]
    fn children_are_put_in_order_of_prior_as_needed_and_reported_in_legal_order() {
        let g = tabik(4, true);
        let actions = g.num_actions();
        let legal: Vec<usize> = g.legal_moves().iter().map(|&m| g.action_of(m).unwrap()).collect();
        // Logits that rise and fall with the action (ties among them), and a value.
        let logits: Vec<f32> = (0..actions).map(|a| ((a * 7) % 5) as f32).collect();
        // A narrow search and a wide one (large c, flatter priors: every root child).
        for (c_puct, scale, whole) in [(0.5, 1.0, false), (50.0, 0.1, true)] {
            let config = PuctConfig { iterations: 300, c_puct, seed: 3, ..PuctConfig::default() };
            let mut batch = PuctBatch::new(std::slice::from_ref(&g), config, 1);
            let scaled: Vec<f32> = logits.iter().map(|l| l * scale).collect();
            batch.run(|_, n| (scaled.repeat(n), vec![0.1; n]));
            let tree = &batch.trees[0];
            let stats = tree.root_stats();
            assert_eq!(stats.iter().map(|s| s.0).collect::<Vec<_>>(), legal);
            assert!(stats.iter().zip(&legal).all(|(s, &a)| (s.3 - softmax_of(&scaled, &legal, a)).abs() < 1e-6));
            let mut expanded = 0;
            for (i, node) in tree.nodes.iter().enumerate().filter(|(_, n)| n.first_child != NONE) {
                let children = &tree.nodes[node.first_child as usize..][..node.n_children as usize];
                let sorted = node.sorted as usize;
                let higher = |a: &Node<_>, b: &Node<_>| a.prior > b.prior || (a.prior == b.prior && a.rank < b.rank);
                assert!(children[..sorted].windows(2).all(|w| higher(&w[0], &w[1])));
                if sorted > 0 {
                    assert!(children[sorted..].iter().all(|c| higher(&children[sorted - 1], c)));
                }
                // The visited children come first (selection never passes an unvisited
                // one), and at most one more is in place.
                let visited = children.iter().take_while(|c| c.visits > 0).count();
                assert!(children[visited..].iter().all(|c| c.visits == 0));
                assert!(visited <= sorted && sorted <= visited + 1, "{visited} {sorted}");
                if i == 0 {
                    assert!(visited > 1, "{visited}");
                    assert_eq!(visited == children.len(), whole, "{visited} of {}", children.len());
                }
                expanded += 1;
            }
            assert!(expanded > 10, "{expanded}");
            // Equal priors go in legal-move order: the root's children of the largest logit.
            let top: Vec<usize> = legal.iter().copied().filter(|&a| logits[a] == 4.0).collect();
            let root = &tree.nodes[0];
            let first: Vec<usize> = tree.nodes[root.first_child as usize..][..top.len()]
                .iter()
                .map(|c| g.action_of(c.mv).unwrap())
                .collect();
            assert_eq!(first, top);
        }
    }

    #[test]
    fn the_highest_prior_is_the_first_in_legal_move_order_among_equal_ones() {
        // Against a plain scan with the comparison itself, on priors with and without
        // equal ones, of every length around the lanes' (8), and ranks in any order.
        let g = tabik(4, true);
        let mut tree = PuctTree::new(&g, PuctConfig::default());
        let template = tree.nodes[0];
        let mut rng = game_rng(9, 0);
        let mut checked = 0;
        for n in 1..70 {
            for distinct in [true, false] {
                tree.nodes.clear();
                tree.selection = Selection::default();
                let mut ranks: Vec<u32> = (0..n as u32).collect();
                for i in (1..n).rev() {
                    ranks.swap(i, rng.random_range(0..=i));
                }
                for &rank in &ranks {
                    let prior = if distinct { rng.random::<f32>() } else { rng.random_range(0..4) as f32 * 0.25 };
                    let node = Node { prior, rank, ..template };
                    tree.nodes.push(node);
                    tree.selection.push(&node);
                }
                for start in [0, n / 3] {
                    let mut expected = start;
                    for i in start + 1..n {
                        let (a, b) = (&tree.nodes[i], &tree.nodes[expected]);
                        if a.prior > b.prior || (a.prior == b.prior && a.rank < b.rank) {
                            expected = i;
                        }
                    }
                    assert_eq!(tree.highest_prior(start..n), expected, "{n} {distinct} {start}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 69 * 4);
        // No prior a number: the first.
        tree.nodes.iter_mut().for_each(|node| node.prior = f32::NAN);
        tree.selection = Selection::default();
        for node in tree.nodes.clone() {
            tree.selection.push(&node);
        }
        assert_eq!(tree.highest_prior(3..20), 3);
    }

    /// The softmax of `logits` over the actions `legal`, at action `a`.
    fn softmax_of(logits: &[f32], legal: &[usize], a: usize) -> f32 {
        let max = legal.iter().map(|&b| logits[b]).fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = legal.iter().map(|&b| (logits[b] - max).exp()).sum();
        (logits[a] - max).exp() / sum
    }

    #[test]
    fn selection_takes_a_child_of_the_highest_score_among_all_of_them() {
        // Whatever the part of its children a node has put in order, the child
        // selection takes scores as high as the best of all of them (read here without
        // any order), in trees of every size, narrow and wide.
        let g = tabik(4, true);
        let actions = g.num_actions();
        let mut checked = 0;
        for (c_puct, scale) in [(0.5, 1.0), (3.0, 0.5), (50.0, 0.1)] {
            for iterations in (2..400).step_by(23) {
                let logits: Vec<f32> = (0..actions).map(|a| ((a * 7 + iterations) % 11) as f32 * scale).collect();
                let config = PuctConfig { iterations: iterations as u32, c_puct, seed: 5, ..PuctConfig::default() };
                let mut batch = PuctBatch::new(std::slice::from_ref(&g), config, 1);
                batch.run(|_, n| (logits.repeat(n), (0..n).map(|k| (k % 3) as f32 * 0.3 - 0.3).collect()));
                let tree = &mut batch.trees[0];
                let expanded: Vec<usize> = (0..tree.nodes.len())
                    .filter(|&i| tree.nodes[i].first_child != NONE && tree.nodes[i].proven == UNPROVEN)
                    .collect();
                for node in expanded {
                    let chosen = tree.best_child(node);
                    let parent = tree.nodes[node];
                    let first = parent.first_child as usize;
                    let chooser = tree.nodes[first].mover;
                    let mean = if parent.visits == 0 { 0.0 } else { parent.total / parent.visits as f32 };
                    let first_play = if parent.mover == chooser { mean } else { -mean };
                    let scale = c_puct * (parent.visits.max(1) as f32).sqrt();
                    let score = |i: usize| {
                        let [mean, prior, visits_1] = Selection::fields(&tree.nodes[i]);
                        let q = if visits_1 == 1.0 { first_play } else { mean };
                        q + scale * prior / visits_1
                    };
                    let best = (first..first + parent.n_children as usize).map(score).fold(f32::NEG_INFINITY, f32::max);
                    assert_eq!(score(chosen), best, "c {c_puct}, {iterations} simulations, node {node}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn noise_whose_draws_all_underflow_leaves_the_priors_as_they_were() {
        // At the smallest alpha (1e-3) most Gamma draws are 0 in f32; a draw of zeros
        // only has no direction to stir the priors in.
        let g = tabik(2, true);
        let even = 1.0 / g.legal_moves().len() as f32;
        let mut untouched = 0;
        for seed in 0..20 {
            let config = PuctConfig { iterations: 2, noise_fraction: 0.5, noise_alpha: 0.0, seed, ..PuctConfig::default() };
            let mut batch = PuctBatch::new(std::slice::from_ref(&g), config, 1);
            batch.run(uniform(&g));
            let priors: Vec<f32> = batch.trees[0].root_stats().iter().map(|s| s.3).collect();
            assert!(priors.iter().all(|p| p.is_finite()), "seed {seed}: {priors:?}");
            // Subnormal draws lose bits in `fraction * n / sum` (0.5 n rounded to an even
            // count of the smallest step): the sum is near 1 only.
            assert!((priors.iter().sum::<f32>() - 1.0).abs() < 0.05, "seed {seed}: {priors:?}");
            untouched += usize::from(priors.iter().all(|&p| p == even));
        }
        assert!(untouched > 0, "no seed drew only zeros");
    }

    #[test]
    fn noise_stirs_the_root_alone() {
        let g = tabik(4, true);
        let config = PuctConfig { iterations: 40, noise_fraction: 0.25, seed: 3, ..PuctConfig::default() };
        let mut batch = PuctBatch::new(std::slice::from_ref(&g), config, 1);
        batch.run(uniform(&g));
        let tree = &batch.trees[0];
        let mut expanded = 0;
        for node in tree.nodes[1..].iter().filter(|n| n.first_child != NONE && n.n_children > 0) {
            expanded += 1;
            let children = &tree.nodes[node.first_child as usize..][..node.n_children as usize];
            let even = 1.0 / node.n_children as f32;
            assert!(children.iter().all(|c| (c.prior - even).abs() < 1e-6), "a child's priors stirred");
        }
        assert!(expanded >= 10, "{expanded}");
    }
}
