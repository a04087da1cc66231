"""Self-play training of a policy and value network, AlphaZero-style (docs/learning.md).

Each round plays ``games`` games of self-play in the engine (``_core.Network.self_play``:
PUCT searches with the network evaluated in Rust, games in parallel); the move is drawn
from the visit counts for the first ``sample_moves`` moves of a game and is the most
visited one after. Every position gives a training example: its observation, the visit
distribution (policy target), the game's result for the seat to move there (value
target), the game's final score margin for that seat and who holds each cell at the end
(targets of the optional margin and ownership heads). The network then takes gradient
steps (JAX, ``territory.network_jax``: optax's Adam with decoupled weight decay) on
minibatches from a buffer of the latest positions; JAX is imported only here, when
training starts (the ``train`` extra).

With ``solve_nodes`` > 0 the last positions of each game are solved exactly (from
the end backwards, each within ``solve_nodes`` positions searched, until one is not),
and a solved position's value target is its exact value. Given an ``executor``, a
round's games are played in shards there (``self_play_shard`` through
``distributed.run_sharded``), with the data of the round played here.

Every ``checkpoint_every`` rounds a checkpoint is written (``checkpoint-NNNN.npz`` and
``last.npz``, each replaced atomically) and evaluated: Elo against the previous
checkpoint and against UCT given the same time per move. ``log.jsonl`` gets one line
per round and per evaluation. Ctrl-C stops between steps and keeps the last checkpoint.
Everything random comes from ``seed``: the same seed gives the same weights on any
number of threads (the evaluations' UCT budget is timed unless ``uct_iterations`` is
given, so only those log lines may vary).

Run it as ``territory train tabik --size 6 --minutes 60 --out runs/tabik-6``.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

import numpy as np

from territory import distributed
from territory._checks import check_int, check_memory
from territory.agents import MAX_UCT_ITERATIONS, Uct, play_match, tuned_uct_c
from territory.model import Model, single_threaded_blas
from territory.playouts import new_game
from territory.puct import Puct

__all__ = ["TrainConfig", "train", "self_play", "self_play_shard", "self_play_round", "equal_time_uct_iterations",
           "positions_through_games", "random_positions"]


@dataclass
class TrainConfig:
    game: str = "tabik"
    params: dict[str, Any] = field(default_factory=dict)
    #: The directory of the checkpoints and the log.
    out: str = "runs/train"
    seed: int = 0
    hidden: int = 128
    #: Start from this model's weights (a ``.npz`` file or a shipped model's name)
    #: instead of random ones: it must be for the run's game and parameters and have
    #: the run's architecture (``hidden``, ``filters``, ``blocks``, ``features``, the
    #: margin and ownership heads). The optimiser starts afresh; the checkpoints record
    #: the model started from and how it was trained (``trained["init_trained"]``), so
    #: the CPU time of both runs can be added up.
    init: Optional[str] = None
    #: A convolutional trunk in front of the hidden layers: the 3x3 convolution's filters
    #: (0: none, the hidden layers read the planes) and the residual blocks after it.
    filters: int = 0
    blocks: int = 0
    #: The network reads the game's features (``state.features()``: what scoring makes
    #: of the groups) beside the observation planes.
    features: bool = False
    #: Stop after this many minutes of training, in CPU time (the process's, every
    #: thread counted; None: no limit) ...
    minutes: Optional[float] = 60.0
    #: ... or this many rounds (None: no limit).
    rounds: Optional[int] = None
    #: Self-play games played together in a round (the size of the network's batches).
    games: int = 64
    #: PUCT simulations per self-play move.
    iterations: int = 100
    #: Weight of a random playout's result in the value of a leaf (0: the network's
    #: value alone), in self-play and in the evaluations.
    rollout_weight: float = 0.0
    #: Weight of the search's value of a position in its value target, the rest being
    #: the game's result (0: the result alone, AlphaZero's target). Not for solved
    #: positions (``solve_nodes``), whose target is their exact value alone.
    search_value_weight: float = 0.0
    #: Solve each self-play game's positions exactly from the last backwards, each
    #: within this many positions searched, until one is not solved; a solved
    #: position's value target is its exact value (0: none solved).
    solve_nodes: int = 0
    #: A leaf is evaluated by the network and expanded on its n-th visit, valued by a
    #: random playout before (1: at once), in self-play and in the evaluations.
    expansion_visits: int = 1
    #: Each minibatch is turned by one of the board's symmetries, drawn at random (the
    #: engine's ``state.symmetries()``; games without any: no effect).
    augment: bool = False
    #: Weight of the score-margin head's loss (squared error of the margin over the
    #: number of cells); 0: the model has no margin head.
    margin_weight: float = 0.5
    #: Weight of the ownership head's loss (mean squared error over the cells); 0: the
    #: model has no ownership head.
    ownership_weight: float = 1.0
    #: Threads of the self-play games (None: every core); the data do not depend on it.
    threads: Optional[int] = None
    c_puct: float = 1.5
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    #: The first moves of each game are drawn by visit count (exploration), later
    #: moves are the most visited.
    sample_moves: int = 6
    #: Positions kept for training (the latest).
    buffer: int = 30_000
    batch: int = 256
    #: Gradient steps per round: new positions * replay / batch.
    replay: float = 4.0
    lr: float = 2e-3
    weight_decay: float = 1e-4
    checkpoint_every: int = 5
    #: Games of each evaluation match (0: no evaluation).
    eval_games: int = 40
    #: PUCT simulations per move in the evaluations.
    eval_iterations: int = 100
    #: UCT's iterations in the evaluations (None: timed to match PUCT's time per move).
    uct_iterations: Optional[int] = None


def self_play(model: Model, start: Any, config: TrainConfig, rng: np.random.Generator,
              executor: Optional[Executor] = None) -> tuple[np.ndarray, ...]:
    """Plays ``config.games`` games from ``start`` in the engine (the network evaluated
    in Rust, games in parallel on ``config.threads`` threads, or in shards on
    ``executor``: ``self_play_round``); returns their positions' network inputs, visit
    distributions, legal masks, value targets for the seat to move, final score
    margins for the seat to move and final ownership of the cells (float32, bool): the
    training examples (``examples``). The games depend on the seed drawn from ``rng``
    alone, not on the threads or the executor."""
    return examples(self_play_round(model, start, config, int(rng.integers(2**63)), executor), config)


def examples(data: dict[str, np.ndarray], config: TrainConfig) -> tuple[np.ndarray, ...]:
    """The training examples of a round's arrays (``self_play_round``): the value
    target of a solved position is its exact value, of the others the game's result
    mixed with the search's value by ``config.search_value_weight``."""
    n = len(data["results"])
    w = np.float32(config.search_value_weight)
    mixed = (1 - w) * data["results"] + w * data["values"]
    targets = np.where(data["solved"], data["results"], mixed)
    return (data["obs"].reshape(n, -1), data["policy"], data["masks"], targets.astype(np.float32), data["margins"],
            data["ownership"])


def self_play_round(model: Model, start: Any, config: TrainConfig, seed: int,
                    executor: Optional[Executor] = None) -> dict[str, np.ndarray]:
    """The arrays of the ``config.games`` self-play games of the round seeded with
    ``seed`` (``_core.Network.self_play``'s): played here on ``config.threads``
    threads, or given an ``executor`` (any ``concurrent.futures.Executor``) in shards
    there (``self_play_shard`` through ``distributed.run_sharded``, on
    ``config.threads`` threads each, None: 1) and put together in order: the same
    arrays either way."""
    threads = config.threads
    if executor is None:
        return self_play_shard(model, start, config, seed, threads, 0, config.games)
    shard_threads = 1 if threads is None else threads
    return distributed.run_sharded(executor, self_play_shard, (model, start, config, seed, shard_threads), config.games,
                                   combine=concat_rounds, max_shard=64)


def self_play_shard(model: Model, start: Any, config: TrainConfig, seed: int, threads: Optional[int], first: int,
                    stop: int) -> dict[str, np.ndarray]:
    """Games ``first .. stop`` of the self-play round seeded with ``seed``, from
    ``start`` with ``model`` and ``config``'s settings, on ``threads`` threads: the
    arrays of ``_core.Network.self_play`` (``obs``, ``policy``, ``masks``, ``results``,
    ``values``, ``margins``, ``ownership``, ``solved``, ``lengths``). A pure,
    picklable function of its arguments (the unit of work of ``self_play_round`` on an
    executor): game ``i`` depends on ``seed`` and ``i`` alone."""
    check_int("games", config.games, 1, 1_000_000)
    first = check_int("first", first, 0, config.games - 1)
    stop = check_int("stop", stop, first + 1, config.games)
    data = model.network().self_play(
        start, stop - first, config.iterations, config.c_puct, config.noise_alpha, config.noise_fraction,
        config.rollout_weight, config.sample_moves, seed, threads, expansion_visits=config.expansion_visits,
        first=first, solve_nodes=config.solve_nodes)
    return dict(data)


def concat_rounds(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays of consecutive ranges of a round's games (``self_play_shard``), in
    order, as one range's."""
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


class Buffer:
    """The latest ``size`` positions, in a ring."""

    def __init__(self, size: int) -> None:
        self.size, self.count, self.next = size, 0, 0
        self.arrays: list[np.ndarray] = []

    def add(self, *arrays: np.ndarray) -> None:
        if not self.arrays:
            self.arrays = [np.zeros((self.size,) + a.shape[1:], a.dtype) for a in arrays]
        n = len(arrays[0])
        slots = (self.next + np.arange(n)) % self.size
        keep = slice(max(0, n - self.size), n)  # more than the buffer holds: the latest
        for store, a in zip(self.arrays, arrays):
            store[slots[keep]] = a[keep]
        self.next = (self.next + n) % self.size
        self.count = min(self.count + n, self.size)

    def sample(self, n: int, rng: np.random.Generator) -> list[np.ndarray]:
        index = rng.integers(0, self.count, n)
        return [a[index] for a in self.arrays]


def random_positions(start: Any, count: int, seed: int = 0, max_moves: int = 12) -> list[Any]:
    """``count`` positions reached from ``start`` by 0 to ``max_moves - 1`` uniformly
    random moves (seeded); finished games included."""
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(count):
        state = start.copy()
        for _ in range(int(rng.integers(0, max_moves))):
            if state.is_over:
                break
            state.play_random(float(rng.random()))
        states.append(state)
    return states


def positions_through_games(start: Any, count: int, seed: int = 0) -> list[Any]:
    """``count`` running positions from uniformly random games from ``start`` (seeded),
    each at a depth drawn uniformly over its game's length: positions from the whole
    game, as a match meets them."""
    rng = np.random.default_rng(seed)
    states: list[Any] = []
    for _ in range(100 * count):  # bounded: from some starts few depths are running
        if len(states) == count:
            break
        game, draws = start.copy(), []
        while not game.is_over:
            draws.append(float(rng.random()))
            game.play_random(draws[-1])
        state = start.copy()
        for u in draws[:int(rng.integers(0, max(1, len(draws))))]:
            state.play_random(u)
        if not state.is_over:
            states.append(state)
    return states or [start.copy()]


def equal_time_uct_iterations(puct: Puct, start: Any, positions: int = 48, seed: int = 0,
                              rounds: int = 11, passes: int = 2) -> int:
    """UCT's iterations per move taking the time ``puct`` takes per move, on ``positions``
    positions from the whole of random games from ``start``
    (``positions_through_games``). Both agents search every position in the engine as a
    match runs them (``_core.choose_actions``: no Python between the searches), timed in
    the process's CPU time, one agent then the other, ``rounds`` times; the estimate is
    the median of the rounds' ratios (each ratio compares two measurements a moment
    apart, so a machine slowed by other work moves it little). It is measured again
    with UCT at the estimate, ``passes`` times in all (UCT's cost per iteration grows
    with its tree)."""
    from statistics import median

    from territory import _core
    from territory._seeds import mix

    states = positions_through_games(start, positions, seed)
    puct_spec = puct._spec()

    def cpu_time(spec: tuple[Any, ...]) -> float:
        began = time.process_time()
        _core.choose_actions(states, spec, seed)
        return time.process_time() - began

    iterations = 1000
    for _ in range(passes):
        uct_spec = Uct(iterations=iterations, seed=mix(seed))._spec()
        cpu_time(puct_spec), cpu_time(uct_spec)  # warm caches and allocators
        ratios = [cpu_time(puct_spec) / max(cpu_time(uct_spec), 1e-9) for _ in range(rounds)]
        iterations = max(1, min(MAX_UCT_ITERATIONS, round(iterations * median(ratios))))
    return iterations


def match_from_openings(start: Any, agents: list[Any], games: int, seed: int, opening_moves: int = 2
                        ) -> dict[str, Any]:
    """Plays ``games`` games between two agents (rounded up to an even number): pairs of
    games from the same opening, ``opening_moves`` random moves from ``start`` (seeded
    by ``(seed, pair)``), agent 0 in seat 0 in one game of the pair and in seat 1 in the
    other. Deterministic agents (``Puct``) would otherwise play the same two games over
    and over. Returns agent 0's wins, losses and draws, its score, and the Elo
    difference with its 95% interval (Wilson)."""
    from territory._seeds import mix
    from territory.agents import _elo
    from territory.playouts import wilson_interval

    wins = [0, 0, 0]
    for pair in range((games + 1) // 2):
        rng = np.random.default_rng(mix(seed, pair))
        state = start.copy()
        for _ in range(opening_moves):
            if not state.is_over:
                state.play_random(float(rng.random()))
        if state.is_over:
            continue
        result = play_match(state, agents, 2, seed=mix(seed, pair, 1))
        for k in range(3):
            wins[k] += result.agent_wins[k]
    n = sum(wins)
    score = wins[0] + 0.5 * wins[2]
    low, high = wilson_interval(score, n)
    return {"wins": wins, "score": score / n if n else float("nan"), "elo": _elo(score / n) if n else float("nan"),
            "elo_ci95": [_elo(low), _elo(high)], "games": n}


def train(config: TrainConfig, progress: Optional[Callable[[dict[str, Any]], None]] = None,
          executor: Optional[Executor] = None) -> Path:
    """Trains a model by self-play (see the module's text) and returns the path of the
    last checkpoint. ``progress(record)`` gets every line written to the log. With an
    ``executor`` (any ``concurrent.futures.Executor``: a Dask cluster's, a process
    pool) the self-play games are played there in shards, with the weights of the run
    played here."""
    with single_threaded_blas():
        return _train(config, progress, executor)


def _check_buffer(config: TrainConfig, start: Any) -> None:
    """A ValueError if the replay buffer of ``config.buffer`` positions would not fit in
    the memory available (each: the network's inputs and the policy as float32, the
    mask, the result)."""
    inputs = int(np.prod(start.observation_shape)) + (len(start.features()) if config.features else 0)
    per_position = 4 * inputs + 5 * start.num_actions + 8 + 4 * len(start.ownership())
    check_memory(f"a replay buffer of {config.buffer:,} positions", config.buffer * per_position,
                 "give a smaller buffer (--buffer)")


def _warm_start(fresh: Model, init: str, start: Any) -> Model:
    """``fresh`` (a new model of the run's architecture, with the run's meta) holding
    the weights of the model ``init``; a ValueError if that model is for another game
    or is built otherwise."""
    source = Model.load(init)
    why = source.mismatch(start)
    if why is None and source.meta.get("params", {}) != fresh.meta["params"]:
        why = f"parameters {source.meta.get('params')} in its training, {fresh.meta['params']} here"
    if why is None:
        shapes = {n: w.shape for n, w in fresh.weights.items()}
        theirs = {n: w.shape for n, w in source.weights.items()}
        if shapes != theirs:
            differ = sorted(n for n in shapes.keys() | theirs.keys() if shapes.get(n) != theirs.get(n))
            why = (f"another architecture (weights {', '.join(differ)} differ: give the run the model's --hidden, "
                   f"--filters, --blocks, --features and heads)")
    if why is not None:
        raise ValueError(f"init {init!r} cannot start this run: {why}")
    meta = dict(fresh.meta)
    meta["trained"] = {**meta.get("trained", {}), "init_trained": source.meta.get("trained")}
    return Model({n: w.copy() for n, w in source.weights.items()}, meta)


def _train(config: TrainConfig, progress: Optional[Callable[[dict[str, Any]], None]],
           executor: Optional[Executor]) -> Path:
    out = Path(config.out)
    start = new_game(config.game, **config.params)
    _check_buffer(config, start)
    check_int("solve_nodes", config.solve_nodes, 0, 2**64 - 1)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out {str(out)!r} is a file: give a directory for the checkpoints and the log")
    from territory import network_jax  # JAX: the train extra, imported only to train
    rng = np.random.default_rng(config.seed)
    model = Model.new(start, hidden=config.hidden, seed=int(rng.integers(2**63)), features=config.features,
                      margin=config.margin_weight > 0, ownership=config.ownership_weight > 0,
                      filters=config.filters, blocks=config.blocks,
                      trained={k: v for k, v in asdict(config).items() if k != "out"})
    if config.init is not None:
        model = _warm_start(model, config.init, start)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"out {str(out)!r}: cannot make the directory: {error.strerror or error}") from None
    cells = len(start.geometry()[1])  # the ownership head's: one value per cell
    optimiser = network_jax.Trainer(model, config.lr, config.weight_decay, config.margin_weight,
                                    config.ownership_weight, margin_scale=cells)
    symmetries = []
    if config.augment:
        turns = start.symmetries()  # type: ignore[attr-defined]  # the engine's (a native state; none for a game without any)
        # A model without features reads the planes only: the first part of the inputs.
        # The first plane is one of the cells in cell order, so its indices move the
        # ownership targets.
        symmetries = [(source[:model.input_size], actions, source[:cells]) for source, actions in turns]
    buffer = Buffer(config.buffer)
    log_path = out / "log.jsonl"
    log = log_path.open("w")

    def write(record: dict[str, Any]) -> None:
        log.write(json.dumps(record) + "\n")
        log.flush()
        if progress is not None:
            progress(record)

    began = time.perf_counter()
    # --minutes is CPU time (every thread of the process), so a run's length does not
    # depend on what else the machine does; "seconds" in the log stay wall time.
    cpu_began = time.process_time()
    previous = model.copy()
    last = out / "last.npz"
    model.save(last)
    previous.save(out / "checkpoint-0000.npz")
    uct_iterations = config.uct_iterations
    write({"event": "start", "config": asdict(config), "weights": model.size()})
    round_ = 0
    positions = 0
    try:
        while (config.rounds is None or round_ < config.rounds) and (
            config.minutes is None or time.process_time() - cpu_began < 60 * config.minutes
        ):
            round_ += 1
            t0 = time.perf_counter()
            data = self_play_round(model, start, config, int(rng.integers(2**63)), executor)
            round_examples = examples(data, config)
            obs = round_examples[0]
            buffer.add(*round_examples)
            positions += len(obs)
            t1 = time.perf_counter()
            steps = max(1, round(len(obs) * config.replay / config.batch))
            losses = []
            for _ in range(steps):
                batch = buffer.sample(config.batch, rng)
                if symmetries:
                    source, actions, turned = symmetries[int(rng.integers(len(symmetries)))]
                    inputs, targets, legal, values, margins, owners = batch
                    batch = [inputs[:, source], targets[:, actions], legal[:, actions], values, margins,
                             owners[:, turned]]
                losses.append(optimiser.step(*batch))
            model.weights.update(optimiser.weights())
            mean_losses = dict(zip(network_jax.LOSSES, (float(x) for x in np.mean(losses, axis=0))))
            write({
                "event": "round", "round": round_, "seconds": round(time.perf_counter() - began, 2),
                "cpu_seconds": round(time.process_time() - cpu_began, 2),
                "games": config.games, "positions": positions, "steps": optimiser.steps, **mean_losses,
                "mean_length": round(len(obs) / config.games, 2),
                "solved": round(float(np.mean(data["solved"])), 4),
                "self_play_seconds": round(t1 - t0, 2), "train_seconds": round(time.perf_counter() - t1, 2),
            })
            if round_ % config.checkpoint_every == 0:
                path = out / f"checkpoint-{round_:04d}.npz"
                model.save(path)
                model.save(last)
                record: dict[str, Any] = {"event": "checkpoint", "round": round_, "path": path.name,
                                          "seconds": round(time.perf_counter() - began, 2)}
                if config.eval_games:
                    current = Model.load(path)
                    puct = Puct(current, config.eval_iterations, rollout_weight=config.rollout_weight,
                                expansion_visits=config.expansion_visits)
                    if uct_iterations is None:
                        uct_iterations = equal_time_uct_iterations(puct, start, seed=config.seed)
                    seed = int(rng.integers(2**63))
                    record["vs_previous"] = match_from_openings(
                        start, [puct, Puct(previous, config.eval_iterations, rollout_weight=config.rollout_weight,
                                         expansion_visits=config.expansion_visits)],
                        config.eval_games, seed)
                    record["vs_uct"] = {
                        **match_from_openings(start, [puct, Uct(iterations=uct_iterations, c=tuned_uct_c(start))],
                                               config.eval_games, seed),
                        "uct_iterations": uct_iterations}
                    previous = current
                record["eval_seconds"] = round(time.perf_counter() - began - record["seconds"], 2)
                write(record)
    except KeyboardInterrupt:
        write({"event": "interrupted", "round": round_, "seconds": round(time.perf_counter() - began, 2),
               "kept": last.name})
    else:
        model.save(last)
        write({"event": "done", "round": round_, "seconds": round(time.perf_counter() - began, 2)})
    finally:
        log.close()
    return last


def drawn_position(start: Any, seed: int, k: int, min_moves: int = 2) -> Any:
    """The ``k``-th position ``optimal_move_rate`` draws with ``seed``: ``min_moves`` to
    39 uniformly random moves from ``start`` (the count and the moves seeded by ``(seed,
    k)``), or None when the game ended on the way."""
    from territory._seeds import mix

    rng = np.random.default_rng(mix(seed, k))
    state = start.copy()
    for _ in range(int(rng.integers(min_moves, 40))):
        if state.is_over:
            break
        state.play_random(float(rng.random()))
    return None if state.is_over else state


def optimal_move_rate(agent: Any, start: Any, positions: int, seed: int = 0, min_moves: int = 2,
                      max_nodes: int = 2_000_000) -> dict[str, Any]:
    """How often ``agent`` picks an optimal move (by ``territory.solve``) in positions
    where some legal move is not optimal. The positions: ``min_moves`` or more random
    moves from ``start`` (the number drawn uniformly up to the game's end, seeded by
    ``(seed, k)``), distinct; those the solver cannot settle within ``max_nodes`` are
    left out and counted."""
    return optimal_move_rates([agent], start, positions, seed, min_moves, max_nodes)[0]


def solved_positions(start: Any, seed: int = 0, min_moves: int = 2, max_nodes: int = 2_000_000,
                     draws: int = 1000) -> Iterator[tuple[Any, Any]]:
    """The distinct positions of ``draws`` draws of ``drawn_position`` (k = 0, 1, ...),
    in order, each with its ``territory.solve`` solution (None: not settled within
    ``max_nodes``). Lazy: a position is solved only when asked for."""
    from territory.agents import NodeLimitError, solve

    seen: set[str] = set()
    for k in range(draws):
        state = drawn_position(start, seed, k, min_moves)
        if state is None or state.position() in seen:
            continue
        seen.add(state.position())
        try:
            solution = solve(state, max_nodes=max_nodes)
        except NodeLimitError:
            solution = None
        yield state, solution


def optimal_move_rates(agents: Sequence[Any], start: Any, positions: int, seed: int = 0, min_moves: int = 2,
                       max_nodes: int = 2_000_000) -> list[dict[str, Any]]:
    """``optimal_move_rate`` of each of ``agents`` on the same positions, each solved once."""
    counted = too_big = all_optimal = 0
    optimal = [0] * len(agents)
    misses: list[list[str]] = [[] for _ in agents]
    for state, solution in solved_positions(start, seed, min_moves, max_nodes, draws=50 * positions):
        if solution is None:
            too_big += 1
        elif len(solution.best_moves) == len(solution.move_values):
            all_optimal += 1
        else:
            counted += 1
            for i, agent in enumerate(agents):
                if agent.choose(state.copy()) in solution.best_moves:
                    optimal[i] += 1
                else:
                    misses[i].append(state.position())
            if counted == positions:
                break
    return [{"positions": counted, "optimal": hits, "rate": hits / counted if counted else float("nan"),
             "skipped_all_moves_optimal": all_optimal, "skipped_over_node_limit": too_big, "misses": missed}
            for hits, missed in zip(optimal, misses)]
