"""Playing a list of moves on a game state, for the tests that build positions by hand."""

from __future__ import annotations

from typing import Any, Iterable


def play_all(state: Any, moves: Iterable[str]) -> Any:
    """Plays ``moves`` in turn on ``state`` (native or reference) and returns it."""
    for move in moves:
        state.play(move)
    return state
