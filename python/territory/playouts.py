"""Bulk uniform random playouts: one call for millions of games.

The random policy: at every turn the mover picks uniformly among ``legal_moves()`` (so
in Nume every listed number 0..N of a new group's stone is one choice, and in the komi
phase every listed komi). Game ``i`` of a run with seed ``s`` uses its own generator
seeded from ``(s, i)``: results do not depend on the number of threads, and
``replay_playout(game, seed, i, **params)`` gives that game's full move list.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Union

import numpy as np

from territory import _core, distributed
from territory._checks import check_int, check_memory, check_threads
from territory._results import rate_text, results_repr
from territory.registry import GAMES, new_game
from territory.types import GameState

MAX_THREADS: int = _core.MAX_THREADS
#: The per-game arrays of a run.
FIELDS = ("winner", "length", "passes", "swapped", "scores")
#: The memory a kept game takes at the peak of a run: its arrays (winner, length,
#: passes, swapped, two scores: 26 bytes), twice (the batches, then their concatenation).
BYTES_PER_GAME = 52


class _Tally:
    """Streaming counts from which the summary is computed (memory does not grow with
    the number of games)."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = np.zeros(3, dtype=np.int64)  # seat 0, seat 1, draw
        self.swaps = 0
        self.passes = 0
        self.lengths = np.zeros(0, dtype=np.int64)
        self.scores: list[dict[float, int]] = [{}, {}]

    def add(self, batch: dict[str, np.ndarray]) -> None:
        self.games += len(batch["winner"])
        self.wins += np.bincount(batch["winner"].astype(np.int64) % 3, minlength=3)[[0, 1, 2]]
        self.swaps += int(batch["swapped"].sum())
        self.passes += int(batch["passes"].sum())
        counts = np.bincount(batch["length"])
        if len(counts) > len(self.lengths):
            counts[: len(self.lengths)] += self.lengths
            self.lengths = counts
        else:
            self.lengths[: len(counts)] += counts
        for seat in range(2):
            values, numbers = np.unique(batch["scores"][:, seat], return_counts=True)
            table = self.scores[seat]
            for v, c in zip(values.tolist(), numbers.tolist()):
                table[v] = table.get(v, 0) + c

    def merge(self, other: _Tally) -> None:
        """Adds the counts of ``other`` (another part of the same run) to these."""
        self.games += other.games
        self.wins += other.wins
        self.swaps += other.swaps
        self.passes += other.passes
        if len(other.lengths) > len(self.lengths):
            self.lengths, other_lengths = other.lengths.copy(), self.lengths
        else:
            other_lengths = other.lengths
        self.lengths[: len(other_lengths)] += other_lengths
        for table, more in zip(self.scores, other.scores):
            for v, c in more.items():
                table[v] = table.get(v, 0) + c


def _quantiles(values: np.ndarray, counts: np.ndarray, qs: tuple[float, ...]) -> dict[str, float]:
    """Quantiles (lower) of a distribution given as sorted values and their counts."""
    total = counts.sum()
    if total == 0:
        return {f"q{round(q * 100)}": math.nan for q in qs}
    cumulative = np.cumsum(counts)
    out = {}
    for q in qs:
        index = int(np.searchsorted(cumulative, max(1, math.ceil(q * total))))
        out[f"q{round(q * 100)}"] = float(values[min(index, len(values) - 1)])
    return out


def _distribution(values: np.ndarray, counts: np.ndarray) -> dict[str, Any]:
    total = int(counts.sum())
    if total == 0:
        return {"mean": math.nan, "std": math.nan, "min": math.nan, "max": math.nan}
    mean = float((values * counts).sum() / total)
    var = float((counts * (values - mean) ** 2).sum() / total)
    stats = {"mean": mean, "std": math.sqrt(var), "min": float(values[counts > 0].min()), "max": float(values[counts > 0].max())}
    stats.update(_quantiles(values, counts, (0.05, 0.25, 0.5, 0.75, 0.95)))
    return stats


def wilson_interval(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At p = 0 (or 1) the bound is exactly 0 (or 1); rounding would leave about 1e-19.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


@dataclass
class PlayoutResults:
    """The outcome of a run of random games.

    With ``keep_games=True`` (the default) the per-game numpy arrays are kept:
    ``winner`` (int8: seat 0 or 1, -1 for a draw), ``length`` (uint32: actions, passes and
    the pie swap included), ``passes`` (uint32), ``swapped`` (bool: the pie swap was
    taken) and ``scores`` (float64, shape (games, 2): final score of seat 0 and seat 1).
    ``summary()`` works either way.
    """

    game: str
    params: dict[str, Any]
    seed: int
    games: int
    winner: np.ndarray | None = None
    length: np.ndarray | None = None
    passes: np.ndarray | None = None
    swapped: np.ndarray | None = None
    scores: np.ndarray | None = None
    seconds: float = 0.0
    _tally: _Tally = field(default_factory=_Tally, repr=False)

    def __repr__(self) -> str:
        s = self.summary()
        return results_repr(
            self, f"seat 0 win rate {rate_text(s['seat0_win_rate'], s['seat0_win_rate_ci95'])}, {s['draws']:,} draws"
        )

    def summary(self) -> dict[str, Any]:
        """Seat-0 win rate with its 95% Wilson interval, draw and swap rates, game length
        and score distributions (mean, std, min, max, quantiles q5..q95).

        Plain Python values only (int, float, str, bool, None, tuple, dict); a quantity
        with no games behind it (e.g. any mean of a run of 0 games) is ``math.nan``."""
        t = self._tally
        n = t.games
        lengths = np.arange(len(t.lengths), dtype=np.float64)
        scores = {}
        for seat in range(2):
            table = t.scores[seat]
            values = np.array(sorted(table), dtype=np.float64)
            counts = np.array([table[v] for v in sorted(table)], dtype=np.int64)
            scores[f"seat{seat}"] = _distribution(values, counts)
        wins0, wins1, draws = (int(w) for w in t.wins)
        decided = wins0 + wins1
        return {
            "game": self.game,
            "params": dict(self.params),
            "seed": self.seed,
            "games": n,
            "seat0_wins": wins0,
            "seat1_wins": wins1,
            "draws": draws,
            # Draws count as half a win, so the rate is seat 0's expected result.
            "seat0_win_rate": (wins0 + 0.5 * draws) / n if n else math.nan,
            "seat0_win_rate_ci95": wilson_interval(wins0 + 0.5 * draws, n),
            "decided_games": decided,
            "swap_rate": t.swaps / n if n else math.nan,
            "passes_mean": t.passes / n if n else math.nan,
            "length": _distribution(lengths, t.lengths),
            "scores": scores,
            "seconds": self.seconds,
            "games_per_second": n / self.seconds if self.seconds > 0 else math.nan,
        }


def random_playouts(
    game: str,
    games: int,
    seed: int = 0,
    threads: int | None = None,
    *,
    keep_games: bool = True,
    progress: Callable[[int, int, float], None] | None = None,
    executor: Any = None,
    shard_size: int | None = None,
    **params: Any,
) -> PlayoutResults:
    """Plays ``games`` uniform random games of ``game`` ("migong", "nume" or "tabik"),
    built with ``params`` (the game's constructor parameters), in Rust on ``threads``
    threads (None: every core) with the GIL released.

    The same ``seed`` gives the same results for any ``threads``. ``progress(done,
    total, seconds)`` is called between batches. Ctrl-C stops the run with a
    KeyboardInterrupt within a fraction of a second. ``keep_games=False`` keeps only the
    counts behind ``summary()``, so memory stays flat however many games are played.

    ``executor``: any ``concurrent.futures.Executor`` (a Dask cluster's
    ``Client.get_executor()``, a ``ProcessPoolExecutor``) to run the games on, in shards
    of ``shard_size`` games (default: about 8 shards per worker thread) of ``threads``
    threads each (None: 1, the workers giving the parallelism); the results are identical
    to the local run's. ``progress`` is then called as shards finish, and a failed shard
    raises ``territory.distributed.ShardError``. See docs/scale-out.md.
    """
    games = check_int("games", games, 0, 2**64 - 1)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    if shard_size is not None:
        shard_size = check_int("shard_size", shard_size, 1)
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be callable (done, total, seconds), got {type(progress).__name__}")
    start = new_game(game, **params)
    if keep_games:
        check_memory(f"keeping the arrays of {games:,} games", games * BYTES_PER_GAME,
                     "pass keep_games=False to keep only the counts behind summary() (flat memory)")
    result = PlayoutResults(game, dict(start.params), seed, games)
    if executor is not None and games:
        return _run_on(executor, result, 1 if threads is None else threads, keep_games, shard_size, progress)
    kept: dict[str, list[np.ndarray]] = {name: [] for name in FIELDS}
    began = time.perf_counter()
    batches = distributed.in_batches(
        lambda first, stop: _core.run_playouts(start, seed, first, stop - first, threads),
        games, first=256, smallest=16, progress=progress,
    )
    for arrays in batches:
        result._tally.add(arrays)
        if keep_games:
            for name in FIELDS:
                kept[name].append(arrays[name])
    result.seconds = time.perf_counter() - began
    if keep_games:
        if not games:  # no batch ran: take correctly typed empty arrays from an empty one
            kept = {name: [array] for name, array in _core.run_playouts(start, seed, 0, 0, 1).items()}
        for name in FIELDS:
            setattr(result, name, np.concatenate(kept[name]))
    return result


def playout_shard(
    game: str, params: dict[str, Any], seed: int, threads: int, keep_games: bool, start: int, stop: int
) -> dict[str, np.ndarray] | _Tally:
    """Games ``[start, stop)`` of the run ``random_playouts(game, seed=seed, **params)``
    on ``threads`` threads: their arrays, or with ``keep_games=False`` their tally. A pure
    function of its arguments: the unit of work that an executor runs."""
    arrays = _core.run_playouts(new_game(game, **params), seed, start, stop - start, threads)
    if keep_games:
        return arrays
    tally = _Tally()
    tally.add(arrays)
    return tally


def _run_on(
    executor: Any,
    result: PlayoutResults,
    threads: int,
    keep_games: bool,
    shard_size: int | None,
    progress: Callable[[int, int, float], None] | None,
) -> PlayoutResults:
    """``random_playouts`` on an executor, in shards (see ``territory.distributed``)."""
    began = time.perf_counter()
    spec = (result.game, result.params, result.seed, threads, keep_games)
    if keep_games:
        parts = distributed.run_sharded(executor, playout_shard, spec, result.games, combine=list,
                                        shard_size=shard_size, progress=progress)
        for name in FIELDS:
            setattr(result, name, np.concatenate([part[name] for part in parts]))
        result._tally.add({name: getattr(result, name) for name in FIELDS})
    else:
        def fold(tally: Any) -> None:  # a shard's part: a _Tally without keep_games
            result._tally.merge(tally)

        distributed.run_sharded(executor, playout_shard, spec, result.games, each=fold, shard_size=shard_size,
                                progress=progress)
    result.seconds = time.perf_counter() - began
    return result


def replay_playout(game: str, seed: int, index: int, **params: Any) -> GameState:
    """The finished state of game ``index`` of the run ``random_playouts(game, ...,
    seed=seed, **params)``: its ``history`` is the full move list."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 2**64:
        raise ValueError(f"index must be a non-negative int, got {index!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, got {seed!r}")
    state: GameState = _core.replay_playout(new_game(game, **params), seed, index)
    return state


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
