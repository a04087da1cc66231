"""Plain value types returned by every game (native engine and reference alike)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable


class Extras(Mapping[str, Any]):
    """A group's own fields by name (``Group.extras``), in the order the game gives them:
    an immutable, hashable mapping; equal to any mapping of the same items, whatever
    their order. Its repr is a dict's."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> None:
        self._items: dict[str, Any] = dict(items)

    def __getitem__(self, name: str) -> Any:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return repr(self._items)

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return (Extras, (self._items,))


@dataclass(frozen=True, init=False)
class Group:
    """A connected group on the board.

    ``cells`` are cell names in ascending cell-index order (docs/conventions.md, "Cells"
    and "Groups"). ``size`` is the size the rules count: the number of stones (Tabik,
    Nume) or the extent, i.e. the number of distinct pieces (Migong).

    ``extras`` holds the game's own fields of a group by name (an immutable mapping, part
    of equality, hash and repr), each also read as an attribute: ``g.wedges`` (Migong: the
    number of wedges), ``g.numbers`` (Nume: the numbers written on the group's stones, in
    cell order, a tuple) and ``g.price`` (Nume). A field the game does not have raises
    AttributeError naming the fields the group has; ``g.extras.get(name)`` is None for
    it. ``Group(color, size, cells, name=value, ...)`` (or ``extras={name: value}``)
    builds one.
    """

    color: str
    size: int
    cells: tuple[str, ...]
    extras: Extras

    def __init__(self, color: str, size: int, cells: tuple[str, ...],
                 extras: Mapping[str, Any] = Extras(), **more: Any) -> None:
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "extras", Extras({**extras, **more}))

    def __getattr__(self, name: str) -> Any:
        # Only for names that are not attributes: the extras (never a dunder, nor during
        # unpickling, before ``extras`` is set).
        extras = self.__dict__.get("extras")
        if extras is None or name.startswith("__"):
            raise AttributeError(name)
        try:
            return extras[name]
        except KeyError:
            fields = ", ".join(("color", "size", "cells", *extras))
            raise AttributeError(f"this group has no field {name!r}; its fields: {fields}") from None


@runtime_checkable
class GameState(Protocol):
    """What every game state offers, native and reference alike (docs/API.md): the
    type the package's pure-Python modules (records, pictures, playouts) work with."""

    game: ClassVar[str]

    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def history(self) -> list[str]: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def last_mover(self) -> int | None: ...
    @property
    def num_actions(self) -> int: ...

    def color_of(self, seat: int) -> str: ...
    def legal_moves(self) -> list[str]: ...
    def legal_actions(self) -> list[int]: ...
    def play(self, move: str) -> None: ...
    def apply_action(self, action: int) -> None: ...
    def scores(self) -> tuple[Any, Any]: ...
    def groups(self) -> list[Group]: ...
    def board(self) -> dict[str, Any]: ...
    def move_cells(self, move: str) -> list[str]: ...
    def is_pass(self, move: str) -> bool: ...
    def is_swap(self, move: str) -> bool: ...
    def geometry(self) -> tuple[str, list[tuple[str, int, int]]]: ...
    def undo(self) -> Any: ...
    def to_record(self, *, seats: Any = None, comment: str | None = None) -> str: ...
    def svg(self, *, size: float | None = None, coordinates: bool = True, highlight: Any = None,
            ownership: Any = None) -> Any: ...
    def png(self, path: Any = None, *, size: float | None = None, coordinates: bool = True, highlight: Any = None,
            ownership: Any = None) -> bytes: ...
