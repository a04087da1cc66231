"""Tabik on the Python side: its text diagram (stones and rods on a square grid), how a
stone swap is clicked on the web board, and its crosscheck vectors (see
``territory.games``), and the square's eight symmetries for training networks."""

from __future__ import annotations

from typing import Any

import numpy as np

from territory import geometry
from territory._presentation import STONE, square_grid


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


def symmetries(state: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """The eight symmetries of the k x k square as index arrays (see
    ``territory.games``): observation planes and feature planes are planes of squares
    (docs/observations.md, docs/learning.md), the rod planes hold the rod east and north
    of each square, the score features do not change, and a move's squares move with the
    board (``pass`` and ``swap`` stay)."""
    k = state.params["size"]
    area = k * k
    planes = state.observation_shape[0]
    features = len(state.features())
    feature_planes = (features - 2 * (area + 1)) // area
    squares = {name: (x, y) for name, x, y in state.geometry()[1]}
    names = {xy: name for name, xy in squares.items()}

    transforms = [lambda c, r: (c, r), lambda c, r: (k - 1 - r, c), lambda c, r: (k - 1 - c, k - 1 - r),
                  lambda c, r: (r, k - 1 - c), lambda c, r: (k - 1 - c, r), lambda c, r: (c, k - 1 - r),
                  lambda c, r: (r, c), lambda c, r: (k - 1 - r, k - 1 - c)]
    result = []
    for transform in transforms:
        source = np.arange(planes * area + features)
        for col, row in squares.values():
            c2, r2 = transform(col, row)
            for plane in [p for p in range(planes) if p not in (2, 3)]:
                source[plane * area + r2 * k + c2] = plane * area + row * k + col
            for plane in range(feature_planes):
                at = planes * area + plane * area
                source[at + r2 * k + c2] = at + row * k + col
            # The rods east and north of (col, row) go where the edge goes.
            for plane, (dc, dr) in ((2, (1, 0)), (3, (0, 1))):
                if col + dc < k and row + dr < k:
                    ends = sorted([transform(col, row), transform(col + dc, row + dr)], key=lambda s: (s[1], s[0]))
                    (c3, r3), (_, r4) = ends
                    to_plane = 2 if r3 == r4 else 3
                    source[to_plane * area + r3 * k + c3] = plane * area + row * k + col
        actions = np.arange(state.num_actions)
        for action in range(state.num_actions):
            move = state.action_to_move(action)
            if move in ("pass", "swap"):
                continue
            cells = state.move_cells(move)
            separator = move[len(cells[0])]  # '-' a placement, 'x' a stone swap
            moved = separator.join(names[transform(*squares[cell])] for cell in cells)
            actions[state.move_to_action(moved)] = action
        result.append((source, actions))
    return result
