"""``evaluate``: self-play games measured with Ludii's metrics (docs/metrics.md), and
Ludii's SkillTrace."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from territory._checks import check_int, check_threads
from territory._results import results_repr
from territory._seeds import GOLDEN, mix
from territory.agents import MAX_UCT_ITERATIONS, Uct, play_match, start_state
from territory.evaluate.runs import MAX_GAMES, Progress, _agent_name, _parse, _traces
from territory.evaluate.stats import Z95, Metric, _mean, _proportion

#: At most this many SkillTrace levels: the last one's strong agent has ``2**levels``
#: UCT iterations, which must not pass ``MAX_UCT_ITERATIONS`` (10,000,000: 23 levels).
MAX_SKILL_LEVELS = MAX_UCT_ITERATIONS.bit_length() - 1


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


@dataclass
class Evaluation:
    """What ``evaluate`` found: ``metrics`` (dict keyed by Ludii's names, each a
    ``Metric`` with ``estimate`` and ``interval``) and the per-game arrays behind them
    (``traces``: winner, moves, turns, scores, ...)."""

    __repr__ = results_repr

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
        from territory.evaluate import plots

        plots.plot_evaluation(self, path)


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
    """Plays ``games`` self-play games of ``game`` (a name with its ``params``, or a native
    state to start from: its position, whether played to or set up by
    ``from_position``; a finished state is refused, as ``play_match`` refuses it) with
    ``agent`` in both seats and computes Ludii's metrics with 95% intervals.

    ``agent``: ``"random"`` or a ``RandomAgent`` (uniform random moves, in Rust at playout
    speed: the games of ``random_playouts`` with the same seed), ``"uct:N"`` or a
    ``territory.Uct`` (native matches of UCT against itself: game ``i`` is game ``i`` of
    ``play_match(game, [uct, uct], seed=seed, swap_seats=False)``, its searches seeded
    from ``(seed, i)``), an agent object with ``choose(state)``, or a factory ``f(seed)
    -> agent`` (game ``i`` gives seat s the agent made with seed ``agent_seed(seed, i,
    s)``).
    ``skill_trace=True`` adds Ludii's SkillTrace (UCT with 2k iterations against k, k =
    1, 2, 4, ... for ``skill_levels`` levels of ``skill_games`` games each, as native
    matches with seats swapped).
    """
    start = start_state(game, params)
    agent = _parse(agent, "evaluate", start)
    games = check_int("games", games, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    began = time.perf_counter()
    traces = _traces(start, agent, games, seed, threads=threads, executor=executor, progress=progress)
    metrics = compute_metrics(traces)
    skill = None
    if skill_trace:
        skill = compute_skill_trace(start, skill_levels, skill_games, seed, threads=threads, executor=executor)
        metrics["SkillTrace"] = Metric(skill["value"], None, "Ludii's skill trace: UCT k vs 2k, k doubling")
    return Evaluation(start.game, dict(start.params), _agent_name(agent), games, seed, metrics, traces, time.perf_counter() - began, skill)


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


def compute_skill_trace(start: Any, levels: int, games: int, seed: int, *, threads: int | None = None, executor: Any = None) -> dict[str, Any]:
    """Matches (``play_match``, native, from the state ``start``) of UCT with 2k
    iterations (agent 0, the strong one) against UCT with k, k = 1, 2, 4, ...; the strong
    agent takes seat 0 in even-numbered games and seat 1 in odd ones. Level ``j`` is the
    match seeded with ``mix(seed, j, start=GOLDEN)``. ``strong_results`` are the strong agent's mean utility (+1 win, 0
    draw, -1 loss) per level. At most ``MAX_SKILL_LEVELS`` levels (23)."""
    levels = check_int("skill_levels", levels, 1, MAX_SKILL_LEVELS)
    games = check_int("skill_games", games, 1, MAX_GAMES)
    results = []
    for level in range(levels):
        strong, weak = Uct(iterations=2 ** (level + 1)), Uct(iterations=2**level)
        match = play_match(start, [strong, weak], games, seed=mix(seed, level, start=GOLDEN), threads=threads, swap_seats=True,
                           executor=executor, keep_actions=False)
        wins, losses, _ = match.agent_wins
        results.append((wins - losses) / games)
    return {"levels": [2**k for k in range(levels)], "strong_results": results, "value": skill_trace_value(results)}
