"""One game in the browser: the state, who plays which seat, and what the page is shown.

No web framework here (``app.py`` serves it): a ``Session`` holds a game state and answers
with plain dicts. Everything about the rules comes from the engine: the legal moves, the
cells each move touches (``state.move_cells``), scores, groups, winner, prices. What the
page gets per legal move is the sequence of board clicks that selects it (``paths``): the
page maps clicks to the move strings listed here and nothing else.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, field
from typing import Any, Optional

from territory import games, record, registry, svg
from territory.agents import NodeLimitError, Stop, Uct, solve
from territory.types import GameState

#: Agent strengths offered by the page: name -> UCT iterations per move.
STRENGTHS = {"1": 100, "2": 1_000, "3": 10_000, "4": 100_000}
#: Largest number of UCT iterations an analysis may ask for.
MAX_ITERATIONS = 200_000
#: Positions the exact solver may visit before the page says "too large to solve".
SOLVE_NODES = 300_000
#: Longest move string, record or position text a request may carry (characters).
MAX_TEXT = 200_000


class SessionError(ValueError):
    """A request that cannot be done in this session now (the game is unchanged)."""


class Conflict(SessionError):
    """The request does not fit the session's current state (e.g. not the agent's turn)."""


def new_state(game: Any, params: dict[str, Any], position: Optional[str] = None) -> Any:
    """A game state from a name, parameters and optionally a position string; the
    engine's ``ValueError`` (naming the parameter or the bad position) passes through."""
    if not isinstance(game, str) or game not in registry.GAMES:
        raise SessionError(f"unknown game {game!r}: one of {', '.join(registry.GAMES)}")
    if not isinstance(params, dict):
        raise SessionError("params must be an object of game parameters")
    cls: Any = registry.GAMES[game]
    if position is None:
        return cls(**params)
    _check_text("position", position)
    return cls.from_position(position, **params)


def _check_text(what: str, text: Any) -> str:
    if not isinstance(text, str):
        raise SessionError(f"{what} must be a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise SessionError(f"{what} is too long ({len(text)} characters, at most {MAX_TEXT})")
    return text


def click_paths(state: GameState, move: str) -> list[tuple[str, ...]]:
    """The click sequences on the board that select ``move``: its cells in the engine's
    order, or as the game's ``click_paths`` hook says (``territory.games``: a Tabik stone
    swap is clicked either way round). Empty for moves that touch no cell (swap, pass,
    komi choices)."""
    cells = tuple(state.move_cells(move))
    if not cells:
        return []
    paths = games.hook(state.game, "click_paths")
    return [cells] if paths is None else list(paths(move, cells))


def result_reason(state: GameState) -> Optional[str]:
    """Who won and why, read off the engine's scores and winner: the score rule (the
    higher or the lower score wins, as the winner shows), the tie-break, or a draw."""
    if not state.is_over:
        return None
    scores = state.scores()
    shown = [record.format_score(s) for s in scores]
    winner = state.winner
    if winner is None:
        return f"a draw: equal scores {shown[0]}-{shown[1]}"
    loser = 1 - winner
    name = f"seat {winner} ({state.color_of(winner)})"
    if scores[winner] == scores[loser]:
        return (
            f"{name} wins by the tie-break: both score {shown[winner]}, and seat {loser} "
            f"({state.color_of(loser)}) made the last move, which loses"
        )
    rule = "higher" if scores[winner] > scores[loser] else "lower"
    return f"{name} wins {shown[0]}-{shown[1]}: the {rule} score wins"


@dataclass
class Session:
    """One game: ``mode`` "agent" (the agent plays ``agent_seat`` with ``strength``
    iterations per move) or "humans" (two people at one screen)."""

    state: Any  # a native game state (GameState, plus copy and position)
    mode: str = "agent"
    agent_seat: int = 1
    strength: int = STRENGTHS["2"]
    seed: int = 0
    id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    #: Evaluations for seat 0 in [-1, 1], by the number of actions played (a ply).
    evaluations: dict[int, float] = field(default_factory=dict)
    #: How the last action came about, for the page ("agent played b2-b3", ...).
    note: str = ""
    #: Bumped at every change, so that a search started earlier does not apply its move
    #: to a position that has changed meanwhile.
    version: int = 0

    @classmethod
    def create(cls, request: dict[str, Any]) -> "Session":
        """A session from a page's request: ``game``, ``params``, optional ``position``
        or ``record``, ``mode``, ``agent_seat``, ``strength``, ``seed``."""
        if not isinstance(request, dict):
            raise SessionError("the request must be a JSON object")
        mode = request.get("mode", "agent")
        if mode not in ("agent", "humans"):
            raise SessionError(f"mode must be 'agent' or 'humans', got {mode!r}")
        agent_seat = request.get("agent_seat", 1)
        if agent_seat not in (0, 1) or isinstance(agent_seat, bool):
            raise SessionError(f"agent_seat must be 0 or 1, got {agent_seat!r}")
        strength = request.get("strength", STRENGTHS["2"])
        if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= MAX_ITERATIONS:
            raise SessionError(f"strength must be a number of iterations from 1 to {MAX_ITERATIONS}, got {strength!r}")
        seed = request.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise SessionError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
        if request.get("record") is not None:
            state = record.load(_check_text("record", request["record"]))
        else:
            state = new_state(request.get("game"), request.get("params") or {}, request.get("position"))
        return cls(state, mode, agent_seat, strength, seed)

    # --- what the page sees ---------------------------------------------------------------

    def agent_to_move(self) -> bool:
        return self.mode == "agent" and self.state.to_move == self.agent_seat

    def view(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data."""
        state = self.state
        moves = state.legal_moves()
        paths: dict[tuple[str, ...], list[str]] = {}
        buttons = []
        for move in moves:
            clicks = click_paths(state, move)
            if not clicks:
                buttons.append(move)
            for path in clicks:
                paths.setdefault(path, []).append(move)
        seat = state.to_move
        scores = state.scores()
        groups = [
            {"color": g.color, "size": g.size, "cells": list(g.cells), **({"price": g.price} if g.price is not None else {})}
            for g in state.groups()
        ]
        return {
            "id": self.id,
            "game": state.game,
            "params": state.params,
            "mode": self.mode,
            "agent_seat": self.agent_seat if self.mode == "agent" else None,
            "strength": self.strength,
            # Every cell of a legal move highlighted (the page shows only the next click's).
            "svg": str(svg.render(state, highlight=sorted({c for p in paths for c in p}), size=560)),
            "to_move": seat,
            "colors": [state.color_of(0), state.color_of(1)],
            "scores": [_number(s) for s in scores],
            "groups": groups,
            "paths": [{"clicks": list(p), "count": len(ms), **({"move": ms[0]} if len(ms) == 1 else {})} for p, ms in paths.items()],
            "buttons": buttons,
            "legal_count": len(moves),
            "forced_pass": moves == ["pass"],
            "swap_legal": "swap" in moves,
            "over": state.is_over,
            "winner": state.winner,
            "result": record.result_text(state),
            "reason": result_reason(state),
            "history": list(state.history),
            "position": state.position(),
            "agent_to_move": self.agent_to_move(),
            "evaluations": sorted(self.evaluations.items()),
            "note": self.note,
            "version": self.version,
        }

    def choices(self, clicks: Any) -> list[dict[str, Any]]:
        """The legal moves a completed click sequence selects, each with a label and
        what it would give: for Nume the number and the price of the stone's group
        after it (the engine plays it on a copy); for Migong the piece and its picture
        (the game's ``choice`` hook, ``territory.games``)."""
        if not isinstance(clicks, list) or not all(isinstance(c, str) for c in clicks) or len(clicks) > 4:
            raise SessionError("cells must be a list of at most 4 cell names")
        wanted = tuple(clicks)
        state = self.state
        found = [m for m in state.legal_moves() if wanted in click_paths(state, m)]
        if not found:
            raise SessionError(f"no legal move is played by clicking {' '.join(clicks) or 'nothing'}")
        describe = games.hook(state.game, "choice")
        result = []
        for move in found:
            entry: dict[str, Any] = {"move": move, "label": move}
            if describe is not None:
                describe(state, move, clicks, entry)
            result.append(entry)
        return result

    # --- changes --------------------------------------------------------------------------

    def play(self, move: Any) -> None:
        """Plays a move string; the engine's IllegalMoveError (state unchanged) passes
        through. Refused while it is the agent's turn."""
        _check_text("move", move)
        if self.agent_to_move():
            raise Conflict("it is the agent's turn")
        self.state.play(move)
        self.note = ""
        self._changed()

    def undo(self) -> None:
        """Takes back the last action; against the agent, back to a position where the
        person is to move (or the start)."""
        if not self.state.history:
            raise Conflict("nothing to undo")
        self.state.undo()
        while self.mode == "agent" and self.state.history and self.agent_to_move():
            self.state.undo()
        self.note = ""
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        ply = len(self.state.history)
        self.evaluations = {k: v for k, v in self.evaluations.items() if k <= ply}

    # --- searches (run in a worker thread on a copy of the state) ---------------------------

    def snapshot(self) -> tuple[Any, int]:
        """What a search works on: a copy of the state (searched in another thread while
        this one may change) and the version it was taken at."""
        if self.state.is_over:
            raise Conflict("the game is over")
        return self.state.copy(), self.version

    def agent(self, iterations: int) -> Uct:
        """The UCT agent for the current position, seeded by the session's seed and the ply
        (the same game always gets the same answers)."""
        seed = (self.seed * 1_000_003 + len(self.state.history)) % 2**64
        return Uct(iterations=iterations, seed=seed)

    def record_evaluation(self, ply: int, to_move: int, value: float) -> None:
        self.evaluations[ply] = value if to_move == 0 else -value

    def apply_agent_move(self, version: int, state: Any, move: str, value: float) -> None:
        """Plays the agent's choice if the game has not changed since the search began."""
        if version != self.version:
            raise Conflict("the position changed during the search")
        self.record_evaluation(len(state.history), state.to_move, value)
        forced = state.legal_moves() == ["pass"]
        self.state.play(move)
        self.note = f"agent played {move}" + (" (forced: no other move)" if forced else "")
        self._changed()


def analysis_view(state: Any, analysis: Any) -> dict[str, Any]:
    """A search's root statistics for the page: a table of moves and a heat map on the
    board (per cell: the share of visits of the moves touching it, written in per cent,
    and the value of the most visited of them)."""
    total = max(1, sum(analysis.visits))
    order = sorted(range(len(analysis.moves)), key=lambda i: -analysis.visits[i])
    per_cell: dict[str, list[float]] = {}
    for i in order:
        if not analysis.visits[i]:
            continue
        for cell in state.move_cells(analysis.moves[i]):
            entry = per_cell.setdefault(cell, [0.0, analysis.values[i]])
            entry[0] += analysis.visits[i]
    top = max([v[0] for v in per_cell.values()] + [1.0])
    heat = {cell: (visits / top, value, f"{100 * visits / total:.0f}%") for cell, (visits, value) in per_cell.items()}
    return {
        "value": analysis.value,
        "to_move": state.to_move,
        "best": analysis.best,
        "moves": [
            {"move": analysis.moves[i], "visits": analysis.visits[i], "share": analysis.visits[i] / total, "value": analysis.values[i]}
            for i in order[:12]
        ],
        "svg": str(svg.render(state, heat=heat, size=560)),
    }


def solve_view(state: Any, max_nodes: int = SOLVE_NODES, stop: Optional[Stop] = None) -> dict[str, Any]:
    """The exact solver's answer, or why there is none (too many positions)."""
    if state.is_over:
        return {"solved": False, "why": "the game is over"}
    try:
        solution = solve(state, max_nodes=max_nodes, stop=stop)
    except NodeLimitError:
        return {"solved": False, "why": f"too large to solve here (more than {max_nodes:,} positions)"}
    return {
        "solved": True,
        "value": solution.value,
        "to_move": state.to_move,
        "best_moves": solution.best_moves,
        "nodes": solution.nodes,
    }


def _number(value: Any) -> Any:
    value = float(value)
    return int(value) if value.is_integer() else value if math.isfinite(value) else None
