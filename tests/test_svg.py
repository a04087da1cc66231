"""The SVG pictures (territory.svg): well-formed, one element per cell / stone / rod /
wedge / border edge, the documented colours, highlights, the last-move marker, the
orientation of the hex boards, and golden files for one position of each game.

Golden files live in tests/data/svg/. To rewrite them after a deliberate change of the
pictures, run with TERRITORY_UPDATE_GOLDEN=1 and look at the new pictures before
committing them.
"""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from territory import geometry, svg
from territory.types import Group

SVG_NS = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).parent / "data" / "svg"

TABIK_MOVES = ["d4-d5", "swap", "e4-e5", "c3-d3", "d3xd4", "b6-c6"]
MIGONG_MOVES = [
    "h7:BBBYBB", "swap", "m1:BYBBBB", "g1:BYBYYB", "a13:YBYYBY",
    "i7:BBBBBY", "h6:YBBYBB", "i6:BBYYBB", "g8:YBBBBY", "h8:BBBYBY",
]
NUME_MOVES = ["c3=5", "d3=0", "c4", "e4=123456", "g5=10", "d4"]
NUME_SQUARE_MOVES = ["e5=3", "e6=2", "d5", "g7=0", "e4"]

# (golden name, class name, constructor parameters, moves)
POSITIONS = [
    ("tabik", "Tabik", {}, TABIK_MOVES),
    ("migong", "Migong", {}, MIGONG_MOVES),
    ("nume", "Nume", {}, NUME_MOVES),
    ("nume_square", "Nume", {"square": 9}, NUME_SQUARE_MOVES),
]


# --- helpers --------------------------------------------------------------------------------


def build(impl, cls: str, params: dict, moves: list[str]):
    state = getattr(impl, cls)(**params)
    for move in moves:
        state.play(move)
    return state


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    return root


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.get("class", "").split()]


def board_cells(game: str, params: dict) -> list[tuple[str, int, int]]:
    """Every cell as (name, x, y) in index order, derived here from each game's docs/games/<game>.md:
    (column, row) on square boards, axial (q, r) on hex boards."""
    def name(x: int, y: int) -> str:
        return f"{chr(ord('a') + x)}{y + 1}"

    k = params.get("size") if game == "tabik" else params.get("square")
    if k:
        return [(name(c, r), c, r) for r in range(k) for c in range(k)]
    if game == "nume":
        n = params.get("n", 4)
        return [(name(q, r), q, r) for r in range(2 * n + 1) for q in range(2 * n + 1) if 0 <= 3 * n - 1 - q - r <= 2 * n]
    return [
        (name(q + 6, r + 6), q, r)
        for r in range(-6, 7)
        for q in range(-6, 7)
        if max(abs(q), abs(r), abs(q + r)) <= 6 and (q, r) != (0, 0)
    ]


def cell_names(state) -> list[str]:
    return [name for name, _, _ in board_cells(state.game, state.params)]


@pytest.mark.parametrize(
    "cls, params, shape",
    [("Tabik", {"size": k}, "square") for k in (2, 8, 16)]
    + [("Nume", {"n": n}, "hex") for n in (1, 4, 8)]
    + [("Nume", {"square": k}, "square") for k in (2, 16)]
    + [("Migong", {}, "hex")],
)
def test_the_game_reports_its_board(impl, cls, params, shape):
    state = getattr(impl, cls)(**params)
    assert state.geometry() == (shape, board_cells(state.game, state.params))


def migong_border_edges() -> list[tuple[str, int]]:
    """The 84 Migong border edges as (cell name, direction), derived here independently
    (docs/games/migong.md): cells in index order, directions 0..5 (E, NE, NW, W, SW, SE),
    every direction whose neighbour is off the board or is the central border."""
    cells = board_cells("migong", {})
    on_board = {(q, r) for _, q, r in cells}
    return [
        (name, d)
        for name, q, r in cells
        for d, (dq, dr) in enumerate(geometry.HEX_DIRECTIONS)
        if (q + dq, r + dr) not in on_board
    ]


def points(el: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in el.get("points").split()]


def centre(pts: list[tuple[float, float]]) -> tuple[float, float]:
    return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))


def cell_centres(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Centre of every cell element (hex polygon or square rect)."""
    result = {}
    for el in of_class(root, "cell"):
        if el.tag == SVG_NS + "polygon":
            result[el.get("data-cell")] = centre(points(el))
        else:
            x, y, w, h = (float(el.get(a)) for a in ("x", "y", "width", "height"))
            result[el.get("data-cell")] = (x + w / 2, y + h / 2)
    return result


def angle_off(dx: float, dy: float, expected: float) -> float:
    """How many degrees the direction (dx, dy) on screen is from ``expected``, an angle
    counter-clockwise from east with north (smaller y) at 90."""
    angle = math.degrees(math.atan2(-dy, dx))
    return abs((angle - expected + 180) % 360 - 180)


# --- every game -----------------------------------------------------------------------------


@pytest.mark.parametrize("name,cls,params,moves", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_well_formed_one_cell_element_per_cell(impl, name, cls, params, moves):
    for state in (build(impl, cls, params, []), build(impl, cls, params, moves)):
        root = parse(svg.render(state))
        cells = of_class(root, "cell")
        assert [el.get("data-cell") for el in cells] == cell_names(state)
        assert root.get("data-game") == state.game
        assert root.find(SVG_NS + "title") is not None


@pytest.mark.parametrize(
    "cls,params,count",
    [
        ("Tabik", {"size": 2}, 4),
        ("Tabik", {"size": 16}, 256),
        ("Nume", {"n": 1}, 6),
        ("Nume", {"n": 8}, 216),
        ("Nume", {"square": 2}, 4),
        ("Nume", {"square": 16}, 256),
        ("Migong", {"border": "yellow"}, 126),
    ],
)
def test_cell_count_for_other_sizes(impl, cls, params, count):
    root = parse(svg.render(getattr(impl, cls)(**params)))
    assert len(of_class(root, "cell")) == count


def test_svg_text_and_state_methods(impl):
    state = build(impl, "Tabik", {}, TABIK_MOVES)
    text = svg.render(state)
    assert isinstance(text, svg.SvgText) and isinstance(text, str)
    assert text._repr_svg_() == text
    if hasattr(state, "svg"):  # native classes and the Presentation mixin
        assert state.svg() == text
        assert state.svg(size=300, highlight="a1") == svg.render(state, size=300, highlight="a1")
        assert state._repr_svg_() == text


def test_size_scales_through_the_viewbox(impl):
    state = impl.Tabik()
    for size, expected in ((None, 480), (300, 300), (123.5, 123.5)):
        root = parse(svg.render(state, size=size))
        assert float(root.get("width")) == expected
        _, _, w, h = map(float, root.get("viewBox").split())
        assert float(root.get("height")) == pytest.approx(expected * h / w, abs=0.01)
    for bad in (0, -5, True, "480", float("inf")):
        with pytest.raises(ValueError):
            svg.render(state, size=bad)
    with pytest.raises(ValueError):
        svg.render(state, coordinates=1)


# --- Tabik ----------------------------------------------------------------------------------


def test_tabik_stones_and_rods(impl):
    state = build(impl, "Tabik", {}, TABIK_MOVES)
    root = parse(svg.render(state))
    position = state.board()
    stones = of_class(root, "stone")
    assert {el.get("data-cell"): el.get("data-color") for el in stones} == position["stones"]
    assert len(stones) == len(position["stones"]) == 8
    for el in stones:
        assert el.get("fill") == {"black": svg.BLACK, "white": svg.WHITE}[el.get("data-color")]
    rods = of_class(root, "rod")
    assert [tuple(el.get("data-cells").split()) for el in rods] == [tuple(r) for r in position["rods"]]
    assert len(rods) == 5
    assert all(el.get("stroke") == svg.ROD for el in rods)


def test_tabik_rod_lies_on_the_edge_between_its_squares(impl):
    state = build(impl, "Tabik", {}, TABIK_MOVES)
    root = parse(svg.render(state))
    centres = cell_centres(root)
    for el in of_class(root, "rod"):
        a, b = el.get("data-cells").split()
        (ax, ay), (bx, by) = centres[a], centres[b]
        x1, y1, x2, y2 = (float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))
        assert ((x1 + x2) / 2, (y1 + y2) / 2) == pytest.approx(((ax + bx) / 2, (ay + by) / 2))
        # perpendicular to the line joining the two squares
        assert (x2 - x1) * (bx - ax) + (y2 - y1) * (by - ay) == pytest.approx(0)


def test_square_orientation_row_1_at_the_bottom_column_a_at_the_left(impl):
    for state in (impl.Tabik(), impl.Nume(square=9)):
        centres = cell_centres(parse(svg.render(state)))
        k = state.params.get("size") or state.params["square"]
        last = chr(ord("a") + k - 1)
        assert centres["a1"][1] > centres[f"a{k}"][1]  # row 1 is lowest on screen
        assert centres["a1"][0] < centres[f"{last}1"][0]  # column a is leftmost
        assert centres["a1"][0] == centres[f"a{k}"][0]


# --- Nume -----------------------------------------------------------------------------------


@pytest.mark.parametrize("params,moves", [({}, NUME_MOVES), ({"square": 9}, NUME_SQUARE_MOVES)])
def test_nume_stones_and_numbers(impl, params, moves):
    state = build(impl, "Nume", params, moves)
    root = parse(svg.render(state))
    position = state.board()["stones"]
    stones = of_class(root, "stone")
    assert {el.get("data-cell"): el.get("data-color") for el in stones} == {
        cell: color for cell, (color, _) in position.items()
    }
    for el in stones:
        assert el.get("fill") == {"black": svg.BLACK, "white": svg.WHITE}[el.get("data-color")]
    numbers = {el.get("data-cell"): el for el in of_class(root, "number")}
    assert {cell: int(el.text) for cell, el in numbers.items()} == {
        cell: w for cell, (_, w) in position.items() if w is not None
    }
    for cell, el in numbers.items():  # the number contrasts with its stone
        assert el.get("fill") == (svg.WHITE if position[cell][0] == "black" else svg.BLACK)
    assert not of_class(root, "rod") and not of_class(root, "wedge")


def test_nume_hex_north_at_top(impl):
    centres = cell_centres(parse(svg.render(impl.Nume(n=4))))
    # axial neighbours: E is to the right, NW is up and to the left, SE down and right
    assert angle_off(centres["f4"][0] - centres["e4"][0], centres["f4"][1] - centres["e4"][1], 0) < 0.1
    assert angle_off(centres["e3"][0] - centres["e4"][0], centres["e3"][1] - centres["e4"][1], 120) < 0.1
    assert angle_off(centres["e5"][0] - centres["e4"][0], centres["e5"][1] - centres["e4"][1], 300) < 0.1


def test_nume_komi_phase_moves_are_not_cells(impl):
    state = impl.Nume(komi_phase=True)
    state.play("komi 2.5 white")
    state.play("side black")
    root = parse(svg.render(state, highlight="legal"))
    assert not of_class(root, "last-move")
    assert len(of_class(root, "highlight")) == 60
    state.play("e4=1")
    assert [el.get("data-cell") for el in of_class(parse(svg.render(state)), "last-move")] == ["e4"]


# --- Migong ---------------------------------------------------------------------------------


def test_migong_wedges(impl):
    state = build(impl, "Migong", {}, MIGONG_MOVES)
    root = parse(svg.render(state))
    pieces = state.board()["pieces"]
    wedges = of_class(root, "wedge")
    assert len(wedges) == 6 * len(pieces) == 54
    seen = {}
    for el in wedges:
        seen.setdefault(el.get("data-cell"), {})[int(el.get("data-wedge"))] = el
    assert set(seen) == set(pieces)
    for cell, piece in pieces.items():
        for i, letter in enumerate(piece):
            el = seen[cell][i]
            assert el.get("data-color") == letter
            assert el.get("fill") == {"B": svg.BLUE, "Y": svg.YELLOW}[letter]
    assert not of_class(root, "stone")


def test_migong_wedge_i_points_in_direction_i(impl):
    """Wedge i touches the edge facing E, NE, NW, W, SW, SE for i = 0..5, north up."""
    state = build(impl, "Migong", {}, ["h7:BBBYBB"])
    root = parse(svg.render(state))
    cx, cy = cell_centres(root)["h7"]
    for el in of_class(root, "wedge"):
        x, y = centre(points(el))
        assert angle_off(x - cx, y - cy, 60 * int(el.get("data-wedge")) % 360) < 0.1


def test_migong_board_north_at_top_and_center(impl):
    root = parse(svg.render(impl.Migong()))
    centres = cell_centres(root)
    assert centres["g1"][1] < centres["g13"][1]  # smaller r further north
    (center,) = of_class(root, "center")
    assert center.get("fill") == svg.CENTER
    cx, cy = centre(points(center))
    assert angle_off(centres["h7"][0] - cx, centres["h7"][1] - cy, 0) < 0.1  # h7 is east of g7
    assert angle_off(centres["g6"][0] - cx, centres["g6"][1] - cy, 120) < 0.1  # g6 is NW
    assert "g7" not in centres


@pytest.mark.parametrize("border", ["alternate", "blue", "yellow", "BY" * 42, "B" * 83 + "Y"])
def test_migong_border_edges(impl, border):
    state = impl.Migong(border=border)
    root = parse(svg.render(state))
    borders = of_class(root, "border")
    assert len(borders) == 84
    edges = migong_border_edges()
    assert state.border_edges() == edges
    assert [(el.get("data-cell"), int(el.get("data-direction"))) for el in borders] == edges
    if border == "alternate":
        expected = ["B" if d in (0, 2, 4) else "Y" for _, d in edges]  # E, NW, SW blue
    elif border in ("blue", "yellow"):
        expected = [border[0].upper()] * 84
    else:
        expected = list(border)
    assert [el.get("data-color") for el in borders] == expected
    for el in borders:
        assert el.get("fill") == {"B": svg.BLUE, "Y": svg.YELLOW}[el.get("data-color")]
    assert sum(1 for el in borders if el.get("fill") == svg.BLUE) == expected.count("B")


def test_migong_border_bar_lies_beyond_its_edge(impl):
    root = parse(svg.render(impl.Migong()))
    centres = cell_centres(root)
    for el in of_class(root, "border"):
        cx, cy = centres[el.get("data-cell")]
        d = int(el.get("data-direction"))
        a, b, *outer = points(el)  # the cell's edge, then the far side of the bar
        x, y = centre([a, b])
        assert angle_off(x - cx, y - cy, 60 * d % 360) < 0.1
        inner = math.hypot(x - cx, y - cy)
        assert inner == pytest.approx(22 * math.sqrt(3) / 2, abs=0.05)  # the edge (R = 22)
        x, y = centre(outer)
        assert math.hypot(x - cx, y - cy) > inner + 3


def test_migong_without_pieces_has_no_wedges(impl):
    root = parse(svg.render(impl.Migong()))
    assert not of_class(root, "wedge") and not of_class(root, "last-move")


# --- highlight ------------------------------------------------------------------------------


def highlighted(state, highlight) -> list[str]:
    root = parse(svg.render(state, highlight=highlight))
    marks = of_class(root, "highlight")
    for el in marks:
        assert el.get("stroke") == svg.HIGHLIGHT
    return [el.get("data-cell") for el in marks]


def test_highlight_names_lists_and_groups(impl):
    state = build(impl, "Tabik", {}, TABIK_MOVES)
    assert highlighted(state, None) == []
    assert highlighted(state, "c3") == ["c3"]
    assert highlighted(state, ["h8", "a1", "a1"]) == ["a1", "h8"]  # cell order, no repeats
    group = next(g for g in state.groups() if g.size > 1)
    assert highlighted(state, group) == list(group.cells)
    assert highlighted(state, Group("black", 1, ("b6",))) == ["b6"]
    for bad in ("z9", ["a1", "i1"], 5, ["a0"]):
        with pytest.raises(ValueError):
            svg.render(state, highlight=bad)


def test_highlight_legal(impl):
    state = build(impl, "Tabik", {"size": 4}, ["a1-a2"])
    expected = set()
    for move in state.legal_moves():
        expected.update(re.findall(r"[a-z][0-9]+", move))
    assert set(highlighted(state, "legal")) == expected
    assert "a1" not in expected and "b1" in expected

    nume = build(impl, "Nume", {}, NUME_MOVES)
    assert len(highlighted(nume, "legal")) == 60 - len(NUME_MOVES)

    migong = build(impl, "Migong", {}, MIGONG_MOVES)
    cells = set(highlighted(migong, "legal"))
    assert cells == {m.split(":")[0] for m in migong.legal_moves() if ":" in m}
    assert not cells & set(migong.board()["pieces"])


def test_highlight_migong_group_and_center(impl):
    state = build(impl, "Migong", {}, MIGONG_MOVES)
    group = max(state.groups(), key=lambda g: g.size)
    assert highlighted(state, group) == list(group.cells)
    with pytest.raises(ValueError):
        svg.render(state, highlight="g7")  # the central border is not a cell


# --- last move ------------------------------------------------------------------------------


def last_marked(state) -> list[str]:
    marks = of_class(parse(svg.render(state)), "last-move")
    for el in marks:
        assert svg.LAST_MOVE in (el.get("fill"), el.get("stroke"))
    return [el.get("data-cell") for el in marks]


def test_last_move_marker(impl):
    assert last_marked(impl.Tabik()) == []
    state = impl.Tabik()
    state.play("b2-b3")
    assert last_marked(state) == ["b2", "b3"]
    state.play("swap")  # the pie swap is not marked: the placement stays marked
    assert last_marked(state) == ["b2", "b3"]
    state.play("c3-c2")
    state.play("c2xb2")  # either order is accepted; history keeps the canonical b2xc2
    assert sorted(last_marked(state)) == ["b2", "c2"]
    state.play("d4-c4")
    assert sorted(last_marked(state)) == ["c4", "d4"]

    assert last_marked(build(impl, "Migong", {}, MIGONG_MOVES)) == ["h8"]
    assert last_marked(build(impl, "Migong", {}, MIGONG_MOVES[:2])) == ["h7"]  # then swap
    assert last_marked(build(impl, "Nume", {}, NUME_MOVES)) == ["d4"]
    assert last_marked(build(impl, "Nume", {"square": 9}, NUME_SQUARE_MOVES)) == ["e4"]


def test_last_move_marker_skips_passes(impl):
    state = build(impl, "Tabik", {"size": 2}, ["a1-b1", "a2-b2"])
    assert state.legal_moves() == ["pass"]
    state.play("pass")
    assert last_marked(state) == ["a2", "b2"]


def test_move_cells_come_from_the_game(impl):
    tabik, migong, nume = impl.Tabik(size=16), impl.Migong(), impl.Nume()
    assert tabik.move_cells("b2-b3") == ["b2", "b3"]
    assert tabik.move_cells("b3-b2") == ["b3", "b2"]  # black's square first
    assert tabik.move_cells("p16xp15") == ["p15", "p16"]  # canonical order of a stone swap
    assert tabik.move_cells("p15xp16") == ["p15", "p16"]
    assert migong.move_cells("h7:BYBYBY") == ["h7"]
    assert nume.move_cells("c3") == ["c3"]
    assert nume.move_cells("c3=5") == ["c3"]
    assert impl.Nume(komi_phase=True).move_cells("komi 2.5 white") == []
    assert impl.Nume(komi_phase=True).move_cells("side black") == []
    for state in (tabik, migong):
        assert state.move_cells("pass") == [] and state.move_cells("swap") == []
    for state, move in ((migong, "g7:BBBBBB"), (nume, "z9"), (tabik, "q1-q2")):
        with pytest.raises(ValueError):
            state.move_cells(move)


def test_migong_border_colours_come_from_the_game(impl):
    assert impl.Migong().border_colors() == "".join("B" if d % 2 == 0 else "Y" for _, d in migong_border_edges())
    assert impl.Migong(border="yellow").border_colors() == "Y" * 84
    explicit = "BY" * 41 + "YY"
    assert impl.Migong(border=explicit).border_colors() == explicit


# --- coordinates ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls,params,expected",
    [
        ("Tabik", {}, list("abcdefgh") + [str(i) for i in range(1, 9)]),
        ("Nume", {"square": 5}, list("abcde") + [str(i) for i in range(1, 6)]),
        ("Nume", {"n": 4}, list("abcdefghi") + [str(i) for i in range(1, 10)]),
        ("Migong", {}, list("abcdefghijklm") + [str(i) for i in range(1, 14)]),
    ],
)
def test_coordinates(impl, cls, params, expected):
    state = getattr(impl, cls)(**params)
    labels = [el.text for el in of_class(parse(svg.render(state)), "label")]
    assert sorted(labels) == sorted(expected)
    assert not of_class(parse(svg.render(state, coordinates=False)), "label")


def test_hex_labels_sit_at_the_ends_of_their_lines(impl):
    """Row numbers west of each row, letters south-east of each line of constant q."""
    root = parse(svg.render(impl.Migong()))
    centres = cell_centres(root)
    labels = {el.text: (float(el.get("x")), float(el.get("y"))) for el in of_class(root, "label")}
    assert labels["7"][0] < centres["a7"][0]
    assert labels["7"][1] == pytest.approx(centres["a7"][1], abs=5)
    x, y = labels["a"]  # the a-line runs from a7 to a13, the label follows a13 south-east
    assert angle_off(x - centres["a13"][0], y - centres["a13"][1], 300) < 10


# --- colours --------------------------------------------------------------------------------


def test_colour_constants_are_hex_colours():
    names = ["BLUE", "YELLOW", "BLACK", "WHITE", "ROD", "HIGHLIGHT", "LAST_MOVE", "BOARD", "EMPTY", "CENTER", "GRID"]
    for name in names:
        assert re.fullmatch(r"#[0-9a-f]{6}", getattr(svg, name)), name
    assert len({getattr(svg, n) for n in ("BLUE", "YELLOW", "HIGHLIGHT", "LAST_MOVE", "ROD")}) == 5


# --- golden files ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,cls,params,moves", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_golden(impl, name, cls, params, moves):
    state = build(impl, cls, params, moves)
    text = svg.render(state)
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("TERRITORY_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{path} differs; see the module docstring"
