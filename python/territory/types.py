"""Plain value types returned by every game (native engine and reference alike)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    """A connected group on the board.

    ``cells`` are cell names in ascending cell-index order (docs/conventions.md, "Cells"
    and "Groups").
    ``size`` is the number of stones (Tabik, Nume) or the extent, i.e. the number of
    distinct pieces (Migong). ``wedges`` is set for Migong only; ``numbers`` (the numbers
    written on the group's stones, in cell order) and ``price`` for Nume only.
    """

    color: str
    size: int
    cells: tuple[str, ...]
    wedges: int | None = None
    numbers: tuple[int, ...] | None = None
    price: int | None = None
