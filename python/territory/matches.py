"""A range of a match's games, played: the unit of work of ``play_match``, which
``distributed.run_sharded`` gives an executor (docs/scale-out.md). Below the agents:
this module imports neither ``agents`` nor ``distributed``, so a sharded match goes
down from ``agents.play_match`` through ``distributed`` to here and never back.

``match_shard(start, agents, ...)`` plays games ``first .. stop`` between two parsed
agents (objects, which pickle to the executor's workers): in the engine when both describe
themselves to it (``agent._spec()``: ``RandomAgent``, ``Uct``, ``Puct``), else in the
Python layer's one play-game loop (``play_agents``), asking each agent for its moves.
"""

from __future__ import annotations

import random
from typing import Any, Optional, Sequence

import numpy as np

from territory import _core
from territory._seeds import mix
from territory.errors import AgentError, IllegalMoveError
from territory.playouts import FIELDS

#: The per-game arrays of a match: those of random playouts, plus the winning agent
#: (0, 1, or -1 for a draw) and whether agent 0 sat in seat 1.
MATCH_FIELDS = FIELDS + ("agent_winner", "seats_swapped")


def native(agent: Any) -> bool:
    """Whether the engine plays ``agent`` by itself (``RandomAgent``, ``Uct``,
    ``territory.Puct``): it describes itself with ``_spec()``."""
    return callable(getattr(agent, "_spec", None))


def match_shard(
    start: Any, agents: Sequence[Any], seed: int, swap_seats: bool, threads: Optional[int], keep_actions: bool, first: int, stop: int
) -> dict[str, np.ndarray]:
    """Games ``first .. stop`` of a match from ``start`` between two parsed ``agents``, as
    per-game arrays (``MATCH_FIELDS``, and ``actions`` and ``offsets`` with
    ``keep_actions``). A pure function of its arguments."""
    if all(native(a) for a in agents):
        specs = (agents[0]._spec(), agents[1]._spec())
        return dict(_core.run_match(start, specs, seed, first, stop - first, swap_seats, threads, keep_actions))
    return _python_match(start, list(agents), seed, first, stop, swap_seats, keep_actions)


def random_choice(state: Any, u: float) -> str:
    """The legal move at ``floor(u * L)`` of the ``L`` legal moves."""
    moves = state.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return str(moves[int(u * len(moves))])


def _python_match(start: Any, agents: list[Any], seed: int, first: int, stop: int, swap_seats: bool, keep_actions: bool = False) -> dict[str, np.ndarray]:
    """The games of a match with a Python agent, one at a time in a Python loop."""
    rows = []
    played: list[int] = []
    offsets = [0]
    before = len(start.history)
    for index in range(first, stop):
        seat0 = 1 if swap_seats and index % 2 == 1 else 0
        state = play_agents(start, agents, index, seat0, random.Random(mix(seed, index)))
        moves = state.history[before:]
        length = len(moves)
        passes = sum(state.is_pass(m) for m in moves)
        swapped = any(state.is_swap(m) for m in moves)
        winner = -1 if state.winner is None else state.winner
        agent_winner = -1 if winner == -1 else int(winner != seat0)
        rows.append((winner, length, passes, swapped, state.scores(), agent_winner, seat0 == 1))
        if keep_actions:
            played.extend(state.move_to_action(m) for m in moves)
            offsets.append(len(played))
    columns = list(zip(*rows)) if rows else [()] * 7
    extra: dict[str, np.ndarray] = {}
    if keep_actions:
        extra = {"actions": np.array(played, dtype=np.uint32), "offsets": np.array(offsets, dtype=np.uint64)}
    return {
        **extra,
        "winner": np.array(columns[0], dtype=np.int8),
        "length": np.array(columns[1], dtype=np.uint32),
        "passes": np.array(columns[2], dtype=np.uint32),
        "swapped": np.array(columns[3], dtype=bool),
        "scores": np.array(columns[4], dtype=np.float64).reshape(len(rows), 2),
        "agent_winner": np.array(columns[5], dtype=np.int8),
        "seats_swapped": np.array(columns[6], dtype=bool),
    }


def play_agents(start: Any, agents: Sequence[Any], index: int, seat0: int = 0, rng: Optional[random.Random] = None) -> Any:
    """The Python layer's one play-game loop (for agents that are Python objects; native
    pairs play in the engine, ``arena::play_game``): from a copy of ``start`` to the end,
    agent 0 playing seat ``seat0`` and agent 1 the other; returns the finished state.
    With ``rng`` (a match's game generator) an agent whose class defines
    ``_match_move(state, rng)`` (``RandomAgent``, ``Uct``; not their subclasses) draws its
    move or search seed from it, as in a match; without, every agent's ``choose`` is
    asked.
    A failing agent raises ``AgentError`` naming it, the game ``index`` and the
    position."""
    state = start.copy()
    while not state.is_over:
        k = 0 if state.to_move == seat0 else 1
        _agent_move(agents[k], k, state, rng, index)
    return state


def _agent_move(agent: Any, k: int, state: Any, rng: Optional[random.Random], index: int) -> str:
    """Asks agent ``k`` for its move in ``state`` and plays it; any failure is an
    AgentError naming the agent, the game and the position."""

    def where() -> str:
        moves = " ".join(state.history) or "(none)"
        return f"in game {index} after the moves: {moves}"

    if rng is not None and "_match_move" in type(agent).__dict__:
        move = agent._match_move(state, rng)
    else:
        try:
            move = agent.choose(state.copy())
        except Exception as error:
            raise AgentError(f"agent {k} ({agent!r}) raised {type(error).__name__}: {error} {where()}") from error
        if not isinstance(move, str):
            raise AgentError(f"agent {k} ({agent!r}) returned {move!r}, not a move string, {where()}")
    try:
        state.play(move)
    except IllegalMoveError as error:
        raise AgentError(f"agent {k} ({agent!r}) chose the illegal move {move!r} {where()}: {error}") from error
    return move


