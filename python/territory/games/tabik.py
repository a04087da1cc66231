"""Tabik on the Python side: its text diagram (stones and rods on a square grid), how a
stone swap is clicked on the web board, and its crosscheck vectors (see
``territory.games``). The square's eight symmetries for training networks are the
engine's (``state.symmetries()``)."""

from __future__ import annotations

from typing import Any

from territory import geometry
from territory._presentation import STONE, square_grid


#: UCT's exploration constant per board size, measured by the sweep in docs/strength.md.
TUNED_UCT_C = {8: 0.5, 6: 0.7}


def board_key(params: dict[str, Any]) -> int:
    return int(params["size"])


def diagram(board: geometry.Board, position: dict[str, Any]) -> str:
    return square_grid(board, {c: STONE[v] for c, v in position["stones"].items()}, position["rods"])


def click_paths(move: str, cells: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A stone swap (``b2xb3``, which play accepts in either order) is clicked either way
    round."""
    return [cells, cells[::-1]] if "x" in move else [cells]


#: Move sequences the rule tests work out by hand (tests/test_tabik_rules.py).
HAND_WORKED: list[tuple[str, dict[str, Any], list[str]]] = [
    ("3x3-game", {"size": 3, "pie": False},
     ["a1-a2", "b1-c1", "c2-b2", "a3-b3", "b1xb2", "a1xb1", "c1xc2", "a2xa3", "b2xb3", "a2xb2"]),
    ("2x2-forced-passes", {"size": 2, "pie": False}, ["a1-b1", "a2-b2", "pass", "pass"]),
    ("2x2-played-out", {"size": 2}, ["a1-b1", "b2-a2", "a1xa2", "b1xb2", "pass", "pass"]),
    ("2x2-pie-swap-game", {"size": 2}, ["a1-b1", "swap", "b2-a2", "a1xa2", "b1xb2", "pass", "pass"]),
]
