"""Board shapes for drawing: every cell's name and coordinates, in cell-index order.

Square boards use (column, row); hex boards use axial (q, r) with pointy-topped hexes,
north at the top (smaller r is further north). See docs/conventions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The six hex directions (E, NE, NW, W, SW, SE) in axial (dq, dr).
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class Cell:
    name: str
    x: int  # column (square) or q (hex)
    y: int  # row (square) or r (hex)


@dataclass(frozen=True)
class Board:
    kind: str  # "square" or "hex"
    cells: tuple[Cell, ...]

    def by_name(self) -> dict[str, Cell]:
        return {cell.name: cell for cell in self.cells}


def _name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def square(k: int) -> Board:
    return Board("square", tuple(Cell(_name(c, r), c, r) for r in range(k) for c in range(k)))


def nume_hex(n: int) -> Board:
    cells = [
        Cell(_name(q, r), q, r)
        for r in range(2 * n + 1)
        for q in range(2 * n + 1)
        if 0 <= 3 * n - 1 - q - r <= 2 * n
    ]
    return Board("hex", tuple(cells))


def migong() -> Board:
    cells = [
        Cell(_name(q + 6, r + 6), q, r)
        for r in range(-6, 7)
        for q in range(-6, 7)
        if max(abs(q), abs(r), abs(q + r)) <= 6 and (q, r) != (0, 0)
    ]
    return Board("hex", tuple(cells))


def board_of(game: str, params: dict[str, Any]) -> Board:
    """The board of a game with the given parameters."""
    if game == "tabik":
        return square(params["size"])
    if game == "nume":
        return square(params["square"]) if params.get("square") else nume_hex(params["n"])
    if game == "migong":
        return migong()
    raise ValueError(f"unknown game {game!r}")


#: Names of the six hex directions, in HEX_DIRECTIONS order.
HEX_DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")

#: The Migong central border cell (axial), drawn but not playable ("g7").
MIGONG_CENTER = (0, 0)
