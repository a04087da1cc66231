"""SVG pictures of positions, for people (Jupyter shows them through ``_repr_svg_``).

``render(state)`` is a pure function of the public state API (``game``, ``params``,
``board()``, ``history``, ``legal_moves()``), so the native and the reference classes draw
identical pictures for equal positions. It uses only the standard library.

Pictures
    Tabik
        k x k squares, row 1 at the bottom and column a at the left; stones are circles;
        rods are thick bars on the edge segments between two squares.
    Nume
        hex board: pointy-topped hexes, axial (q, r), north at the top (smaller r is
        further north); square board (``square=k``): a Go-like grid whose intersections are
        the cells. Stones are circles showing their written number, if any.
    Migong
        126 pointy-topped hexes and the central border cell g7 (a solid hex in
        ``CENTER``). A placed piece is six triangles: wedge i touches the edge facing
        direction i (E, NE, NW, W, SW, SE; north at the top). The 84 border edges are
        thick bars in their colours, drawn just outside the cells they touch (inside the
        central hex for the six edges around it).

The last move (the last placement or stone swap in ``history``; passes, pie swaps and
Nume's komi-phase moves are skipped) is marked on each of its cells: a dot (Tabik, Migong)
or a ring around the stone (Nume, so that the number stays readable). A highlight is a
translucent fill with an outline, drawn under stones; on Migong pieces only the outline,
so that the wedge colours stay true.

A heat map (``heat={cell: (weight, value)}``, e.g. a search's visits and values) covers
each cell named with a translucent colour: the weight (0..1) sets how opaque, the value
(-1..1, for the player to move) the hue, from red (-1) through grey (0) to green (+1). An
entry ``(weight, value, text)`` also writes the text on the cell (e.g. a share of visits).
An ownership map (``ownership=``, e.g. ``Puct.analyse(state).ownership``: one value in
[-1, 1] per cell in the board's cell order, or ``{cell: value}``) puts a translucent
square (a hexagon on hex boards) in the middle of each cell, in the colour of its
predicted owner: +1 the colour the player to move plays (seat 0's once the game is
over, as ``state.ownership()`` counts it), -1 the other colour, opacity by strength;
cells near 0 get none. ``territory.games.migong.piece(pattern)`` draws one Migong piece
on its own (a palette swatch).

Coordinates (``coordinates=True``) are the letters and numbers of the cell names: on
square boards letters below and numbers on the left; on hex boards each row's number at
the row's west end and each letter at the south-east end of its line of constant q
(a line of constant q runs from north-west to south-east).

Structure, for tests and styling (class names on the elements):
    ``cell``       one element per board cell, with ``data-cell="<name>"``
    ``stone``      one circle per stone (``data-cell``, ``data-color``)
    ``number``     the number written on a Nume stone (``data-cell``)
    ``rod``        one element per Tabik rod (``data-cells="b2 b3"``)
    ``wedge``      one triangle per wedge of a placed Migong piece, six per piece
                   (``data-cell``, ``data-wedge`` = 0..5, ``data-color`` = B or Y)
    ``border``     one element per Migong border edge, 84 (``data-cell``,
                   ``data-direction`` = 0..5, ``data-color`` = B or Y)
    ``center``     the Migong central border cell (not a ``cell``)
    ``grid``       the lines of the board (one path)
    ``highlight``  one element per highlighted cell (``data-cell``)
    ``heat``       one element per cell of a heat map (``data-cell``, ``data-weight``,
                   ``data-value``), drawn over the stones, translucent
    ``heat-text``  the text of a heat-map cell, if given (``data-cell``)
    ``ownership``  one element per cell of an ownership map that is not near 0
                   (``data-cell``, ``data-value``, ``data-color``: the owner's colour)
    ``last-move``  one marker per cell of the last move (``data-cell``)
    ``label``      one text per coordinate label
The elements are grouped in layers ``<g class="layer-...">`` (cells, center, wedges,
borders, grid, highlights, stones, rods, ownership, heat, marks, labels; drawn in that order). The root
``<svg>`` has ``class="territory"`` and ``data-game``; ``<title>`` states the position in
words.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Mapping, Tuple, Union
from xml.sax.saxutils import escape, quoteattr

from territory import games, geometry
from territory.types import GameState, Group

#: What ``highlight=`` takes: None, a cell name, "legal", cell names, or a Group.
Highlight = Union[None, str, Iterable[str], Group]

# --- colours ------------------------------------------------------------------------------

#: Migong blue: blue wedges and blue border edges.
BLUE = "#2b6cb0"
#: Migong yellow: yellow wedges and yellow border edges.
YELLOW = "#ecc94b"
#: Black stones (Tabik, Nume) and the numbers written on white stones.
BLACK = "#1a1a1a"
#: White stones (Tabik, Nume) and the numbers written on black stones.
WHITE = "#f7f7f2"
#: Outline of the stones.
STONE_EDGE = "#1a1a1a"
#: Tabik rods.
ROD = "#c53030"
#: Highlighted cells (``highlight=...``): a translucent fill and an outline.
HIGHLIGHT = "#38a169"
#: The marker on the cell(s) of the last move.
LAST_MOVE = "#dd3399"
#: Outline of the last-move marker, so that it shows on every colour.
LAST_MOVE_EDGE = "#ffffff"
#: Heat-map colours for values -1, 0 and +1 (in between: mixed linearly).
HEAT = ("#e53e3e", "#8e9aaf", "#2f9e44")
#: Ownership map: the opacity of a cell predicted certain (|value| 1), and the least
#: |value| drawn.
OWNERSHIP_OPACITY = 0.75
OWNERSHIP_MIN = 0.05
#: Text on heat-map cells (kept apart from the numbers written on Nume stones).
HEAT_TEXT = "#1a365d"
#: Tabik and Nume board (empty cells).
BOARD = "#e9cf95"
#: Migong empty cells.
EMPTY = "#f4ecdc"
#: Migong central border cell.
CENTER = "#5c4a3a"
#: Lines of the board.
GRID = "#6e5a44"
#: Coordinate labels.
LABEL = "#555555"
#: Background of the whole picture.
BACKGROUND = "#ffffff"

_STONE_COLORS = {"black": BLACK, "white": WHITE}

#: Default picture width in pixels.
DEFAULT_SIZE = 480

_SQ = 40.0  # side of a square cell, in user units
_R = 22.0  # circumradius of a hex cell, in user units
_POINT_MARGIN = 0.2 * _SQ  # extra board around Nume's square grid of intersections
_SQRT3 = math.sqrt(3.0)
_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


class SvgText(str):
    """An SVG document (a ``str``); notebooks display it through ``_repr_svg_``."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


# --- public entry point -------------------------------------------------------------------


#: What ``heat=`` takes: cell name -> (weight 0..1, value -1..1).
Heat = Mapping[str, Union[Tuple[float, float], Tuple[float, float, str]]]


def render(
    state: GameState, *, size: float | None = None, coordinates: bool = True, highlight: Highlight = None,
    heat: Heat | None = None, ownership: Any = None,
) -> SvgText:
    """An SVG picture of ``state``.

    ``size``: width in pixels (default 480); the picture scales through its viewBox.
    ``coordinates``: draw the cell names' letters and numbers along the edges.
    ``highlight``: None, a cell name, a list of cell names, ``"legal"`` (every cell named in
    a legal move) or a ``territory.types.Group`` (its cells).
    ``heat``: a heat map, ``{cell name: (weight, value)}`` with weight in [0, 1] and value
    in [-1, 1], or ``(weight, value, text)`` to write a text on the cell (see the module's
    docstring).
    ``ownership``: an ownership map, one value in [-1, 1] per cell (cell order, as
    ``Puct.analyse(state).ownership`` gives) or ``{cell name: value}``: +1 the colour
    the player to move plays, -1 the other's (see the module's docstring).
    The cell(s) of the last placement or stone swap in ``state.history`` get a marker.
    """
    if size is None:
        size = DEFAULT_SIZE
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < math.inf:
        raise ValueError(f"size must be a positive number of pixels or None, got {size!r}")
    if not isinstance(coordinates, bool):
        raise ValueError(f"coordinates must be a bool, got {coordinates!r}")
    game = state.game
    board = geometry.board_of(state)
    names = board.by_name()
    marked = _highlight_cells(state, highlight, names)
    last = _last_move_cells(state)
    drawing = _Drawing()
    owners = None if ownership is None else _ownership_values(board, ownership)
    if heat:
        _heat_map(drawing, board, heat)
    draw = games.hook(game, "draw", draw_stones)  # the game's own picture (territory.games)
    draw(drawing, state, board, marked, last)
    if owners is not None:
        _ownership_map(drawing, state, board, owners)
    if coordinates:
        if board.kind == "hex":
            _hex_labels(drawing, board)
        else:
            _square_labels(drawing, board, _POINT_MARGIN if _on_points(game) else 0.0)
    return SvgText(drawing.document(game, _title(state), float(size)))


def _heat_color(value: float) -> str:
    """The heat-map colour of a value in [-1, 1] (mixing HEAT linearly)."""
    value = min(1.0, max(-1.0, value))
    low, high = (HEAT[0], HEAT[1]) if value < 0 else (HEAT[1], HEAT[2])
    t = value + 1 if value < 0 else value
    mixed = [round(int(low[i:i + 2], 16) * (1 - t) + int(high[i:i + 2], 16) * t) for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _heat_map(d: _Drawing, board: geometry.Board, heat: Heat) -> None:
    names = board.by_name()
    hexes = board.kind == "hex"
    k = max(cell.x for cell in board.cells) + 1
    for name, entry in heat.items():
        if name not in names:
            raise ValueError(f"heat: {name!r} is not a cell of this board")
        text = entry[2] if isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[2], str) else None
        try:
            weight, value = (float(v) for v in (entry[:2] if text is not None else entry))
        except (TypeError, ValueError):
            raise ValueError(f"heat: {name!r} needs (weight, value) or (weight, value, text), got {entry!r}") from None
        if not (0 <= weight <= 1 and -1 <= value <= 1):
            raise ValueError(f"heat: {name!r} needs weight in [0, 1] and value in [-1, 1], got {entry!r}")
        cell = names[name]
        attrs = {
            "class": "heat", "data-cell": name, "data-weight": f"{weight:.3f}", "data-value": f"{value:.3f}",
            "fill": _heat_color(value), "fill-opacity": f"{0.2 + 0.5 * weight:.3f}",
        }
        if hexes:
            x, y = _hex_center(cell.x, cell.y)
            d.add("heat", "polygon", {"points": _points(_hexagon(x, y, scale=0.95)), **attrs})
            font = _R * 0.55
        else:
            x, y = _square_center(cell, k)
            d.add("heat", "rect", {"x": x - _SQ * 0.47, "y": y - _SQ * 0.47, "width": _SQ * 0.94, "height": _SQ * 0.94, **attrs})
            font = _SQ * 0.24
        if text:
            d.add(
                "heat", "text",
                {
                    "class": "heat-text", "data-cell": name, "x": x, "y": y + font * 0.36, "font-family": _FONT,
                    "font-size": font, "font-style": "italic", "text-anchor": "middle", "fill": HEAT_TEXT,
                    "stroke": WHITE, "stroke-width": font * 0.2, "paint-order": "stroke",
                },
                text,
            )


def _ownership_values(board: geometry.Board, ownership: Any) -> dict[str, float]:
    """``ownership`` (per cell in order, or by name) as {cell name: value}, checked."""
    names = board.by_name()
    if isinstance(ownership, Mapping):
        items = list(ownership.items())
        for name, _ in items:
            if name not in names:
                raise ValueError(f"ownership: {name!r} is not a cell of this board")
    else:
        try:
            values = [float(v) for v in ownership]
        except (TypeError, ValueError):
            raise ValueError("ownership must be one number per cell (in the board's cell order) or "
                             f"{{cell name: number}}, got {type(ownership).__name__}") from None
        if len(values) != len(board.cells):
            raise ValueError(f"ownership has {len(values)} values; this board has {len(board.cells)} cells")
        items = list(zip((cell.name for cell in board.cells), values))
    out = {}
    for name, value in items:
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = math.nan
        if not -1 <= number <= 1:
            raise ValueError(f"ownership: {name!r} needs a value in [-1, 1], got {value!r}")
        out[name] = number
    return out


def _ownership_map(d: _Drawing, state: GameState, board: geometry.Board, owners: dict[str, float]) -> None:
    viewer = 0 if state.is_over or state.to_move is None else state.to_move
    colors = (state.color_of(viewer), state.color_of(1 - viewer))
    fills = {"black": BLACK, "white": WHITE, "blue": BLUE, "yellow": YELLOW}
    names = board.by_name()
    k = max(cell.x for cell in board.cells) + 1
    for name, value in owners.items():
        if abs(value) < OWNERSHIP_MIN:
            continue
        color, other = colors if value > 0 else colors[::-1]
        # Outlined in the other colour, so that a square shows on a stone of its own colour.
        attrs = {
            "class": "ownership", "data-cell": name, "data-value": f"{value:.3f}", "data-color": color,
            "fill": fills.get(color.lower(), GRID), "fill-opacity": f"{OWNERSHIP_OPACITY * abs(value):.3f}",
            "stroke": fills.get(other.lower(), GRID), "stroke-width": 1.2,
            "stroke-opacity": f"{min(1.0, 0.3 + abs(value)):.3f}",
        }
        cell = names[name]
        if board.kind == "hex":
            x, y = _hex_center(cell.x, cell.y)
            d.add("ownership", "polygon", {"points": _points(_hexagon(x, y, scale=0.45)), **attrs})
        else:
            x, y = _square_center(cell, k)
            d.add("ownership", "rect", {"x": x - _SQ * 0.22, "y": y - _SQ * 0.22, "width": _SQ * 0.44,
                                        "height": _SQ * 0.44, **attrs})


#: How to get the optional PNG rasteriser.
PNG_EXTRA = 'pip install "territory-games[png]" (or pip install resvg-py)'


def rasteriser() -> Any:
    """The ``resvg_py`` module (the optional ``png`` extra: resvg, a self-contained wheel
    with no system libraries), or ImportError saying what to install."""
    try:
        import resvg_py  # type: ignore[import-not-found, unused-ignore]
    except ImportError as error:
        raise ImportError(f"PNG pictures need resvg-py: {PNG_EXTRA}") from error
    return resvg_py


def to_png(svg_text: str) -> bytes:
    """The PNG image of an SVG document, on a white background, rasterised by resvg."""
    return bytes(rasteriser().svg_to_bytes(svg_string=str(svg_text), background="white"))


# --- what to mark -------------------------------------------------------------------------


def _last_move_cells(state: GameState) -> list[str]:
    """The cells of the last move in the history that touches any (the engine says which)."""
    for move in reversed(state.history):
        cells = state.move_cells(move)
        if cells:
            return cells
    return []


def _highlight_cells(state: GameState, highlight: Any, names: dict[str, geometry.Cell]) -> list[str]:
    """The highlighted cell names, in cell-index order, without repeats."""
    if highlight is None:
        return []
    if isinstance(highlight, str):
        if highlight == "legal":
            wanted = [c for move in state.legal_moves() for c in state.move_cells(move)]
        else:
            wanted = [highlight]
    elif isinstance(highlight, Group) or hasattr(highlight, "cells"):
        wanted = list(highlight.cells)
    elif isinstance(highlight, Iterable):
        wanted = list(highlight)
    else:
        raise ValueError(
            "highlight must be None, a cell name, a list of cell names, 'legal' or a Group, "
            f"got {highlight!r}"
        )
    for name in wanted:
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"highlight: {name!r} is not a cell of this {state.game} board")
    chosen = set(wanted)
    return [cell.name for cell in names.values() if cell.name in chosen]


def _title(state: GameState) -> str:
    """The position in words, for the picture's <title> (a tooltip in browsers)."""
    params = ", ".join(f"{key}={value!r}" for key, value in state.params.items())
    text = f"{state.game.capitalize()}({params}), {len(state.history)} actions"
    moves = [m for m in state.history if m != "pass"]
    if moves:
        text += f", last {moves[-1]}"
    seat = state.to_move
    if state.is_over or seat is None:
        scores = "-".join(str(int(v)) if float(v).is_integer() else str(v) for v in state.scores())
        winner = state.winner
        result = "draw" if winner is None else f"seat {winner} ({state.color_of(winner)}) wins"
        return f"{text}; over: {result} {scores}"
    return f"{text}; seat {seat} ({state.color_of(seat)}) to move"


# --- SVG assembly -------------------------------------------------------------------------


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _element(tag: str, attrs: dict[str, Any], text: str | None = None) -> str:
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = _num(value)
        parts.append(f"{key}={quoteattr(str(value))}")
    head = " ".join(parts)
    if text is None:
        return f"<{head}/>"
    return f"<{head}>{escape(text)}</{tag}>"


_LAYERS = ("cells", "center", "wedges", "borders", "grid", "highlights", "stones", "rods", "ownership", "heat", "marks",
           "labels")


class _Drawing:
    """Elements by layer (drawn in _LAYERS order) and the bounding box of what is drawn."""

    def __init__(self) -> None:
        self.layers: dict[str, list[str]] = {layer: [] for layer in _LAYERS}
        self.box = [math.inf, math.inf, -math.inf, -math.inf]

    def add(self, layer: str, tag: str, attrs: dict[str, Any], text: str | None = None) -> None:
        self.layers[layer].append(_element(tag, attrs, text))

    def cover(self, points: Iterable[tuple[float, float]], pad: float = 0.0) -> None:
        for x, y in points:
            self.box[0] = min(self.box[0], x - pad)
            self.box[1] = min(self.box[1], y - pad)
            self.box[2] = max(self.box[2], x + pad)
            self.box[3] = max(self.box[3], y + pad)

    def document(self, game: str, title: str, width: float) -> str:
        margin = 6.0
        x0, y0 = self.box[0] - margin, self.box[1] - margin
        w, h = self.box[2] - self.box[0] + 2 * margin, self.box[3] - self.box[1] + 2 * margin
        root = _element(
            "svg",
            {
                "xmlns": "http://www.w3.org/2000/svg",
                "class": "territory",
                "data-game": game,
                "width": _num(width),
                "height": _num(width * h / w),
                "viewBox": f"{_num(x0)} {_num(y0)} {_num(w)} {_num(h)}",
            },
        )[:-2]
        lines = [root + ">", _element("title", {}, title)]
        lines.append(_element("rect", {"class": "background", "x": x0, "y": y0, "width": w, "height": h, "fill": BACKGROUND}))
        for layer in _LAYERS:
            if self.layers[layer]:
                lines.append(f'<g class="layer-{layer}">')
                lines.extend(self.layers[layer])
                lines.append("</g>")
        lines.append("</svg>")
        return "\n".join(lines) + "\n"


# --- shared pieces ------------------------------------------------------------------------


def _stone(d: _Drawing, name: str, color: str, x: float, y: float, radius: float) -> None:
    d.add(
        "stones",
        "circle",
        {
            "class": "stone",
            "data-cell": name,
            "data-color": color,
            "cx": x,
            "cy": y,
            "r": radius,
            "fill": _STONE_COLORS[color],
            "stroke": STONE_EDGE,
            "stroke-width": radius * 0.08,
        },
    )


def _number(d: _Drawing, name: str, color: str, number: int, x: float, y: float, radius: float) -> None:
    text = str(number)
    font = min(radius * 1.05, radius * 1.75 / (0.6 * len(text)))
    d.add(
        "stones",
        "text",
        {
            "class": "number",
            "data-cell": name,
            "x": x,
            "y": y + font * 0.36,
            "font-family": _FONT,
            "font-size": font,
            "font-weight": "bold",
            "text-anchor": "middle",
            "fill": WHITE if color == "black" else BLACK,
        },
        text,
    )


def _last_mark(d: _Drawing, name: str, x: float, y: float, radius: float) -> None:
    """A dot on the last move's cell."""
    _last_move_circle(d, name, x, y, radius, fill=LAST_MOVE, stroke=LAST_MOVE_EDGE, width=radius * 0.3)


def _last_ring(d: _Drawing, name: str, x: float, y: float, radius: float) -> None:
    """The last-move marker around a Nume stone, which keeps its number readable."""
    _last_move_circle(d, name, x, y, radius, fill="none", stroke=LAST_MOVE, width=radius * 0.12)


def _last_move_circle(d: _Drawing, name: str, x: float, y: float, radius: float, *, fill: str, stroke: str, width: float) -> None:
    attrs = {"class": "last-move", "data-cell": name, "cx": x, "cy": y, "r": radius}
    d.add("marks", "circle", {**attrs, "fill": fill, "stroke": stroke, "stroke-width": width})


def _highlight_attrs(name: str, width: float) -> dict[str, Any]:
    return {
        "class": "highlight",
        "data-cell": name,
        "fill": HIGHLIGHT,
        "fill-opacity": "0.35",
        "stroke": HIGHLIGHT,
        "stroke-width": width,
        "stroke-linejoin": "round",
    }


def _label(d: _Drawing, text: str, x: float, y: float, font: float) -> None:
    d.add(
        "labels",
        "text",
        {
            "class": "label",
            "x": x,
            "y": y + font * 0.36,
            "font-family": _FONT,
            "font-size": font,
            "text-anchor": "middle",
            "fill": LABEL,
        },
        text,
    )
    half = 0.3 * font * len(text)
    d.cover([(x - half, y - font * 0.5), (x + half, y + font * 0.5)])


# --- stones on cells: the default picture ----------------------------------------------


def draw_stones(d: _Drawing, state: GameState, board: geometry.Board, marked: list[str], last: list[str]) -> None:
    """The picture of a game without a ``draw`` hook (``territory.games``): the board's
    cells, highlights, the stones of ``state.board()["stones"]`` (a colour, or a colour
    and a number), rods if any, and the last-move marks."""
    if board.kind == "hex":
        _draw_hex_stones(d, state, board, marked, last)
    else:
        _draw_square(d, state, board, marked, last)


def _on_points(game: str) -> bool:
    """Whether the game's stones stand on the intersections of a square board."""
    return bool(games.hook(game, "ON_POINTS", False))


# --- square boards ----------------------------------------------------------------------


def _square_center(cell: geometry.Cell, k: int) -> tuple[float, float]:
    return ((cell.x + 0.5) * _SQ, (k - 1 - cell.y + 0.5) * _SQ)


def _draw_square(d: _Drawing, state: GameState, board: geometry.Board, marked: list[str], last: list[str]) -> None:
    k = max(cell.x for cell in board.cells) + 1
    names = board.by_name()
    position = state.board()
    points = _on_points(state.game)  # e.g. Nume's square variant is played on intersections
    if points:  # one board under the cells, so that no seams show between them
        m = _POINT_MARGIN
        d.add("cells", "rect", {"class": "board", "x": -m, "y": -m, "width": k * _SQ + 2 * m, "height": k * _SQ + 2 * m, "fill": BOARD})
        d.cover([(-m, -m), (k * _SQ + m, k * _SQ + m)])
    for cell in board.cells:
        x, y = _square_center(cell, k)
        d.add(
            "cells",
            "rect",
            {
                "class": "cell",
                "data-cell": cell.name,
                "x": x - _SQ / 2,
                "y": y - _SQ / 2,
                "width": _SQ,
                "height": _SQ,
                "fill": BOARD,
                "stroke": None if points else GRID,
                "stroke-width": None if points else 1.0,
            },
        )
    d.cover([(0.0, 0.0), (k * _SQ, k * _SQ)])
    if points:
        lo, hi = _SQ / 2, (k - 0.5) * _SQ
        path = " ".join(
            f"M{_num(lo)} {_num(t)}H{_num(hi)}M{_num(t)} {_num(lo)}V{_num(hi)}"
            for t in ((i + 0.5) * _SQ for i in range(k))
        )
        d.add("grid", "path", {"class": "grid", "d": path, "fill": "none", "stroke": GRID, "stroke-width": 1.0})
    inset = _SQ * (0.12 if points else 0.07)
    for name in marked:
        x, y = _square_center(names[name], k)
        d.add(
            "highlights",
            "rect",
            {
                "x": x - _SQ / 2 + inset,
                "y": y - _SQ / 2 + inset,
                "width": _SQ - 2 * inset,
                "height": _SQ - 2 * inset,
                "rx": _SQ * 0.08,
                **_highlight_attrs(name, _SQ * 0.07),
            },
        )
    radius = _SQ * (0.45 if points else 0.39)
    for name, stone in position["stones"].items():
        color, number = (stone, None) if isinstance(stone, str) else stone
        x, y = _square_center(names[name], k)
        _stone(d, name, color, x, y, radius)
        if number is not None:
            _number(d, name, color, number, x, y, radius)
    for first, second in position.get("rods", []):
        (x1, y1), (x2, y2) = _square_center(names[first], k), _square_center(names[second], k)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2  # middle of the edge segment
        ux, uy = (y2 - y1) / _SQ, (x1 - x2) / _SQ  # along the edge segment
        half = _SQ * 0.4
        d.add(
            "rods",
            "line",
            {
                "class": "rod",
                "data-cells": f"{first} {second}",
                "x1": mx - ux * half,
                "y1": my - uy * half,
                "x2": mx + ux * half,
                "y2": my + uy * half,
                "stroke": ROD,
                "stroke-width": _SQ * 0.13,
                "stroke-linecap": "round",
            },
        )
    for name in last:
        x, y = _square_center(names[name], k)
        if points:
            _last_ring(d, name, x, y, radius * 1.12)
        else:
            _last_mark(d, name, x, y, _SQ * 0.11)


def _square_labels(d: _Drawing, board: geometry.Board, margin: float) -> None:
    k = max(cell.x for cell in board.cells) + 1
    font = _SQ * 0.4
    for i in range(k):
        _label(d, chr(ord("a") + i), (i + 0.5) * _SQ, (k + 0.45) * _SQ + margin, font)
        _label(d, str(i + 1), -0.45 * _SQ - margin, (k - 1 - i + 0.5) * _SQ, font)


# --- hex boards ----------------------------------------------------------------------------


def _hex_center(q: float, r: float) -> tuple[float, float]:
    return (_R * _SQRT3 * (q + r / 2), _R * 1.5 * r)


def _corner(x: float, y: float, k: int, scale: float = 1.0) -> tuple[float, float]:
    """Corner k of the pointy-topped hex centred at (x, y): at angle 60k + 30 degrees
    (counter-clockwise from east, y up), so that edge d lies between corners d - 1 and d
    and faces direction d (E, NE, NW, W, SW, SE)."""
    angle = math.radians(60 * k + 30)
    return (x + scale * _R * math.cos(angle), y - scale * _R * math.sin(angle))


def _hexagon(x: float, y: float, scale: float = 1.0) -> list[tuple[float, float]]:
    return [_corner(x, y, k, scale) for k in range(6)]


def _hex_outline_path(board: geometry.Board) -> str:
    parts = []
    for cell in board.cells:
        corners = _hexagon(*_hex_center(cell.x, cell.y))
        parts.append("M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in corners) + "Z")
    return "".join(parts)


def _hex_cells(d: _Drawing, board: geometry.Board, fill: str) -> None:
    for cell in board.cells:
        corners = _hexagon(*_hex_center(cell.x, cell.y))
        d.add("cells", "polygon", {"class": "cell", "data-cell": cell.name, "points": _points(corners), "fill": fill})
        d.cover(corners)
    d.add(
        "grid",
        "path",
        {"class": "grid", "d": _hex_outline_path(board), "fill": "none", "stroke": GRID, "stroke-width": _R * 0.045, "stroke-linejoin": "round"},
    )


def _hex_highlights(d: _Drawing, board: geometry.Board, marked: list[str], covered: Iterable[str] = ()) -> None:
    """Highlights on hex cells; on ``covered`` cells (Migong pieces) only an outline, so
    that the wedge colours stay true."""
    names = board.by_name()
    covered = set(covered)
    for name in marked:
        cell = names[name]
        corners = _hexagon(*_hex_center(cell.x, cell.y), scale=0.86)
        attrs = _highlight_attrs(name, _R * 0.13)
        if name in covered:
            attrs["fill"] = "none"
            del attrs["fill-opacity"]
        d.add("highlights", "polygon", {"points": _points(corners), **attrs})


def _draw_hex_stones(d: _Drawing, state: GameState, board: geometry.Board, marked: list[str], last: list[str]) -> None:
    names = board.by_name()
    _hex_cells(d, board, BOARD)
    _hex_highlights(d, board, marked)
    radius = _R * 0.74
    for name, stone in state.board()["stones"].items():
        color, number = (stone, None) if isinstance(stone, str) else stone
        x, y = _hex_center(names[name].x, names[name].y)
        _stone(d, name, color, x, y, radius)
        if number is not None:
            _number(d, name, color, number, x, y, radius)
    for name in last:
        x, y = _hex_center(names[name].x, names[name].y)
        _last_ring(d, name, x, y, radius * 1.12)


def _hex_labels(d: _Drawing, board: geometry.Board, reach: float = 1.0) -> None:
    """Row numbers at the west end of each row, letters at the south-east end of each line
    of constant q; ``reach`` is the distance from the last cell, in neighbour steps."""
    font = _R * 0.62
    rows: dict[int, list[int]] = {}
    lines: dict[int, list[int]] = {}
    for cell in board.cells:
        rows.setdefault(cell.y, []).append(cell.x)
        lines.setdefault(cell.x, []).append(cell.y)
    by_q = {cell.x: cell.name.rstrip("0123456789") for cell in board.cells}
    by_r = {cell.y: cell.name.lstrip("abcdefghijklmnopqrstuvwxyz") for cell in board.cells}
    for r, qs in sorted(rows.items()):
        x, y = _hex_center(min(qs) - reach, r)
        _label(d, by_r[r], x, y, font)
    for q, rs in sorted(lines.items()):
        x, y = _hex_center(q, max(rs) + reach)
        _label(d, by_q[q], x, y, font)
