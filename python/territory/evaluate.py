"""Evaluating a design: Ludii's metrics, fair komi and the pie rule (docs/metrics.md).

* ``evaluate(game, agent="random", games=1000, seed=0, ...)``: self-play games measured
  with Ludii's metrics (``AdvantageP1``, ``Balance``, ``DurationMoves``, ``Drama``, ...),
  each with a 95% interval.
* ``fair_komi(agent="random", games=2000, ...)``: Black's win rate in Nume over a sweep of
  komi values, a logistic fit, and the komi at which Black wins half the games.
* ``openings(game, agent="random", games_per_opening=200, ...)``: seat 0's win rate after
  each first move, when seat 1 plays on and when it takes the pie.

Random games run in Rust at playout speed and are the very games of ``random_playouts``
with the same seed: game ``i`` of a run draws from a generator seeded from ``(seed, i)``,
so a run can be cut into shards of game indices ``[start, stop)`` anywhere (``executor=``
runs the shards on any ``concurrent.futures.Executor``) without changing any result.
UCT games (``"uct:N"`` or a ``territory.Uct``) are the games of a native match
(``territory.agents.match_games``, seats not swapped), played and measured in Rust in one
go (``trace_match``); other agents' games are played move by move through
``agent.choose(state)`` and measured in Rust from their action lists (``trace_actions``).
With an executor every kind of run is split into shards by
``territory.distributed.run_sharded`` (progress, Ctrl-C, ``ShardError`` as everywhere).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from territory import _core, distributed
from territory._checks import check_int, check_threads
from territory.agents import RandomAgent, Uct, match_games, parse_agent, play_match
from territory.playouts import GAMES, new_game, wilson_interval

Z95 = 1.959963984540054
Progress = Callable[[int, int, float], None]

#: Per-game fields of a trace (see rust/territory/src/trace.rs).
TRACE_FIELDS = (
    "winner", "moves", "turns", "passes", "swapped", "branching_sum", "branching_sq_sum",
    "branching_max", "decisions", "lead_changes", "lead_sum", "lead_sq_sum", "drama_sum",
    "drama_max", "decisive_at", "final_lead", "scores",
)


# --- checks -------------------------------------------------------------------------------


def _check_game(game: Any) -> tuple[str, dict[str, Any], list[int]]:
    """(name, params, prefix actions) of a game given by name or as a native state."""
    if isinstance(game, str):
        if game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        return game, {}, []
    name = getattr(game, "game", None)
    if name in GAMES and hasattr(game, "history") and hasattr(game, "params"):
        return name, dict(game.params), [game.move_to_action(m) for m in game.history]
    raise ValueError(f"game must be a game name ({', '.join(GAMES)}) or a native game state, got {game!r}")


def _start(game: str, params: dict[str, Any], prefix: Sequence[int] = ()) -> Any:
    state = new_game(game, **params)
    for action in prefix:
        state.apply_action(int(action))
    return state


# --- agents -------------------------------------------------------------------------------


def _mix(*numbers: int) -> int:
    """A 64-bit seed from integers (SplitMix64 steps), for per-game agent seeds."""
    x = 0x9E3779B97F4A7C15
    for n in numbers:
        x = (x ^ (int(n) & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x = z ^ (z >> 31)
    return x


def _parse(agent: Any) -> Any:
    """``agents.parse_agent`` taking factories ``f(seed) -> agent`` too."""
    return parse_agent(agent, factories=True)


def _agent_for(agent: Any, seed: int) -> Any:
    """The agent to use with ``seed``: a factory makes a new one; a given agent object
    is used as it is (then only its own randomness varies games)."""
    if hasattr(agent, "choose"):
        return agent
    return agent(seed)


def _agent_name(agent: Any) -> str:
    if type(agent) is RandomAgent:
        return "random"
    if type(agent) is Uct:
        plain = (agent.c, agent.seed, agent.threads) == (1.4, 0, 1)
        return f"uct:{agent.iterations}" if plain else repr(agent)
    return str(getattr(agent, "name", type(agent).__name__))


def _is_random(agent: Any) -> bool:
    return type(agent) is RandomAgent


def play_agent_game(start: Any, agents: Sequence[Any]) -> list[int]:
    """Plays ``agents[seat].choose(state)`` from a copy of ``start`` to the end; returns
    the actions played (after ``start``'s own history)."""
    state = start.copy()
    before = len(state.history)
    while not state.is_over:
        state.play(agents[state.to_move].choose(state))
    return [state.move_to_action(m) for m in state.history[before:]]


# --- running shards -----------------------------------------------------------------------


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def _run_sharded(
    work: Callable[[int, int], dict[str, np.ndarray]],
    total: int,
    *,
    executor: Any = None,
    progress: Progress | None = None,
    shard: int | None = None,
    first_batch: int = 64,
    max_shard: int = distributed.MAX_SHARD,
    done_before: int = 0,
    grand_total: int | None = None,
) -> dict[str, np.ndarray]:
    """Runs ``work(start, stop)`` over ``[0, total)`` and concatenates the per-game
    arrays in game order. Locally: batches of about 0.2 s from ``first_batch`` games on
    (or of ``shard`` games), progress between batches; with an executor:
    ``distributed.run_sharded`` (shards of ``shard`` games, default about 8 per worker
    thread and at most ``max_shard``)."""
    grand_total = total if grand_total is None else grand_total
    report = None
    if progress is not None:
        report = lambda done, _total, seconds: progress(done_before + done, grand_total, seconds)  # noqa: E731
    if executor is not None and total:
        return distributed.run_sharded(executor, work, (), total, combine=_concat, shard_size=shard, progress=report, max_shard=max_shard)
    parts = list(distributed.in_batches(work, total, first=first_batch, fixed=shard, progress=report))
    if not parts:
        parts.append(work(0, 0))
    return _concat(parts)


@dataclass(frozen=True)
class _RandomGames:
    """Picklable work: random games ``[first + start, first + stop)``: their traces, or
    with ``outcomes_only`` just their outcomes (``run_playouts`` arrays)."""

    game: str
    params: dict[str, Any]
    prefix: tuple[int, ...]
    seed: int
    first: int
    threads: int | None
    outcomes_only: bool = False

    def __call__(self, start: int, stop: int) -> dict[str, np.ndarray]:
        state = _start(self.game, self.params, self.prefix)
        if self.outcomes_only:
            return _core.run_playouts(state, self.seed, self.first + start, stop - start, self.threads)
        return _core.trace_random(state, self.seed, self.first + start, stop - start, self.threads)


@dataclass(frozen=True)
class _AgentTraces:
    """Picklable work: traces of agent games ``[first + start, first + stop)``; game ``i``
    gives seat s the agent made with seed ``mix(seed, i, s)``."""

    game: str
    params: dict[str, Any]
    prefix: tuple[int, ...]
    agents: tuple[Any, Any]
    seed: int
    first: int
    threads: int | None

    def actions(self, start: int, stop: int) -> list[list[int]]:
        state = _start(self.game, self.params, self.prefix)
        games = []
        for i in range(self.first + start, self.first + stop):
            agents = [_agent_for(a, _mix(self.seed, i, s)) for s, a in enumerate(self.agents)]
            games.append(play_agent_game(state, agents))
        return games

    def __call__(self, start: int, stop: int) -> dict[str, np.ndarray]:
        return trace_games(_start(self.game, self.params, self.prefix), self.actions(start, stop), self.threads)


def trace_games(start: Any, games: Iterable[Sequence[int]], threads: int | None = None) -> dict[str, np.ndarray]:
    """Per-game traces (numpy arrays named as in ``TRACE_FIELDS``) of games given as
    action lists, each played from the native state ``start``."""
    arrays = [np.asarray(g, dtype=np.uint32) for g in games]
    offsets = np.zeros(len(arrays) + 1, dtype=np.uint64)
    offsets[1:] = np.cumsum([len(g) for g in arrays])
    flat = np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.uint32)
    return _core.trace_actions(start, flat, offsets, threads)


@dataclass(frozen=True)
class _UctTraces:
    """Picklable work: UCT self-play games ``[first + start, first + stop)`` as native
    matches (``match_games``, seats not swapped; every move's search seeded from the
    game's own generator, so no two games are the same game), measured in Rust as they
    are played (``trace_match``); with ``outcomes_only`` just the match's playout arrays."""

    game: str
    params: dict[str, Any]
    prefix: tuple[int, ...]
    agent: Any
    seed: int
    first: int
    threads: int | None
    outcomes_only: bool = False

    def __call__(self, start: int, stop: int) -> dict[str, np.ndarray]:
        state = _start(self.game, self.params, self.prefix)
        if self.outcomes_only:
            arrays = match_games(state, [self.agent, self.agent], self.seed, self.first + start, self.first + stop,
                                 swap_seats=False, threads=self.threads)
            return {name: arrays[name] for name in ("winner", "length", "passes", "swapped", "scores")}
        spec = self.agent._spec()
        return _core.trace_match(state, (spec, spec), self.seed, self.first + start, stop - start, False, self.threads)


def _traces(
    game: str,
    params: dict[str, Any],
    prefix: Sequence[int],
    agent: Any,
    games: int,
    seed: int,
    *,
    first: int = 0,
    threads: int | None = None,
    executor: Any = None,
    progress: Progress | None = None,
    outcomes_only: bool = False,
    done_before: int = 0,
    grand_total: int | None = None,
) -> dict[str, np.ndarray]:
    """Per-game traces (or, with ``outcomes_only`` and the random agent, the playout
    arrays) of games ``[first, first + games)``."""
    if executor is not None and threads is None:
        threads = 1  # the workers give the parallelism
    kw: dict[str, Any] = dict(executor=executor, progress=progress, done_before=done_before, grand_total=grand_total)
    if _is_random(agent):
        random_games = _RandomGames(game, params, tuple(prefix), seed, first, threads, outcomes_only)
        return _run_sharded(random_games, games, **kw)
    if type(agent) is Uct:
        uct = _UctTraces(game, params, tuple(prefix), agent, seed, first, threads, outcomes_only)
        return _run_sharded(uct, games, first_batch=2, max_shard=64, **kw)
    work = _AgentTraces(game, params, tuple(prefix), (agent, agent), seed, first, threads)
    return _run_sharded(work, games, shard=1 if executor is None else None, max_shard=64, **kw)


# --- statistics ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """A metric's value and its 95% interval (None where none applies)."""

    estimate: float
    interval: tuple[float, float] | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": _json_float(self.estimate), "interval": None if self.interval is None else [_json_float(v) for v in self.interval], "note": self.note}

    def __str__(self) -> str:
        if self.interval is None:
            return f"{self.estimate:.4g}"
        return f"{self.estimate:.4g} [{self.interval[0]:.4g}, {self.interval[1]:.4g}]"


def _json_float(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _proportion(successes: float, n: int, note: str = "") -> Metric:
    return Metric(successes / n if n else math.nan, wilson_interval(successes, n), note)


def _mean(values: np.ndarray, note: str = "") -> Metric:
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n == 0:
        return Metric(math.nan, (math.nan, math.nan), note)
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Metric(mean, (mean - half, mean + half), note)


def compute_metrics(t: dict[str, np.ndarray]) -> dict[str, Metric]:
    """Ludii's metrics (docs/metrics.md) from per-game traces."""
    n = len(t["winner"])
    winner = t["winner"].astype(np.int64)
    wins0, wins1 = int((winner == 0).sum()), int((winner == 1).sum())
    draws = n - wins0 - wins1
    moves = np.maximum(t["moves"].astype(np.float64), 1.0)
    turns = t["turns"].astype(np.float64)
    m: dict[str, Metric] = {}
    m["AdvantageP1"] = _proportion(wins0, n, "share of games won by seat 0 (draws count 0)")
    p0, p1 = (wins0 / n, wins1 / n) if n else (math.nan, math.nan)
    d = p0 - p1
    se = math.sqrt(max(p0 + p1 - d * d, 0.0) / n) if n else math.nan
    low, high = d - Z95 * se, d + Z95 * se
    worst = max(abs(low), abs(high))
    best = 0.0 if low <= 0.0 <= high else min(abs(low), abs(high))
    m["Balance"] = Metric(1.0 - abs(d), (max(0.0, 1.0 - worst), min(1.0, 1.0 - best)), "1 - |win rate of seat 0 - win rate of seat 1|")
    m["Completion"] = _proportion(wins0 + wins1, n, "share of games with a winner")
    m["Drawishness"] = _proportion(draws, n, "share of games drawn")
    m["Timeouts"] = _proportion(0, n, "share of games stopped by a move limit (these games always end)")
    m["DurationMoves"] = _mean(t["moves"], "actions per game (passes and the pie swap included)")
    m["DurationMovesStdDev"] = Metric(float(t["moves"].std()) if n else math.nan, None, "population std dev over games")
    m["DurationTurns"] = _mean(turns, "turns per game (runs of actions by one seat)")
    m["DurationTurnsStdDev"] = Metric(float(turns.std()) if n else math.nan, None, "population std dev over games")
    bf = t["branching_sum"] / moves
    m["BranchingFactor"] = _mean(bf, "legal moves per state, mean in a game, averaged over games")
    m["BranchingFactorVariance"] = _mean(np.maximum(t["branching_sq_sum"] / moves - bf * bf, 0.0), "variance of legal moves within a game, averaged")
    m["BranchingFactorMax"] = _mean(t["branching_max"], "largest number of legal moves in a game, averaged")
    m["DecisionMoves"] = _mean(t["decisions"] / moves, "share of actions chosen among more than one legal move")
    m["LeadChange"] = _mean(t["lead_changes"] / moves, "changes of the leading seat (by score) per action")
    lead_mean = t["lead_sum"] / moves
    m["Stability"] = _mean(2.0 * np.maximum(t["lead_sq_sum"] / moves - lead_mean**2, 0.0), "sum over seats of the variance of the score lead (points^2)")
    m["Drama"] = _mean(t["drama_sum"] / moves, "mean shortfall of the eventual winner's score lead below the best (points)")
    m["DramaMax"] = _mean(t["drama_max"], "largest such shortfall in a game (points)")
    m["DecisivenessMoves"] = _mean(t["decisive_at"] / moves, "share of the game played before the winner's lead passes the loser's best lead")
    return m


# --- evaluate -----------------------------------------------------------------------------


@dataclass
class Evaluation:
    """What ``evaluate`` found: ``metrics`` (dict keyed by Ludii's names, each a
    ``Metric`` with ``estimate`` and ``interval``) and the per-game arrays behind them
    (``traces``: winner, moves, turns, scores, ...)."""

    game: str
    params: dict[str, Any]
    agent: str
    games: int
    seed: int
    metrics: dict[str, Metric]
    traces: dict[str, np.ndarray] = field(repr=False)
    seconds: float = 0.0
    skill_trace: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "agent": self.agent,
            "games": self.games,
            "seed": self.seed,
            "seconds": self.seconds,
            "metrics": {name: metric.to_dict() for name, metric in self.metrics.items()},
            "skill_trace": self.skill_trace,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        lines = [f"{self.game} ({params}), agent {self.agent}, {self.games:,} games, seed {self.seed}, {self.seconds:.2f} s"]
        for name, metric in self.metrics.items():
            interval = "" if metric.interval is None else f"  [{metric.interval[0]:.4f}, {metric.interval[1]:.4f}]"
            lines.append(f"  {name:<24}{metric.estimate:>12.4f}{interval}")
        return "\n".join(lines)

    def plot(self, path: Any) -> None:
        """Histograms of game length and final score difference, and the main rates with
        their intervals; SVG or PNG by the suffix of ``path``."""
        from territory import evaluate_plots

        evaluate_plots.plot_evaluation(self, path)


def evaluate(
    game: Any,
    agent: Any = "random",
    games: int = 1000,
    seed: int = 0,
    executor: Any = None,
    threads: int | None = None,
    *,
    skill_trace: bool = False,
    skill_levels: int = 8,
    skill_games: int = 10,
    progress: Progress | None = None,
    **params: Any,
) -> Evaluation:
    """Plays ``games`` self-play games of ``game`` (a name, or a native state to start
    from) with ``agent`` in both seats and computes Ludii's metrics with 95% intervals.

    ``agent``: ``"random"`` or a ``RandomAgent`` (uniform random moves, in Rust at playout
    speed: the games of ``random_playouts`` with the same seed), ``"uct:N"`` or a
    ``territory.Uct`` (native matches of UCT against itself: game ``i`` is game ``i`` of
    ``play_match(game, [uct, uct], seed=seed, swap_seats=False)``, its searches seeded
    from ``(seed, i)``), an agent object with ``choose(state)``, or a factory ``f(seed)
    -> agent`` (game ``i`` gives seat s the agent made with seed ``_mix(seed, i, s)``).
    ``skill_trace=True`` adds Ludii's SkillTrace (UCT with 2k iterations against k, k =
    1, 2, 4, ... for ``skill_levels`` levels of ``skill_games`` games each, as native
    matches with seats swapped).
    """
    name, base, prefix = _check_game(game)
    params = {**base, **params}
    agent = _parse(agent)
    games = check_int("games", games, 1)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    start = _start(name, params, prefix)
    began = time.perf_counter()
    traces = _traces(name, dict(start.params), prefix, agent, games, seed, threads=threads, executor=executor, progress=progress)
    metrics = compute_metrics(traces)
    skill = None
    if skill_trace:
        skill = compute_skill_trace(name, dict(start.params), skill_levels, skill_games, seed, threads=threads, executor=executor)
        metrics["SkillTrace"] = Metric(skill["value"], None, "Ludii's skill trace: UCT k vs 2k, k doubling")
    return Evaluation(name, dict(start.params), _agent_name(agent), games, seed, metrics, traces, time.perf_counter() - began, skill)


def skill_trace_value(strong_results: Sequence[float]) -> float:
    """Ludii's SkillTrace from the strong agent's mean utility (+1 win, -1 loss, 0 draw)
    at each level: a least-squares line through (level index, result) predicts the
    result at index ``levels + 1`` (clamped to [0, 1]); the value is that prediction plus
    (1 - prediction) times the sum of the squared positive results."""
    y = np.asarray(strong_results, dtype=np.float64)
    if len(y) == 0:
        raise ValueError("skill trace needs at least one level")
    x = np.arange(len(y), dtype=np.float64)
    if len(y) > 1:
        slope, intercept = np.polyfit(x, y, 1)
    else:
        slope, intercept = 0.0, float(y[0])
    nxt = min(max(intercept + slope * (len(y) + 1), 0.0), 1.0)
    area = float((np.maximum(y, 0.0) ** 2).sum())
    return float(nxt + (1.0 - nxt) * area)


def compute_skill_trace(game: str, params: dict[str, Any], levels: int, games: int, seed: int, *, threads: int | None = None, executor: Any = None) -> dict[str, Any]:
    """Matches (``play_match``, native) of UCT with 2k iterations (agent 0, the strong
    one) against UCT with k, k = 1, 2, 4, ...; the strong agent takes seat 0 in
    even-numbered games and seat 1 in odd ones. Level ``j`` is the match seeded with
    ``_mix(seed, j)``. ``strong_results`` are the strong agent's mean utility (+1 win, 0
    draw, -1 loss) per level."""
    levels = check_int("skill_levels", levels, 1, 30)
    games = check_int("skill_games", games, 1)
    start = _start(game, params)
    results = []
    for level in range(levels):
        strong, weak = Uct(iterations=2 ** (level + 1)), Uct(iterations=2**level)
        match = play_match(start, [strong, weak], games, seed=_mix(seed, level), threads=threads, swap_seats=True,
                           executor=executor, keep_actions=False)
        wins, losses, _ = match.agent_wins
        results.append((wins - losses) / games)
    return {"levels": [2**k for k in range(levels)], "strong_results": results, "value": skill_trace_value(results)}


# --- fair komi ----------------------------------------------------------------------------


def fit_logistic(x: np.ndarray, wins: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood logistic fit of P(win) = 1 / (1 + exp(-(a + b x))) to binomial
    counts by Newton's method (IRLS). Returns (a, b) and their covariance matrix (the
    inverse of the Fisher information)."""
    x = np.asarray(x, dtype=np.float64)
    wins = np.asarray(wins, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    X = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(X @ beta)))
        w = n * p * (1.0 - p)
        hessian = X.T @ (X * w[:, None]) + 1e-12 * np.eye(2)
        step = np.linalg.solve(hessian, X.T @ (wins - n * p))
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(X @ beta)))
    w = n * p * (1.0 - p)
    cov = np.linalg.inv(X.T @ (X * w[:, None]) + 1e-12 * np.eye(2))
    return beta, cov


@dataclass
class KomiFit:
    """One agent's komi sweep: ``curve`` (komi, games, black_wins, win_rate with Wilson
    intervals, fitted), the logistic coefficients and the crossing ``estimate`` with its
    95% ``interval`` (delta method)."""

    agent: str
    estimate: float
    interval: tuple[float, float]
    coefficients: tuple[float, float]
    covariance: list[list[float]]
    curve: dict[str, list[float]]

    def fitted(self, komi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The fitted win rate at ``komi`` and its 95% band."""
        komi = np.asarray(komi, dtype=np.float64)
        X = np.column_stack([np.ones_like(komi), komi])
        eta = X @ np.asarray(self.coefficients)
        se = np.sqrt(np.einsum("ij,jk,ik->i", X, np.asarray(self.covariance), X))
        f = lambda e: 1.0 / (1.0 + np.exp(-e))  # noqa: E731
        return f(eta), f(eta - Z95 * se), f(eta + Z95 * se)

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "estimate": self.estimate, "interval": list(self.interval), "coefficients": list(self.coefficients), "covariance": self.covariance, "curve": self.curve}


@dataclass
class FairKomi:
    """``fair_komi``'s result. ``estimate``, ``interval`` and ``curve`` are those of the
    first agent; ``fits`` holds one ``KomiFit`` per agent strength."""

    params: dict[str, Any]
    games: int
    seed: int
    fits: list[KomiFit]
    seconds: float = 0.0

    @property
    def estimate(self) -> float:
        return self.fits[0].estimate

    @property
    def interval(self) -> tuple[float, float]:
        return self.fits[0].interval

    @property
    def curve(self) -> dict[str, list[float]]:
        return self.fits[0].curve

    def to_dict(self) -> dict[str, Any]:
        return {"game": "nume", "params": self.params, "games_per_komi": self.games, "seed": self.seed, "seconds": self.seconds, "fits": [f.to_dict() for f in self.fits]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        lines = [f"nume fair komi (komi added to Black's score; negative: to White's), {self.games:,} games per komi value, seed {self.seed}"]
        for f in self.fits:
            lines.append(f"  {f.agent:<12} fair komi {f.estimate:8.2f}   95% CI [{f.interval[0]:.2f}, {f.interval[1]:.2f}]")
        return "\n".join(lines)

    def plot(self, path: Any) -> None:
        """Black's win rate against komi, with Wilson intervals, the fitted logistic
        curve and its 95% band, and the fair komi; SVG or PNG by the suffix."""
        from territory import evaluate_plots

        evaluate_plots.plot_komi(self, path)


DEFAULT_KOMI = tuple(k + 0.5 for k in range(-21, 21))  # -20.5 .. 20.5


def _check_komi(value: Any) -> float:
    if not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"komi values must be numbers k + 0.5 (k a whole number), got {value!r}")
    number = float(value)
    if isinstance(value, bool) or not math.isfinite(number) or not (number - 0.5).is_integer() or abs(number) > 2**31:
        raise ValueError(f"komi values must be numbers k + 0.5 (k a whole number), got {value!r}")
    return number


def _komi_params(params: dict[str, Any], komi: float) -> dict[str, Any]:
    return {**params, "komi": abs(komi), "komi_to": "black" if komi > 0 else "white"}


def fair_komi(
    agent: Any = "random",
    games: int = 2000,
    seed: int = 0,
    executor: Any = None,
    komi_values: Iterable[float] | None = None,
    threads: int | None = None,
    *,
    progress: Progress | None = None,
    **nume_params: Any,
) -> FairKomi:
    """Black's win rate in Nume at each komi of ``komi_values`` (default -20.5 .. 20.5;
    positive: added to Black's score, negative: to White's), ``games`` games each, a
    logistic fit, and the komi at which Black wins half the games with a 95% interval.

    ``agent`` is one agent (as for ``evaluate``) or a list of them (several strengths:
    one fit each). Games at the j-th komi value are games ``j * games .. (j + 1) *
    games - 1`` of the run seeded with ``seed``, so komi values are independent samples.
    """
    for key in ("komi", "komi_to"):
        if key in nume_params:
            raise ValueError(f"fair_komi sweeps {key} itself; do not pass {key}=")
    if nume_params.get("komi_phase"):
        raise ValueError("fair_komi needs komi_phase=False: with a komi phase the players choose the komi")
    agents = [_parse(a) for a in (agent if isinstance(agent, (list, tuple)) else [agent])]
    if not agents:
        raise ValueError("agent list is empty")
    games = check_int("games", games, 1)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    values = sorted({_check_komi(k) for k in (DEFAULT_KOMI if komi_values is None else komi_values)})
    if len(values) < 2:
        raise ValueError(f"komi_values must hold at least two distinct values k + 0.5 to fit a curve, got {values}")
    start = new_game("nume", **_komi_params(nume_params, values[0]))
    params = {k: v for k, v in start.params.items() if k not in ("komi", "komi_to")}
    began = time.perf_counter()
    total = len(agents) * len(values) * games
    fits = []
    for a_index, a in enumerate(agents):
        wins = []
        for j, komi in enumerate(values):
            out = _traces(
                "nume", _komi_params(params, komi), (), a, games, seed, first=j * games, threads=threads, executor=executor,
                progress=progress, outcomes_only=True, done_before=(a_index * len(values) + j) * games, grand_total=total,
            )
            wins.append(int((out["winner"] == 0).sum()))  # seat 0 plays Black (no komi phase)
        fits.append(_fit_komi(_agent_name(a), np.array(values), np.array(wins), games))
    return FairKomi(params, games, seed, fits, time.perf_counter() - began)


def _fit_komi(agent: str, komi: np.ndarray, wins: np.ndarray, games: int) -> KomiFit:
    n = np.full(len(komi), games, dtype=np.float64)
    (a, b), cov = fit_logistic(komi, wins, n)
    curve: dict[str, list[float]] = {"komi": komi.tolist(), "games": n.tolist(), "black_wins": wins.tolist(), "win_rate": (wins / n).tolist()}
    intervals = [wilson_interval(w, games) for w in wins]
    curve["ci_low"] = [lo for lo, _ in intervals]
    curve["ci_high"] = [hi for _, hi in intervals]
    if abs(b) < 1e-12 or not np.all(np.isfinite(cov)):
        estimate, interval = math.nan, (math.nan, math.nan)
    else:
        estimate = -a / b
        gradient = np.array([-1.0 / b, a / b**2])
        se = math.sqrt(max(float(gradient @ cov @ gradient), 0.0))
        interval = (estimate - Z95 * se, estimate + Z95 * se)
    fit = KomiFit(agent, float(estimate), (float(interval[0]), float(interval[1])), (float(a), float(b)), cov.tolist(), curve)
    curve["fitted"] = fit.fitted(komi)[0].tolist()
    return fit


# --- openings -----------------------------------------------------------------------------

#: Above this many legal first moves (Migong), the default is an evenly spaced sample.
MAX_DEFAULT_OPENINGS = 1000
DEFAULT_OPENING_SAMPLE = 252


@dataclass
class Openings:
    """``openings``' result: ``moves`` (first moves studied), and for each, seat 0's win
    rate (draws half) when seat 1 plays on (games in which seat 1 took the pie are left
    out) and when it swaps at once (None without a pie rule), with Wilson intervals and
    game counts."""

    game: str
    params: dict[str, Any]
    agent: str
    games_per_opening: int
    seed: int
    moves: list[str]
    play_on: list[float]
    play_on_interval: list[tuple[float, float]]
    play_on_games: list[int]
    swap: list[float] | None
    swap_interval: list[tuple[float, float]] | None
    swap_games: list[int] | None
    legal_first_moves: int
    seconds: float = 0.0

    def by_cell(self, which: str = "play_on") -> dict[str, float]:
        """Seat 0's win rate per cell (the first cell a move names: Tabik's Black square,
        Migong's and Nume's cell), pooled over the studied moves on that cell."""
        rates = self.play_on if which == "play_on" else self.swap
        counts = self.play_on_games if which == "play_on" else self.swap_games
        if rates is None or counts is None:
            raise ValueError(f"{self.game} with these parameters has no pie swap")
        state = new_game(self.game, **self.params)
        pooled: dict[str, list[float]] = {}
        for move, rate, n in zip(self.moves, rates, counts):
            cells = state.move_cells(move)
            if cells and n:
                total = pooled.setdefault(cells[0], [0.0, 0.0])
                total[0] += rate * n
                total[1] += n
        return {cell: s / n for cell, (s, n) in pooled.items()}

    def to_dict(self) -> dict[str, Any]:
        rows = []
        for i, move in enumerate(self.moves):
            row: dict[str, Any] = {"move": move, "play_on": self.play_on[i], "play_on_interval": list(self.play_on_interval[i]), "play_on_games": self.play_on_games[i]}
            if self.swap is not None and self.swap_interval is not None and self.swap_games is not None:
                row.update(swap=self.swap[i], swap_interval=list(self.swap_interval[i]), swap_games=self.swap_games[i])
            rows.append(row)
        return {"game": self.game, "params": self.params, "agent": self.agent, "games_per_opening": self.games_per_opening, "seed": self.seed, "legal_first_moves": self.legal_first_moves, "seconds": self.seconds, "openings": rows}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=_json_float)

    def __str__(self) -> str:
        lines = [f"{self.game} openings, agent {self.agent}, {self.games_per_opening:,} games per branch, {len(self.moves)} of {self.legal_first_moves} first moves, seed {self.seed}",
                 f"  {'move':<14}{'play on':>9}{'95% CI':>18}" + (f"{'swap':>9}{'95% CI':>18}" if self.swap is not None else "")]
        order = sorted(range(len(self.moves)), key=lambda i: -self.play_on[i])
        for i in order:
            lo, hi = self.play_on_interval[i]
            line = f"  {self.moves[i]:<14}{self.play_on[i]:>9.3f}   [{lo:.3f}, {hi:.3f}]"
            if self.swap is not None and self.swap_interval is not None:
                lo, hi = self.swap_interval[i]
                line += f"{self.swap[i]:>9.3f}   [{lo:.3f}, {hi:.3f}]"
            lines.append(line)
        return "\n".join(lines)

    def plot(self, path: Any) -> None:
        """A heat map of seat 0's win rate per first-move cell on the game's board (and a
        second one after the pie swap); SVG or PNG by the suffix."""
        from territory import evaluate_plots

        evaluate_plots.plot_openings(self, path)


def default_opening_moves(state: Any) -> list[str]:
    """Every legal first move, or for more than ``MAX_DEFAULT_OPENINGS`` (Migong) an
    evenly spaced sample of ``DEFAULT_OPENING_SAMPLE`` in action order (cell-major, so
    every cell gets about two)."""
    moves = [m for m in state.legal_moves() if m not in ("swap", "pass")]
    if len(moves) <= MAX_DEFAULT_OPENINGS:
        return moves
    picks = np.linspace(0, len(moves) - 1, DEFAULT_OPENING_SAMPLE).round().astype(int)
    return [moves[i] for i in sorted(set(picks.tolist()))]


def openings(
    game: Any,
    agent: Any = "random",
    games_per_opening: int = 200,
    seed: int = 0,
    executor: Any = None,
    threads: int | None = None,
    *,
    moves: Iterable[str] | None = None,
    progress: Progress | None = None,
    **params: Any,
) -> Openings:
    """For each first move (``moves``, default ``default_opening_moves``), seat 0's win
    rate over ``games_per_opening`` games when seat 1 plays on and over as many when seat
    1 swaps at once (pie rule; skipped when the game has none).

    The games of the k-th legal first move (k its index among all legal first moves, so
    a move's games do not depend on which others are studied) are games ``2k *
    games_per_opening ..`` (play on) and ``(2k + 1) * games_per_opening ..`` (swap) of the
    run seeded with ``seed``.
    """
    name, base, prefix = _check_game(game)
    if prefix:
        raise ValueError("openings starts from the start position; pass a game name")
    params = {**base, **params}
    agent = _parse(agent)
    games = check_int("games_per_opening", games_per_opening, 1)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    start = _start(name, params)
    params = dict(start.params)
    legal = [m for m in start.legal_moves() if m not in ("swap", "pass")]
    index = {m: k for k, m in enumerate(legal)}
    chosen = default_opening_moves(start) if moves is None else list(moves)
    if not chosen:
        raise ValueError("moves is empty: give at least one legal first move")
    for m in chosen:
        if m not in index:
            raise ValueError(f"{m!r} is not a legal first move of {name} here")
    began = time.perf_counter()
    has_pie = False
    rows = []
    branches = 2
    total = len(chosen) * games * branches
    for j, move in enumerate(chosen):
        after = start.copy()
        after.play(move)
        has_pie = "swap" in after.legal_moves()
        k = index[move]
        out = _traces(name, params, [start.move_to_action(move)], agent, games, seed, first=2 * k * games, threads=threads,
                      executor=executor, progress=progress, outcomes_only=True, done_before=j * games * branches, grand_total=total)
        kept = ~out["swapped"].astype(bool)
        winner = out["winner"][kept]
        on = _rate(winner)
        swap = None
        if has_pie:
            actions = [start.move_to_action(move), start.move_to_action("swap")]
            out = _traces(name, params, actions, agent, games, seed, first=(2 * k + 1) * games, threads=threads,
                          executor=executor, progress=progress, outcomes_only=True, done_before=j * games * branches + games, grand_total=total)
            swap = _rate(out["winner"])
        rows.append((move, on, swap))
    if progress is not None:
        progress(total, total, time.perf_counter() - began)
    return Openings(
        name, params, _agent_name(agent), games, seed, [r[0] for r in rows],
        [r[1][0] for r in rows], [r[1][1] for r in rows], [r[1][2] for r in rows],
        [r[2][0] for r in rows if r[2] is not None] if has_pie else None,
        [r[2][1] for r in rows if r[2] is not None] if has_pie else None,
        [r[2][2] for r in rows if r[2] is not None] if has_pie else None,
        len(legal), time.perf_counter() - began,
    )


def _rate(winner: np.ndarray) -> tuple[float, tuple[float, float], int]:
    """Seat 0's win rate (draws half), its Wilson interval and the number of games."""
    n = len(winner)
    score = float((winner == 0).sum() + 0.5 * (winner < 0).sum())
    return (score / n if n else math.nan, wilson_interval(score, n), n)
