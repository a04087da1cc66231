"""``openings``: seat 0's win rate after each first move, when seat 1 plays on and when it
takes the pie."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from territory._checks import check_int, check_threads
from territory._results import results_repr
from territory.agents import start_state
from territory.evaluate.runs import MAX_GAMES, Progress, _agent_name, _parse, _traces
from territory.evaluate.stats import _json_float
from territory.playouts import new_game, wilson_interval


#: Above this many legal first moves (Migong), the default is an evenly spaced sample.
MAX_DEFAULT_OPENINGS = 1000
DEFAULT_OPENING_SAMPLE = 252


@dataclass
class Openings:
    """``openings``' result: ``moves`` (first moves studied), and for each, seat 0's win
    rate (draws half) when seat 1 plays on (games in which seat 1 took the pie are left
    out) and when it swaps at once (None without a pie rule), with Wilson intervals and
    game counts."""

    __repr__ = results_repr

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
        from territory.evaluate import plots

        plots.plot_openings(self, path)


def default_opening_moves(state: Any) -> list[str]:
    """Every legal first move, or for more than ``MAX_DEFAULT_OPENINGS`` (Migong) an
    evenly spaced sample of ``DEFAULT_OPENING_SAMPLE`` in action order (cell-major, so
    every cell gets about two)."""
    moves = _first_moves(state)
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

    ``game`` is a name with its ``params``, or a native state to start from (its
    position; a finished state is refused, as ``play_match`` refuses it): "first move"
    then means the next move, and the rates stay seat 0's.

    The games of the k-th legal first move (k its index among all legal first moves, so
    a move's games do not depend on which others are studied) are games ``2k *
    games_per_opening ..`` (play on) and ``(2k + 1) * games_per_opening ..`` (swap) of the
    run seeded with ``seed``.
    """
    start = start_state(game, params)
    name, params = start.game, dict(start.params)
    agent = _parse(agent, "openings", start)
    games = check_int("games_per_opening", games_per_opening, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    legal = _first_moves(start)
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
        swap_move = next((m for m in after.legal_moves() if after.is_swap(m)), None)
        has_pie = swap_move is not None
        k = index[move]
        out = _traces(after, agent, games, seed, first=2 * k * games, threads=threads,
                      executor=executor, progress=progress, outcomes_only=True, done_before=j * games * branches, grand_total=total)
        kept = ~out["swapped"].astype(bool)
        winner = out["winner"][kept]
        on = _rate(winner)
        swap = None
        if has_pie:
            swapped = after.copy()
            swapped.play(swap_move)
            out = _traces(swapped, agent, games, seed, first=(2 * k + 1) * games, threads=threads,
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


def _first_moves(state: Any) -> list[str]:
    """The legal moves of ``state`` that are not a pass or the pie swap."""
    return [m for m in state.legal_moves() if not state.is_pass(m) and not state.is_swap(m)]


def _rate(winner: np.ndarray) -> tuple[float, tuple[float, float], int]:
    """Seat 0's win rate (draws half), its Wilson interval and the number of games."""
    n = len(winner)
    score = float((winner == 0).sum() + 0.5 * (winner < 0).sum())
    return (score / n if n else math.nan, wilson_interval(score, n), n)
