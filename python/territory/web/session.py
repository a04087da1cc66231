"""One game in the browser: the state, who plays which seat, and what the page is shown.

No web framework here (``app.py`` serves it): a ``Session`` holds a game state and answers
with plain dicts. Everything about the rules comes from the engine: the legal moves, the
cells each move touches (``state.move_cells``), scores, groups, winner, prices. What the
page gets per legal move is the sequence of board clicks that selects it (``paths``): the
page maps clicks to the move strings listed here and nothing else.
"""

from __future__ import annotations

import functools
import io
import math
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from territory import games, geometry, record, registry, svg
from territory.agents import NodeLimitError, Stop, Uct, solve, tuned_uct_c
from territory.types import GameState

if TYPE_CHECKING:
    from territory.puct import PuctAnalysis

#: Agent strengths offered by the page: name -> UCT iterations per move.
STRENGTHS = {"1": 100, "2": 1_000, "3": 10_000, "4": 100_000}
#: The learned model's strengths: name -> PUCT simulations per move.
MODEL_STRENGTHS = {"1": 100, "2": 1_000, "3": 5_000, "4": 20_000}
#: The agents a game can be played against: UCT, or PUCT with a shipped model that
#: plays the game's parameters.
AGENTS = ("uct", "puct")
#: What each agent's strength counts.
UNITS = {"uct": "iterations", "puct": "simulations"}
#: Largest number of UCT iterations an analysis may ask for.
MAX_ITERATIONS = 200_000
#: Largest number of PUCT simulations a move or an analysis may ask for (each expanded
#: node holds all its children: 20,000 of Nume n = 3 hold about 400 MB, 100,000 1.4 GB).
MAX_SIMULATIONS = 20_000
#: Positions the exact solver may visit before the page says "too large to solve".
SOLVE_NODES = 300_000
#: Moves of the solver's line of perfect play shown at most.
SOLVE_LINE = 16
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


@functools.lru_cache(maxsize=None)
def shipped_model(name: str) -> Any:
    """A shipped model (``territory.model``), loaded once."""
    from territory.model import Model

    return Model.load(name)


def model_for(state: Any) -> Optional[str]:
    """The name of a shipped model that plays ``state``'s game and parameters, if any."""
    from territory.model import shipped_models

    return next((name for name in shipped_models() if shipped_model(name).fits(state)), None)


def models_offered() -> str:
    """The games the shipped models play, in a player's words ("tabik size=6, ...")."""
    from territory.model import shipped_models

    def words(name: str) -> str:
        # The game and the parameters that differ from its defaults.
        meta = shipped_model(name).meta
        game = meta.get("game", name)
        defaults = registry.GAMES[game].default_params() if game in registry.GAMES else {}  # type: ignore[attr-defined]
        return " ".join([game] + [f"{k}={v}" for k, v in meta.get("params", {}).items() if defaults.get(k) != v])

    return "; ".join(words(n) for n in shipped_models()) or "none"


@dataclass
class Thinking:
    """The agent's search under way: its ``stop`` (abandon it: time limit, client gone),
    ``finish`` (move now, with what it has found), and what it has reported so far."""

    node: int
    of: int
    unit: str
    stop: Stop = field(default_factory=Stop)
    finish: Stop = field(default_factory=Stop)
    since: float = field(default_factory=time.monotonic)
    done: int = 0
    best: Optional[str] = None
    value: Optional[float] = None

    def progress(self, done: int, best: Optional[str], value: float) -> None:
        """The search's progress callback (on the search's thread)."""
        self.done, self.best, self.value = done, best, value

    def view(self) -> dict[str, Any]:
        return {
            "node": self.node, "seconds": round(time.monotonic() - self.since, 2), "done": self.done, "of": self.of,
            "unit": self.unit, "best": self.best, "value": self.value, "finishing": self.finish.is_set(),
        }


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


def result_reason(state: GameState, names: Optional[list[str]] = None) -> Optional[str]:
    """Who won and why, read off the engine's scores and winner, in a player's words: the
    winner's score first and the score rule ("Black (agent) wins 20-8: the higher score
    wins"), the tie-break, or a draw. ``names``: each seat's name (its colour by
    default)."""
    if not state.is_over:
        return None
    if names is None:
        names = [state.color_of(seat).capitalize() for seat in (0, 1)]
    scores = state.scores()
    shown = [record.format_score(s) for s in scores]
    winner = state.winner
    if winner is None:
        return f"a draw: equal scores {shown[0]}-{shown[1]}"
    loser = 1 - winner
    if scores[winner] == scores[loser]:
        return (
            f"{names[winner]} wins by the tie-break: both score {shown[winner]}, and "
            f"{names[loser]} made the last move, which loses"
        )
    rule = "higher" if scores[winner] > scores[loser] else "lower"
    return f"{names[winner]} wins {shown[winner]}-{shown[loser]}: the {rule} score wins"


def deciding_groups(state: GameState) -> list[dict[str, Any]]:
    """At the end of a game won on score, the groups the result turned on (the game's
    ``deciding_groups`` hook; by default the groups of the size the winner holds, its
    score, both colours'; none after a tie-break at 0)."""
    if not state.is_over or state.winner is None:
        return []
    custom = games.hook(state.game, "deciding_groups")
    if custom is not None:
        found = custom(state)
    else:
        size = state.scores()[state.winner]
        found = [g for g in state.groups() if size and g.size == size]
    return [{"color": g.color, "cells": list(g.cells)} for g in found]


@dataclass
class Node:
    """A position of the game tree: the move that led to it from its parent (None at the
    root), the seat that played it, the moves tried from it (the first is the main line)
    and its evaluation for seat 0 in [-1, 1] once a search gave one."""

    move: Optional[str]
    parent: Optional[int]
    seat: Optional[int]
    children: list[int] = field(default_factory=list)
    value: Optional[float] = None


@dataclass
class Session:
    """One game: ``mode`` "agent" (the agent plays ``agent_seat``: ``agent_kind`` "uct"
    with ``strength`` iterations per move, or "puct", the shipped model that plays the
    game, with ``strength`` simulations) or "humans" (two people at one screen).

    The game is a tree of positions (``nodes``, the root first), as Lichess and KaTrain
    keep: stepping back and forward moves ``current``; a different move from an earlier
    position starts a variation beside the main line, which stays. ``state`` is always
    the position of ``current``."""

    state: Any  # a native game state (GameState, plus copy and position)
    mode: str = "agent"
    agent_seat: int = 1
    strength: int = STRENGTHS["2"]
    seed: int = 0
    id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    agent_kind: str = "uct"
    nodes: list[Node] = field(default_factory=list)
    current: int = 0
    #: The position at the root of the tree (a record's start, a position string).
    root: Any = None
    #: The name the game is listed by (renamed by the player).
    name: str = ""
    #: The agent's search under way.
    thinking: Optional[Thinking] = None
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
        agent_kind = request.get("agent", "uct")
        if agent_kind not in AGENTS:
            raise SessionError(f"agent must be 'uct' or 'puct' (the learned model), got {agent_kind!r}")
        strength = request.get("strength", STRENGTHS["2"] if agent_kind == "uct" else MODEL_STRENGTHS["2"])
        most = MAX_ITERATIONS if agent_kind == "uct" else MAX_SIMULATIONS
        if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= most:
            raise SessionError(f"strength must be a number of {UNITS[agent_kind]} from 1 to {most:,}, got {strength!r}")
        seed = request.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise SessionError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
        if request.get("record") is not None:
            # Always as text (a one-line string would be a file name on this machine).
            state = record.load(io.StringIO(_check_text("record", request["record"])))
        else:
            state = new_state(request.get("game"), request.get("params") or {}, request.get("position"))
        session = cls(state, mode, agent_seat, strength, seed, agent_kind=agent_kind)
        if mode == "agent" and agent_kind == "puct" and session.model is None:
            here = " ".join([state.game] + [f"{k}={v}" for k, v in state.params.items()])
            raise SessionError(f"no learned model plays {here}: the shipped models play {models_offered()}; "
                               f"choose another game or the UCT agent")
        session.name = f"{state.game}, {time.strftime('%Y-%m-%d %H:%M')}"
        session._plant()
        return session

    def to_data(self) -> dict[str, Any]:
        """The whole game as JSON-ready data (kept in the database, ``store.py``)."""
        return {
            "id": self.id, "game": self.root.game, "params": self.root.params, "position": self.root.position(),
            "mode": self.mode, "agent_seat": self.agent_seat, "strength": self.strength, "seed": self.seed,
            "agent": self.agent_kind, "nodes": [[n.move, n.parent, n.seat, n.value] for n in self.nodes], "current": self.current,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Session":
        """A game kept by ``to_data``; SessionError if the data do not make one."""
        try:
            root = new_state(data["game"], data["params"], data["position"])
            session = cls(root.copy(), data["mode"], data["agent_seat"], data["strength"], data["seed"], data["id"],
                          data.get("agent", "uct"))
            session.root, session.name = root, data.get("name", "")
            session.nodes = [Node(move, parent, seat, [], value) for move, parent, seat, value in data["nodes"]]
            for i, node in enumerate(session.nodes[1:], 1):
                session.nodes[node.parent].children.append(i)  # type: ignore[index]  # a None raises TypeError: damaged
            session.goto(data["current"])
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise SessionError(f"the game kept as {data.get('id')!r} cannot be read back ({error})") from None
        session.version = 0
        return session

    def _plant(self) -> None:
        """The tree of the state's history: its moves become the main line."""
        moves = list(self.state.history)
        self.root = self.state.copy()
        while self.root.history:
            self.root.undo()
        replay = self.root.copy()
        self.nodes = [Node(None, None, None)]
        self.current = 0
        for move in moves:
            self._advance(replay, move)

    def _advance(self, state: Any, move: str) -> None:
        """Plays ``move`` on ``state`` (the current position) and moves ``current`` to the
        child it leads to, made if new. The engine's IllegalMoveError passes through
        with nothing changed."""
        seat = state.to_move
        state.play(move)
        node = self.nodes[self.current]
        for child in node.children:
            if self.nodes[child].move == move:
                self.current = child
                return
        self.nodes.append(Node(move, self.current, seat))
        node.children.append(len(self.nodes) - 1)
        self.current = len(self.nodes) - 1

    def path(self, node: Optional[int] = None) -> list[int]:
        """The nodes from the root to ``node`` (the current one by default)."""
        found = [self.current if node is None else node]
        while self.nodes[found[-1]].parent is not None:
            found.append(self.nodes[found[-1]].parent)  # type: ignore[arg-type]
        return found[::-1]

    def line(self) -> list[int]:
        """The line shown: the path to the current node, then on along the first moves
        tried from it (so that a step back can be stepped forward again)."""
        found = self.path()
        while self.nodes[found[-1]].children:
            found.append(self.nodes[found[-1]].children[0])
        return found

    @property
    def evaluations(self) -> dict[int, float]:
        """The evaluations along the line shown, for seat 0, by ply."""
        return {ply: self.nodes[n].value for ply, n in enumerate(self.line()) if self.nodes[n].value is not None}  # type: ignore[misc]

    # --- what the page sees ---------------------------------------------------------------

    @functools.cached_property
    def model(self) -> Optional[str]:
        """The shipped model that plays this game's parameters, if any (the agent
        "puct" plays with it; analyses may use it)."""
        return model_for(self.root if self.root is not None else self.state)

    def agent_label(self) -> str:
        """The agent as the page names it: "UCT, 1,000 iterations per move"."""
        if self.agent_kind == "puct":
            return f"learned model {self.model}, {self.strength:,} simulations per move"
        return f"UCT, {self.strength:,} iterations per move"

    def agent_to_move(self) -> bool:
        return self.mode == "agent" and self.state.to_move == self.agent_seat

    def names(self) -> list[str]:
        """Each seat as a player calls it: "Black (you)", "White (agent)", "Black (player 1)"."""
        def who(seat: int) -> str:
            if self.mode == "agent":
                return "agent" if seat == self.agent_seat else "you"
            return f"player {seat + 1}"

        return [f"{self.state.color_of(seat).capitalize()} ({who(seat)})" for seat in (0, 1)]

    def headline(self) -> Optional[str]:
        """"You win" / "You lose" against the agent once the game is over."""
        state = self.state
        if not state.is_over or self.mode != "agent":
            return None
        if state.winner is None:
            return "A draw"
        return "You lose" if state.winner == self.agent_seat else "You win"

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
        shown = games.hook(state.game, "WEB_GROUP_FIELDS", ())
        groups = [
            {"color": g.color, "size": g.size, "cells": list(g.cells), **{name: g.extras[name] for name in shown}}
            for g in state.groups()
        ]
        return {
            "id": self.id,
            "name": self.name,
            "game": state.game,
            "params": state.params,
            "mode": self.mode,
            "agent_seat": self.agent_seat if self.mode == "agent" else None,
            "strength": self.strength,
            "agent": self.agent_kind,
            "agent_label": self.agent_label() if self.mode == "agent" else None,
            "model": self.model,
            # Every cell of a legal move highlighted (the page shows only the next click's).
            "svg": str(svg.render(state, highlight=sorted({c for p in paths for c in p}), size=560)),
            "to_move": seat,
            "colors": [state.color_of(0), state.color_of(1)],
            "scores": [_number(s) for s in scores],
            "groups": groups,
            "paths": [{"clicks": list(p), "count": len(ms), **({"move": ms[0]} if len(ms) == 1 else {})} for p, ms in paths.items()],
            "buttons": buttons,
            "legal_count": len(moves),
            "forced_pass": [state.is_pass(m) for m in moves] == [True],
            "swap_legal": any(state.is_swap(m) for m in moves),
            "over": state.is_over,
            "winner": state.winner,
            "result": record.result_text(state),
            "reason": result_reason(state, self.names()),
            "headline": self.headline(),
            "names": self.names(),
            "deciding": deciding_groups(state),
            "history": list(state.history),
            "ply": len(state.history),
            "node": self.current,
            # The line shown in the move list: each move with the seat that played it and
            # the other moves tried from the same position (variations).
            "line": [
                {
                    "node": n, "move": self.nodes[n].move, "seat": self.nodes[n].seat,
                    "others": [
                        {"node": c, "move": self.nodes[c].move}
                        for c in self.nodes[self.nodes[n].parent].children if c != n  # type: ignore[index]
                    ],
                }
                for n in self.line()[1:]
            ],
            "position": state.position(),
            "agent_to_move": self.agent_to_move(),
            "evaluations": sorted(self.evaluations.items()),
            "note": self.note,
            "thinking": self.thinking.view() if self.thinking is not None else None,
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
        """Plays a move string from the current position (a new variation if it differs
        from the moves tried there); the engine's IllegalMoveError (nothing changed)
        passes through. Refused while it is the agent's turn."""
        _check_text("move", move)
        if self.agent_to_move():
            raise Conflict("it is the agent's turn")
        self._advance(self.state, move)
        self.note = ""
        self.version += 1

    def goto(self, node: Any) -> None:
        """Shows the position of a node of the tree (a step back or forward, a jump)."""
        if isinstance(node, bool) or not isinstance(node, int) or not 0 <= node < len(self.nodes):
            raise SessionError(f"no move number {node!r} in this game")
        state = self.root.copy()
        for n in self.path(node)[1:]:
            state.play(self.nodes[n].move)
        self.state, self.current = state, node
        self.note = ""
        self.version += 1

    def undo(self) -> None:
        """Steps back one action (the moves stay in the tree, to step forward again);
        against the agent, back to a position where the person is to move (or the start)."""
        if self.nodes[self.current].parent is None:
            raise Conflict("nothing to undo")
        self.goto(self.nodes[self.current].parent)
        while self.mode == "agent" and self.nodes[self.current].parent is not None and self.agent_to_move():
            self.goto(self.nodes[self.current].parent)

    # --- searches (run in a worker thread on a copy of the state) ---------------------------

    def snapshot(self) -> tuple[Any, int]:
        """What a search works on: a copy of the state (searched in another thread while
        this one may change) and the version it was taken at."""
        if self.state.is_over:
            raise Conflict("the game is over")
        return self.state.copy(), self.version

    def agent(self, iterations: int, state: Any = None, kind: Optional[str] = None) -> Any:
        """The agent for the current position (or ``state``): ``kind`` (the session's
        agent by default) "uct", a ``Uct``, or "puct", a ``Puct`` with the game's shipped
        model; seeded by the session's seed and the ply (the same game always gets the
        same answers)."""
        seed = (self.seed * 1_000_003 + len((state or self.state).history)) % 2**64
        if (kind or self.agent_kind) == "puct":
            if self.model is None:
                raise SessionError("no learned model plays this game's parameters")
            from territory.puct import Puct

            return Puct(shipped_model(self.model), iterations=iterations, seed=seed)
        return Uct(iterations=iterations, c=tuned_uct_c(state or self.state), seed=seed)

    def record_evaluation(self, node: int, to_move: int, value: float) -> None:
        self.nodes[node].value = value if to_move == 0 else -value

    def apply_agent_move(self, node: int, state: Any, move: str, value: float, how: Optional[str] = None) -> None:
        """Adds the agent's choice below the position it searched (``node``, whose state is
        ``state``) and shows it if that position is still the one shown: the player may
        have stepped elsewhere in the game meanwhile, and stays there."""
        self.record_evaluation(node, state.to_move, value)
        forced = [state.is_pass(m) for m in state.legal_moves()] == [True]
        if node == self.current:
            self._advance(self.state, move)
            self.note = f"agent played {move}" + (" (forced: no other move)" if forced else f" {how}" if how else "")
        else:
            shown, self.current = self.current, node
            self._advance(state.copy(), move)
            self.current = shown
        self.version += 1


@dataclass
class RootStats:
    """A search's root statistics, whichever agent searched: per legal move (legal-move
    order) its visits and mean value for the player to move (None where the agent gives
    none), the root's value, the move chosen, and what else the agent predicts
    (``ownership``: per cell, from -1 held by the other seat to +1 held by the player to
    move; ``margin``: the final score margin for the player to move; None if not given)."""

    moves: list[str]
    visits: list[int]
    values: list[Optional[float]]
    value: float
    best: str
    ownership: Optional[dict[str, float]] = None
    margin: Optional[float] = None


def search(agent: Any, state: Any, stop: Optional[Stop] = None, thinking: Optional[Thinking] = None) -> RootStats:
    """Searches ``state`` with ``agent`` (a ``Uct`` or a ``Puct``): abandoned with
    StoppedError once ``stop`` is set; with ``thinking``, its progress reported there and
    ended early by its ``finish`` (move now)."""
    watch: dict[str, Any] = {"stop": stop}
    if thinking is not None:
        watch = {"stop": thinking.stop, "finish": thinking.finish, "progress": thinking.progress}
    if isinstance(agent, Uct):
        a = agent.analyse(state, **watch)
        return RootStats(a.moves, a.visits, list(a.values), a.value, a.best)
    return puct_stats(state, agent.analyse(state, **watch))


def puct_stats(state: Any, found: PuctAnalysis) -> RootStats:
    """``RootStats`` of ``Puct.analyse``'s answer: the visits by action and the value,
    and its ``margin`` and ``ownership`` where the model predicts them. The move chosen
    is the most visited (ties: the first in legal-move order)."""
    visits, value = found
    moves = state.legal_moves()
    counts = [int(visits[state.move_to_action(m)]) for m in moves]
    best = moves[max(range(len(moves)), key=lambda i: (counts[i], -i))]
    ownership, margin = prediction(state, found.ownership, found.margin)
    return RootStats(moves, counts, [None] * len(moves), float(value), best, ownership, margin)


def prediction(state: Any, ownership: Any, margin: Any) -> tuple[Optional[dict[str, float]], Optional[float]]:
    """An agent's predicted ownership (a value per cell in the board's cell order, or
    a mapping by cell name; for the player to move) and margin, for the page: a value in
    [-1, 1] by cell name, and a finite number; None where not given."""
    if ownership is not None:
        if not isinstance(ownership, dict):
            names = [cell.name for cell in geometry.board_of(state).cells]
            ownership = dict(zip(names, (float(v) for v in ownership)))
        ownership = {str(k): max(-1.0, min(1.0, float(v))) for k, v in ownership.items() if math.isfinite(float(v))}
    if margin is not None:
        margin = float(margin) if math.isfinite(float(margin)) else None
    return ownership, margin


def analysis_view(state: Any, analysis: RootStats) -> dict[str, Any]:
    """A search's root statistics for the page: the most visited moves, each with its
    visits, share, value for the player to move (None if the agent gives none), the cells
    it touches (the page marks them on the board) and a short label (Nume: the number;
    Migong: the piece; the game's ``choice`` hook); the predicted ownership and margin
    where the agent gives them (else None: nothing drawn)."""
    total = max(1, sum(analysis.visits))
    order = sorted(range(len(analysis.moves)), key=lambda i: -analysis.visits[i])
    describe = games.hook(state.game, "choice")
    moves = []
    for i in order[:12]:
        move = analysis.moves[i]
        cells = list(state.move_cells(move))
        entry: dict[str, Any] = {"label": ""}
        if describe is not None and cells:
            describe(state, move, cells, entry)
        moves.append({
            "move": move, "visits": analysis.visits[i], "share": analysis.visits[i] / total,
            "value": analysis.values[i], "cells": cells, "label": entry["label"],
        })
    return {"value": analysis.value, "to_move": state.to_move, "best": analysis.best, "moves": moves,
            "ownership": analysis.ownership, "margin": analysis.margin}


def solve_view(state: Any, max_nodes: Optional[int] = None, stop: Optional[Stop] = None) -> dict[str, Any]:
    """The exact solver's answer, or why there is none (more than ``max_nodes``
    positions, ``SOLVE_NODES`` by default)."""
    if max_nodes is None:
        max_nodes = SOLVE_NODES
    if state.is_over:
        return {"solved": False, "why": "the game is over"}
    try:
        solution = solve(state, max_nodes=max_nodes, stop=stop)
    except NodeLimitError:
        return {"solved": False, "why": f"too large to solve here (more than {max_nodes:,} positions)"}
    # The line of perfect play: a best move, then the solver's best answer to it, ...
    line: list[str] = []
    after, step = state.copy(), solution
    while step.best_moves and len(line) < SOLVE_LINE:
        line.append(step.best_moves[0])
        after.play(step.best_moves[0])
        if after.is_over:
            break
        try:
            step = solve(after, max_nodes=max_nodes, stop=stop)
        except NodeLimitError:
            break
    return {
        "solved": True,
        "value": solution.value,
        "to_move": state.to_move,
        "best_moves": solution.best_moves,
        "line": line,
        "nodes": solution.nodes,
    }


def _number(value: Any) -> Any:
    value = float(value)
    return int(value) if value.is_integer() else value if math.isfinite(value) else None
