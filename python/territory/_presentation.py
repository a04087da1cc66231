"""What native and reference states share for people: text diagrams, repr, records and
pictures, all computed from the public API (``game``, ``params``, ``board()``, ...).

``attach`` sets them on the native classes when the package is imported (the Rust
bindings import no Python module); the reference classes get them from the
``Presentation`` mixin. Both therefore print identically for equal positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from territory import games, geometry
from territory.types import GameState, Group

if TYPE_CHECKING:
    from territory.record import Seats
    from territory.svg import Highlight, SvgText

#: The letters of the stones in text diagrams.
STONE = {"black": "X", "white": "O"}


def status(state: GameState) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in state.params.items())
    head = f"{state.game.capitalize()}({params}), {len(state.history)} actions"
    seat = state.to_move
    if state.is_over or seat is None:
        from territory import record

        return f"{head}; over: {record.result_text(state)}"
    return f"{head}; seat {seat} ({state.color_of(seat)}) to move"


def state_repr(state: GameState) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in state.params.items())
    return f"<{type(state).__module__}.{type(state).__name__}({params}) history={state.history!r}>"


def diagram(state: GameState) -> str:
    """The status line and the game's own drawing of the board (its ``diagram`` hook,
    ``territory.games``); a game
    without one is shown by its position text (docs/positions.md)."""
    draw = games.hook(state.game, "diagram")
    body = state.position() if draw is None else draw(geometry.board_of(state), state.board())  # type: ignore[attr-defined]
    return f"{status(state)}\n{body}"


def square_grid(board: geometry.Board, tokens: dict[str, str], rods: list) -> str:
    k = max(cell.x for cell in board.cells) + 1
    width = max([1] + [len(t) for t in tokens.values()])
    pitch = width + 3
    rod_set = {tuple(r) for r in rods}
    names = {(cell.x, cell.y): cell.name for cell in board.cells}
    lines = []
    for r in reversed(range(k)):
        row = f"{r + 1:>2}  "
        for c in range(k):
            row += tokens.get(names[c, r], ".").ljust(width)
            if c + 1 < k:
                row += " | " if (names[c, r], names[c + 1, r]) in rod_set else "   "
        lines.append(row.rstrip())
        if r > 0:
            between = "    "
            for c in range(k):
                between += ("-" if (names[c, r - 1], names[c, r]) in rod_set else " ").ljust(pitch)
            lines.append(between.rstrip())
    lines = [line for line in lines if line.strip()]
    lines.append("    " + "".join(chr(ord("a") + c).ljust(pitch) for c in range(k)).rstrip())
    return "\n".join(lines)


def hex_grid(board: geometry.Board, tokens: dict[str, str]) -> str:
    width = max([1] + [len(t) for t in tokens.values()])
    half = (width + 2) // 2 + 1
    rows: dict[int, list[geometry.Cell]] = {}
    for cell in board.cells:
        rows.setdefault(cell.y, []).append(cell)
    left = min(2 * c.x + c.y for c in board.cells)
    lines = []
    for r, cells in sorted(rows.items()):
        chars: dict[int, str] = {}
        for cell in cells:
            start = (2 * cell.x + cell.y - left) * half
            for i, ch in enumerate(tokens.get(cell.name, ".")):
                chars[start + i] = ch
        line = "".join(chars.get(i, " ") for i in range(max(chars) + 1))
        lines.append(f"{r + 1:>2}  {line}".rstrip() + f"   ({cells[0].name}-{cells[-1].name})")
    return "\n".join(lines)


def to_record(state: GameState, seats: Seats | None = None, comment: str | None = None) -> str:
    from territory import record

    return record.dumps(state, seats=(None, None) if seats is None else seats, comment=comment)


def svg(state: GameState, size: float | None = None, coordinates: bool = True, highlight: Highlight = None,
        ownership: Any = None) -> SvgText:
    from territory import svg as svg_module

    return svg_module.render(state, size=size, coordinates=coordinates, highlight=highlight, ownership=ownership)


def png(state: GameState, path: Any = None, size: float | None = None, coordinates: bool = True,
        highlight: Highlight = None, ownership: Any = None) -> bytes:
    from territory import svg as svg_module

    data = svg_module.to_png(svg(state, size, coordinates, highlight, ownership))
    if path is not None:
        with open(path, "wb") as file:
            file.write(data)
    return data


class Presentation:
    """Mixin giving a pure-Python state the same diagram, repr, record and picture."""

    def __str__(self) -> str:
        return diagram(cast(GameState, self))

    def __repr__(self) -> str:
        return state_repr(cast(GameState, self))

    def to_record(self, *, seats: Seats | None = None, comment: str | None = None) -> str:
        """A self-describing text record (docs/records.md); ``territory.load`` reads it.
        ``seats``: the players' names, a pair (seat 0, seat 1) of str or None;
        ``comment``: text written as ``#`` lines at the top."""
        return to_record(cast(GameState, self), seats, comment)

    def svg(self, *, size: float | None = None, coordinates: bool = True, highlight: Highlight = None,
            ownership: Any = None) -> SvgText:
        """The position as SVG text; see ``territory.svg.render`` for the options
        (``ownership``: a per-cell map such as ``Puct.analyse(state).ownership``)."""
        return svg(cast(GameState, self), size, coordinates, highlight, ownership)

    def _repr_svg_(self) -> SvgText:
        return svg(cast(GameState, self))

    def png(self, path: Any = None, *, size: float | None = None, coordinates: bool = True,
            highlight: Highlight = None, ownership: Any = None) -> bytes:
        """The picture of ``svg()`` as PNG bytes, also written to ``path`` (a file name)
        when given. Needs the ``png`` extra (``pip install "territory-games[png]"``);
        without it, ImportError says so."""
        return png(cast(GameState, self), path, size, coordinates, highlight, ownership)

    @classmethod
    def default_params(cls) -> dict[str, Any]:
        """The parameters and their defaults, as a dict (the constructor's keywords)."""
        return dict(cls().params)  # type: ignore[attr-defined]


class _Native(Presentation):
    """What ``attach`` adds to a native class besides the presentation."""

    def groups(self) -> list[Group]:
        """The groups on the board, ordered by first member (the engine gives tuples)."""
        return [
            Group(color, size, tuple(cells), dict(extras))
            for color, size, cells, extras in self._groups()  # type: ignore[attr-defined]
        ]

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickling: a state is rebuilt from its record."""
        from territory.record import load

        return (load, (self.to_record(),))


def attach(cls: type) -> None:
    """Gives a native game class its text diagram, repr, record, picture, groups and
    pickling, from the Python side (as python-chess attaches ``chess.svg``): the Rust
    bindings import no Python module."""
    for name in ("__str__", "__repr__", "to_record", "svg", "_repr_svg_", "png", "groups", "__reduce__"):
        setattr(cls, name, getattr(_Native, name))
