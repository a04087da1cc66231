"""Migong on the Python side: its text diagram, its picture (pieces of six wedges, the
coloured border, the central border cell), how its moves are chosen on the web board, and
its crosscheck vectors (see ``territory.games``)."""

from __future__ import annotations

import math
import random
from typing import Any

from territory import geometry
from territory.registry import new_game
from territory.svg import (  # the drawing kit of territory.svg
    BLUE, CENTER, EMPTY, YELLOW, SvgText, _corner, _Drawing, _hex_cells, _hex_center, _hex_highlights, _hexagon,
    _last_mark, _points, _R,
)
from territory.types import GameState

#: The central border cell (axial), drawn but not playable ("g7").
CENTER_CELL = (0, 0)
#: UCT's exploration constant on Migong's one board (None), measured by the sweep in
#: docs/strength.md.
TUNED_UCT_C = {None: 0.3}
#: The colours of wedges and border edges.
COLORS = {"B": BLUE, "Y": YELLOW}


def diagram(board: geometry.Board, position: dict[str, Any]) -> str:
    return _grid(board, position["pieces"])


def _grid(board: geometry.Board, pieces: dict[str, str]) -> str:
    """Each placed piece is drawn as a small hexagon of its six wedge colours, an empty
    cell as '.', the central border as '#':

         NW NE          B Y
        W  *  E   ->   Y * B
         SW SE          Y B
    """
    left = min(2 * c.x + c.y for c in board.cells)
    rows: dict[int, list[geometry.Cell]] = {}
    for cell in board.cells:
        rows.setdefault(cell.y, []).append(cell)
    lines = []
    for r, cells in sorted(rows.items()):
        drawn = sorted(cells + [geometry.Cell("#", 0, 0)] if r == 0 else cells, key=lambda c: c.x)
        block: list[dict[int, str]] = [{}, {}, {}]
        for cell in drawn:
            x = (2 * cell.x + cell.y - left) * 3
            piece = pieces.get(cell.name)
            if piece is None:
                art = ("", "  #" if cell.name == "#" else "  .", "")
            else:
                e, ne, nw, w, sw, se = tuple(piece)
                art = (f" {nw} {ne}", f"{w} * {e}", f" {sw} {se}")
            for line, text in zip(block, art):
                for i, ch in enumerate(text):
                    line[x + i] = ch
        span = f"   ({cells[0].name}-{cells[-1].name})"
        for i, line in enumerate(block):
            if line:
                text = "".join(line.get(j, " ") for j in range(max(line) + 1))
                prefix = f"{r + 7:>2}  " if i == 1 else "    "
                lines.append(prefix + text + (span if i == 1 else ""))
    return "\n".join(line.rstrip() for line in lines)


def shapes() -> list[tuple[list[tuple[float, float]], str]]:
    """The central border cell, a solid hex."""
    return [(_hexagon(*_hex_center(*CENTER_CELL)), CENTER)]


def piece(pattern: str, *, size: float = 40) -> SvgText:
    """One Migong piece on its own, e.g. ``piece("BYBYBY")``: a hex of six triangles
    coloured like the wedges on the board (wedge i touches the edge facing direction i)."""
    if not isinstance(pattern, str) or len(pattern) != 6 or set(pattern) - set(COLORS):
        raise ValueError(f"a piece is six letters B or Y, got {pattern!r}")
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < math.inf:
        raise ValueError(f"size must be a positive number of pixels, got {size!r}")
    drawing = _Drawing()
    _draw_piece(drawing, "", pattern, 0.0, 0.0)
    drawing.cover(_hexagon(0.0, 0.0))
    return SvgText(drawing.document("migong", f"piece {pattern}", float(size)))


def draw(d: _Drawing, state: GameState, board: geometry.Board, marked: list[str], last: list[str]) -> None:
    """126 hexes, the central border cell, the pieces, the border edges in their colours,
    highlights (outlines only on pieces) and a dot on the last move's cell."""
    names = board.by_name()
    _hex_cells(d, board, EMPTY)
    for polygon, color in shapes():
        d.add("center", "polygon", {"class": "center", "points": _points(polygon), "fill": color})
    pieces = state.board()["pieces"]
    for name, pattern in pieces.items():
        _draw_piece(d, name, pattern, *_hex_center(names[name].x, names[name].y))
    _borders(d, state, board)
    _hex_highlights(d, board, marked, covered=pieces)
    for name in last:
        x, y = _hex_center(names[name].x, names[name].y)
        _last_mark(d, name, x, y, _R * 0.2)


def _draw_piece(d: _Drawing, name: str, pattern: str, x: float, y: float) -> None:
    """A Migong piece centred at (x, y): wedge i is the triangle (centre, corner i - 1,
    corner i) touching edge i."""
    for i, letter in enumerate(pattern):
        color = COLORS[letter]
        triangle = [(x, y), _corner(x, y, i - 1), _corner(x, y, i)]
        d.add(
            "wedges",
            "polygon",
            {
                "class": "wedge",
                "data-cell": name or None,
                "data-wedge": i,
                "data-color": letter,
                "points": _points(triangle),
                "fill": color,
                "stroke": color,
                "stroke-width": 0.4,
                "stroke-linejoin": "round",
            },
        )


_BORDER_WIDTH = 0.32  # thickness of a border bar, as a fraction of a hex's inner radius


def _borders(d: _Drawing, state: GameState, board: geometry.Board) -> None:
    # The engine says where the border edges are and what colour each has.
    edges = state.border_edges()  # type: ignore[attr-defined]
    colors = state.border_colors()  # type: ignore[attr-defined]
    names = board.by_name()
    on_board = {(c.x, c.y) for c in board.cells}
    for (name, direction), letter in zip(edges, colors):
        cell = names[name]
        dq, dr = geometry.HEX_DIRECTIONS[direction]
        x, y = _hex_center(cell.x, cell.y)
        ox, oy = _hex_center(cell.x + dq, cell.y + dr)  # the hex beyond the edge
        outer = []
        # The edge runs from corner direction - 1 to corner direction. At each end, the bar
        # is mitred against the next border edge: of the same cell when the hex beside
        # that corner is off the board (a convex corner), else of the other cell.
        for k, side in ((direction - 1, direction - 1), (direction, direction + 1)):
            vx, vy = _corner(x, y, k)
            sq, sr = geometry.HEX_DIRECTIONS[side % 6]
            if (cell.x + sq, cell.y + sr) in on_board:
                outer.append((ox + (1 - _BORDER_WIDTH) * (vx - ox), oy + (1 - _BORDER_WIDTH) * (vy - oy)))
            else:
                outer.append((x + (1 + _BORDER_WIDTH) * (vx - x), y + (1 + _BORDER_WIDTH) * (vy - y)))
        quad = [_corner(x, y, direction - 1), _corner(x, y, direction), outer[1], outer[0]]
        color = COLORS[letter]
        d.add(
            "borders",
            "polygon",
            {
                "class": "border",
                "data-cell": cell.name,
                "data-direction": direction,
                "data-color": letter,
                "points": _points(quad),
                "fill": color,
                "stroke": color,
                "stroke-width": 0.4,
                "stroke-linejoin": "round",
            },
        )
        d.cover(quad)


def choice(state: GameState, move: str, clicks: list[str], entry: dict[str, Any]) -> None:
    """A placement is offered as its piece: the pattern and its picture."""
    if ":" in move:
        pattern = move.split(":", 1)[1]
        entry["label"] = pattern
        entry["svg"] = str(piece(pattern, size=44))


#: Move sequences the rule tests work out by hand (tests/test_migong_rules.py).
HAND_WORKED: list[tuple[str, dict[str, Any], list[str]]] = [
    ("single-pieces-tie", {"pie": False}, ["g4:BBBBBB", "j7:YYYYYY", "d7:BYBYBB", "g10:YBBYBY"]),
    ("single-pieces-then-extent-2", {"pie": False}, ["g4:BBBBBB", "j7:YYYYYY", "d7:BYBYBB", "g10:YBBYBY", "h4:BBBBBY"]),
]


def mirror_game(params: dict[str, Any], rng: random.Random) -> list[str] | None:
    """A Migong game that ends 0-0 (tests/test_migong_rules.py, ``mirror_game``): Blue
    plays random moves, Yellow answers each with its image under a half turn that
    exchanges the colours (with the pie rule, seat 1 swaps first), until Blue must pass,
    then both pass. Every blue group has a yellow image, so the scores are 0-0 and Yellow,
    the last mover, loses. None when an answer is not legal (a border that the half turn
    does not map onto itself with colours exchanged)."""
    state: Any = new_game("migong", **params)
    where = {name: (q, r) for name, q, r in state.geometry()[1]}
    name_at = {qr: name for name, qr in where.items()}
    flip = {"B": "Y", "Y": "B"}
    while not state.is_over:
        moves = state.legal_moves()
        if moves == ["pass"]:
            state.play("pass")
        elif state.color_of(state.to_move) == "blue":
            state.play(moves[rng.randrange(len(moves))])
            if "swap" in state.legal_moves():
                state.play("swap")
        else:
            blue_move = state.history[-2] if state.history[-1] == "swap" else state.history[-1]
            cell, piece = blue_move.split(":")
            q, r = where[cell]
            image = name_at[-q, -r] + ":" + "".join(flip[piece[(j + 3) % 6]] for j in range(6))
            if image not in moves:
                return None
            state.play(image)
    return list(state.history)
