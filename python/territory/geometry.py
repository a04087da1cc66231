"""Board shapes for drawing: every cell's name and coordinates, in cell-index order, as
each game reports them (``state.geometry()``, computed by the engine).

Square boards use (column, row); hex boards use axial (q, r) with pointy-topped hexes,
north at the top (smaller r is further north). Each game's
numbering is in docs/games/<game>.md ("Cells").
"""

from __future__ import annotations

from dataclasses import dataclass
from territory.types import GameState

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


def board_of(state: GameState) -> Board:
    """The board of a state, as the game itself describes it (``state.geometry()``)."""
    kind, cells = state.geometry()
    return Board(kind, tuple(Cell(name, x, y) for name, x, y in cells))


#: Names of the six hex directions, in HEX_DIRECTIONS order.
HEX_DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
