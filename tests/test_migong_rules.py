"""Migong rule tests with hand-worked outcomes (docs/RULES.md, docs/games/migong.md).

Every test runs on both implementations through the ``impl`` fixture (conftest.py).

Geometry reminders used in the comments below: axial (q, r), name letter a..m = q -6..6,
number 1..13 = r -6..6; directions 0..5 = E (+1,0), NE (+1,-1), NW (0,-1), W (-1,0),
SW (-1,+1), SE (0,+1); wedge i of a piece on c touches wedge (i+3)%6 of the piece on
c + dir(i). Default border: edges facing E, NW, SW are B, edges facing NE, W, SE are Y.
"""

from __future__ import annotations

import random

import pytest

from territory.errors import IllegalMoveError
from territory.types import Group

# --- a small independent geometry helper (for sanity counts and the mirror game) ------

DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def on_board(q, r):
    return max(abs(q), abs(r), abs(q + r)) <= 6 and (q, r) != (0, 0)


def coords(name):
    return (ord(name[0]) - ord("a") - 6, int(name[1:]) - 7)


def name_of(q, r):
    return chr(ord("a") + q + 6) + str(r + 7)


CELLS = sorted(
    ((q, r) for q in range(-6, 7) for r in range(-6, 7) if on_board(q, r)),
    key=lambda c: (c[1], c[0]),
)
NAMES = [name_of(*c) for c in CELLS]


def alternate_edge(direction):
    return "B" if direction in (0, 2, 4) else "Y"


def fitting_pieces(pieces, name, edge_color=alternate_edge):
    """All 64 patterns that match the neighbours and border edges of an empty cell."""
    q, r = coords(name)
    need = {}
    for i, (dq, dr) in enumerate(DIRS):
        nq, nr = q + dq, r + dr
        if not on_board(nq, nr):
            need[i] = edge_color(i)
        elif name_of(nq, nr) in pieces:
            need[i] = pieces[name_of(nq, nr)][(i + 3) % 6]
    result = []
    for p in range(64):
        piece = "".join("Y" if p >> i & 1 else "B" for i in range(6))
        if all(piece[i] == c for i, c in need.items()):
            result.append(piece)
    return result


def independent_legal_placements(state, color):
    """Placements for `color`, worked out from board() and the history alone."""
    letter = "B" if color == "blue" else "Y"
    pieces = state.board()["pieces"]
    # Which seat placed which piece: seats alternate, colours follow color_of at the end
    # (these helpers are only used on games without a swap).
    assert "swap" not in state.history
    used = {
        m.split(":")[1]
        for k, m in enumerate(state.history)
        if ":" in m and (k % 2 == 0) == (letter == "B")
    }
    moves = []
    for name in NAMES:
        if name in pieces:
            continue
        for piece in fitting_pieces(pieces, name):
            if letter in piece and piece not in used:
                moves.append(f"{name}:{piece}")
    return moves


def mirror(move):
    """The 180-degree rotation with colours exchanged: (q, r) -> (-q, -r), wedge i of the
    image is the opposite colour of wedge (i + 3) % 6 of the original. It maps the default
    border onto itself with colours exchanged, so it maps legal Blue moves to legal Yellow
    moves of a mirrored position."""
    cell, piece = move.split(":")
    q, r = coords(cell)
    flip = {"B": "Y", "Y": "B"}
    return name_of(-q, -r) + ":" + "".join(flip[piece[(j + 3) % 6]] for j in range(6))


def snapshot(s):
    return (
        s.copy(),
        s.history,
        s.board(),
        s.to_move,
        s.is_over,
        s.last_mover,
        s.remaining("blue"),
        s.remaining("yellow"),
        s.color_of(0),
        s.scores(),
    )


def assert_rejected(s, move):
    before = snapshot(s)
    with pytest.raises(IllegalMoveError) as info:
        s.play(move)
    assert str(info.value)  # says why
    after = snapshot(s)
    assert s == before[0]
    assert after[1:] == before[1:]
    return str(info.value)


# --- counts ----------------------------------------------------------------------------


def test_counts(impl):
    s = impl.Migong()
    # 127 cells in a base-7 hexhex minus the central border.
    assert len(CELLS) == 126
    # Border edges: 6 corners x 3 + 30 other rim cells x 2 = 78, plus 6 around g7.
    edges = sum(1 for (q, r) in CELLS for dq, dr in DIRS if not on_board(q + dq, r + dr))
    assert edges == 84
    assert s.num_actions == 126 * 64 + 2 == 8066
    assert len(s.remaining("blue")) == 63 and len(s.remaining("yellow")) == 63
    assert "BBBBBB" in s.remaining("blue") and "YYYYYY" not in s.remaining("blue")
    assert "YYYYYY" in s.remaining("yellow") and "BBBBBB" not in s.remaining("yellow")
    assert s.remaining("blue") == sorted(s.remaining("blue"))
    # A border string must have exactly one letter per border edge.
    impl.Migong(border="B" * 84)
    for bad in ("B" * 83, "B" * 85):
        with pytest.raises(ValueError):
            impl.Migong(border=bad)


def test_start_position(impl):
    s = impl.Migong()
    assert s.game == "migong"
    assert s.params == {"pie": True, "border": "alternate", "group_size": "extent"}
    assert list(s.params) == ["pie", "border", "group_size"]
    assert s.to_move == 0 and s.color_of(0) == "blue" and s.color_of(1) == "yellow"
    assert not s.is_over and s.winner is None and s.last_mover is None
    assert s.history == [] and s.board() == {"pieces": {}} and s.groups() == []
    assert s.scores() == (0, 0)
    h = s.history
    h.append("x")
    assert s.history == []  # a fresh list


def test_legal_placement_counts_at_start(impl):
    """Hand counts of Blue's first-move placements.

    84 cells of rings 2..5 touch no border: 63 Blue pieces each. The 6 cells of ring 1
    touch the centre once: 32 patterns, minus YYYYYY when that edge is Y. The 6 corners
    touch 3 rim edges (8 patterns) and the 30 other rim cells 2 (16 patterns); with the
    alternating border those edges are mixed, so YYYYYY is never among them.
    """
    interior = 84 * 63
    assert len(impl.Migong().legal_moves()) == interior + (3 * 31 + 3 * 32) + 6 * 8 + 30 * 16 == 6009
    assert len(impl.Migong(border="blue").legal_moves()) == interior + 6 * 32 + 6 * 8 + 30 * 16 == 6012
    assert len(impl.Migong(border="yellow").legal_moves()) == interior + 6 * 31 + 6 * 7 + 30 * 15 == 5970
    # Yellow's first reply: Blue took g4 (ring 3, touching only interior cells h4, h3,
    # g3, f4, f5, g5), so those six cells lose freedom. Count just one cell: h4 must show
    # B on its W wedge: 32 patterns, all with a Y except BBBBBB, so 31.
    s = impl.Migong()
    s.play("g4:BBBBBB")
    at_h4 = [m for m in s.legal_moves() if m.startswith("h4:")]
    assert len(at_h4) == 31 and all(m[3 + 3] == "B" for m in at_h4)
    assert s.legal_moves()[-1] == "swap"


# --- matching ---------------------------------------------------------------------------


def test_single_wedge_mismatch(impl):
    s = impl.Migong(pie=False)
    s.play("g4:BBBBBB")  # Blue; g4 = (0,-3)
    s.play("i4:YYYYYY")  # Yellow; i4 = (2,-3)
    # h4 = (1,-3) lies between them: its W wedge (3) touches g4's E wedge (B), its E wedge
    # (0) touches i4's W wedge (Y). Its other four neighbours are empty, no border.
    assert s.to_move == 0
    msg = assert_rejected(s, "h4:BYYBYY")  # right on wedge 3, wrong on wedge 0
    assert "h4" in msg or "wedge" in msg
    assert_rejected(s, "h4:YBBYBB")  # right on wedge 0, wrong on wedge 3
    at_h4 = [m for m in s.legal_moves() if m.startswith("h4:")]
    assert len(at_h4) == 16  # wedges 1, 2, 4, 5 free; each has a B on wedge 3
    assert all(m[3] == "Y" and m[6] == "B" for m in at_h4)
    s.play("h4:YYYBYY")
    assert s.board() == {"pieces": {"g4": "BBBBBB", "h4": "YYYBYY", "i4": "YYYYYY"}}
    # A cell next to nothing placed yet accepts any of the mover's pieces.
    s.play("g10:BYBYBY")


def test_central_border(impl):
    # Ring 1 cells and the direction in which each faces g7; under the alternating border
    # the edge colour is B for E/NW/SW and Y for NE/W/SE.
    ring = {"h7": 3, "h6": 4, "g6": 5, "f7": 0, "f8": 1, "g8": 2}
    required = {"h7": "Y", "h6": "B", "g6": "Y", "f7": "B", "f8": "Y", "g8": "B"}
    for cell, d in ring.items():
        q, r = coords(cell)
        assert (q + DIRS[d][0], r + DIRS[d][1]) == (0, 0)
        assert alternate_edge(d) == required[cell]
    for border, letters in (
        ("alternate", required),
        ("blue", dict.fromkeys(ring, "B")),
        ("yellow", dict.fromkeys(ring, "Y")),
    ):
        s = impl.Migong(border=border)
        moves = s.legal_moves()
        for cell, d in ring.items():
            here = [m.split(":")[1] for m in moves if m.split(":")[0] == cell]
            assert all(p[d] == letters[cell] for p in here)
            # Blue lacks YYYYYY, so a Y edge leaves 31 patterns, a B edge 32.
            assert len(here) == (31 if letters[cell] == "Y" else 32), (border, cell)
    s = impl.Migong()
    assert_rejected(s, "h7:BBBBBB")  # wedge 3 faces the Y central edge
    s.play("h7:BBBYBB")
    assert_rejected(s, "h6:BBBBYB")  # Yellow: wedge 4 faces the B central edge
    assert_rejected(s, "g7:YYYYYY")  # the border itself
    # h6's SE wedge also meets h7's NW wedge (B), so both wedges 4 and 5 must be B.
    assert_rejected(s, "h6:YYYYBY")
    s.play("h6:YYYYBB")
    s = impl.Migong(border="blue")
    assert_rejected(s, "h7:BBBYBB")
    s.play("h7:BBBBBB")
    s = impl.Migong(border="yellow")
    assert_rejected(s, "f7:BBBBBB")  # f7 faces g7 to the E: Y edge now
    s.play("f7:YBBBBB")
    s.play("h6:BBBBYB")


def test_rim_corner(impl):
    # g1 = (0,-6) is a corner: NE, NW and W are off the board (Y, B, Y by default).
    s = impl.Migong()
    at_g1 = [m for m in s.legal_moves() if m.startswith("g1:")]
    assert len(at_g1) == 8
    assert all(m[4:7] == "YBY" for m in at_g1)
    assert at_g1[0] == "g1:BYBYBB" and s.legal_moves()[0] == "g1:BYBYBB"
    assert_rejected(s, "g1:BBBYBB")  # wedge 1 against a Y rim edge
    assert_rejected(s, "g1:BYYYBB")  # wedge 2 against a B rim edge
    # h1 = (1,-6): only NE and NW off the board: 16 patterns.
    assert len([m for m in s.legal_moves() if m.startswith("h1:")]) == 16
    # m7 = (6,0): E, NE, SE off the board (B, Y, Y).
    at_m7 = [m.split(":")[1] for m in s.legal_moves() if m.startswith("m7:")]
    assert len(at_m7) == 8 and all(p[0] + p[1] + p[5] == "BYY" for p in at_m7)
    s.play("g1:BYBYBB")
    assert s.board() == {"pieces": {"g1": "BYBYBB"}}
    # Explicit border: border edges are numbered from g1 (index 0), directions 0..5, so
    # edges 0, 1, 2 are g1's NE, NW, W. All B except edge 0.
    explicit = "Y" + "B" * 83
    s = impl.Migong(border=explicit)
    assert s.params["border"] == explicit
    at_g1 = [m for m in s.legal_moves() if m.startswith("g1:")]
    assert len(at_g1) == 8 and all(m[4:7] == "YBB" for m in at_g1)
    assert_rejected(s, "g1:BYBYBB")
    s.play("g1:BYBBBB")
    # Edges 3, 4 are h1's NE and NW, here both Y: 16 patterns minus Blue's missing YYYYYY.
    s2 = impl.Migong(border="BBB" + "YY" + "B" * 79)
    at_h1 = [m.split(":")[1] for m in s2.legal_moves() if m.startswith("h1:")]
    assert len(at_h1) == 15 and all(p[1:3] == "YY" for p in at_h1)


# --- groups and scoring -------------------------------------------------------------------


def test_winding_group_extent_and_wedges(impl):
    moves = ["f5:BBBBYY", "g5:BYYBBB", "h5:BBBBBY", "i5:YYYBBB", "i6:BBBYYY"]
    # f5 g5 h5 i5 lie in a row from W to E (r = -2), i6 is SE of i5. Blue wedges:
    # f5 {0,1,2,3} -E- g5 {3,4,5,0} -E- h5 {3,...,0..4} -E- i5 {3,4,5} -SE- i6 {2,1,0}:
    # one blue group, extent 5, 4+4+5+3+3 = 19 wedges. Each piece's yellow wedges form a
    # group of its own: f5 {4,5}, g5 {1,2}, h5 {5}, i5 {0,1,2}, i6 {3,4,5}.
    for group_size, expected_scores in (("extent", (5, 1)), ("wedges", (19, 3))):
        s = impl.Migong(pie=False, group_size=group_size)
        for m in moves:
            s.play(m)
        assert s.groups() == [
            Group("blue", 5, ("f5", "g5", "h5", "i5", "i6"), wedges=19),
            Group("yellow", 1, ("f5",), wedges=2),
            Group("yellow", 1, ("g5",), wedges=2),
            Group("yellow", 1, ("h5",), wedges=1),
            Group("yellow", 1, ("i5",), wedges=3),
            Group("yellow", 1, ("i6",), wedges=3),
        ]
        # extent: Blue holds 5 (1 group vs 0), Yellow holds 1 (5 vs 0).
        # wedges: Blue holds 19; Yellow holds 1, 2 and 3, so 3.
        assert s.scores() == expected_scores
        assert s.winner is None  # not over


def test_group_reentering_a_piece(impl):
    # Around h4 = (1,-3): i4 (E), i3 (NE), h3 (NW). h4's blue wedges 0 and 2 are split
    # by its yellow wedge 1, but the loop h4 -> i4 -> i3 -> h3 -> h4 joins them: one blue
    # group of extent 4 (h4 counted once), wedges 1+1+2+5+2 = 11.
    # Yellow: h4 w1 + i3 w4 (extent 2, 2 wedges), h3 {1,2,3,4}, h4 {3,4,5}, i4 {4,5,0,1}.
    for group_size, expected in (("extent", (4, 2)), ("wedges", (11, 4))):
        s = impl.Migong(pie=False, group_size=group_size)
        for m in ["h4:BYBYYY", "i4:YYBBYY", "i3:BBBBYB", "h3:BYYYYB"]:
            s.play(m)
        # Ordered by lowest wedge id: h3 is cell 18, i3 19, h4 28, i4 29.
        assert s.groups() == [
            Group("blue", 4, ("h3", "i3", "h4", "i4"), wedges=11),
            Group("yellow", 1, ("h3",), wedges=4),
            Group("yellow", 2, ("i3", "h4"), wedges=2),
            Group("yellow", 1, ("h4",), wedges=3),
            Group("yellow", 1, ("i4",), wedges=4),
        ]
        # extent: Blue holds 4; Yellow holds 1 (3 groups) and 2 (1 group) -> 2.
        # wedges: Blue holds 11; Yellow holds 2, 3, 4 -> 4.
        assert s.scores() == expected


def test_single_pieces_tie(impl):
    # A lone mixed piece has as many blue arcs as yellow arcs, so isolated pieces never
    # let either colour hold a size.
    s = impl.Migong(pie=False)
    for m in ["g4:BBBBBB", "j7:YYYYYY", "d7:BYBYBB", "g10:YBBYBY"]:
        s.play(m)
    assert s.scores() == (0, 0)
    s.play("h4:BBBBBY")  # joins g4 (h4's W wedge meets g4's E wedge): blue extent 2
    # Blue: one group of extent 2 (holds 2), groups of extent 1: d7 {2},{4,5,0},
    # g10 {1,2},{4}; Yellow extent 1: j7, d7 {1},{3}, g10 {3},{5,0}, h4 {5} -> 6 vs 4.
    assert s.scores() == (2, 1)


# --- piece sets -------------------------------------------------------------------------


def test_last_copy_used(impl):
    s = impl.Migong(pie=False)
    s.play("g4:BBBBBB")  # Blue's only BBBBBB
    assert "BBBBBB" not in s.remaining("blue") and len(s.remaining("blue")) == 62
    assert_rejected(s, "j7:BBBBBB")  # Yellow never owns BBBBBB
    s.play("j7:BYBYBY")  # Yellow's copy of a mixed pattern
    assert "BYBYBY" not in s.remaining("yellow") and "BYBYBY" in s.remaining("blue")
    msg = assert_rejected(s, "d7:BBBBBB")  # Blue: already used
    assert "BBBBBB" in msg
    assert_rejected(s, "d7:YYYYYY")  # Blue never owns YYYYYY
    assert not any(m.endswith(":BBBBBB") for m in s.legal_moves())
    s.play("d7:BYBYBY")  # Blue's own copy of the same mixed pattern
    assert_rejected(s, "g10:BYBYBY")  # Yellow's copy is gone
    s.play("g10:YYYYYY")
    assert_rejected(s, "d10:BYBYBY")  # and so is Blue's
    assert len(s.remaining("blue")) == 61 and len(s.remaining("yellow")) == 61
    assert "YYYYYY" not in s.remaining("yellow")


# --- passing ----------------------------------------------------------------------------

# Found by a random playout (seed 84, default rules without pie); after these 102 moves
# Blue has no legal placement while Yellow does. The test re-derives that fact from the
# board and the pieces used, independently of the implementation's move generator.
FORCED_PASS_GAME = """
f13:YYYBBY f6:YBYBBB j2:YYYBBB k9:BYBYYY i1:YYBYBY i10:BYYYYY l7:BBBYBB l5:BBBYBB
c11:BYYYBB e12:YBYYBY g10:YBBYYB a8:YBBYBB b10:BBBYYY e10:YBYYYB c6:BYYBYY d9:BYYBYB
d4:BYBYYB j8:YYYYBY f5:YBYYYY f10:YBYYYY l8:BYBBYY k7:YBYBYB b7:YYBYBB d5:BYBBYB
l3:BBBBBY c8:YYBYBY i6:BYBBBB g2:BBBBYY h8:YBYYBY l2:BYBBBB h4:YBYYBB f3:BYBYBY
h12:BBBBYY j7:BYBBYY f7:BBBYYB i3:BBYBBY k1:YYBYYY h5:YBBYYB m4:BYYBBB k8:BBBYYB
j4:YYYBYB d8:BBBYYY l4:BBYBBB i8:YYYYBB e5:YYYBYY k4:BBBYBY a10:YYYYBY k2:BYYYBY
g9:YBBBBB f11:BYYBBB h2:BBYBBY m5:BYBBBY d13:YBBBBY h11:YYBBYB e3:YBBYYY d6:YYBBBB
b13:BBYYBY i9:YBBBBY c10:BYYBBY g5:YBYYBB i5:YYYYYB c7:BBYYYB h6:BYBYBY f8:YYBYBB
d10:YYBBYB b9:BBBBYB k5:YBYBYY d12:YYYBBB f9:BBBYBY e7:YBBYBY e4:BBYBYY a12:BBYYBB
h1:YYBBBY i2:BYYBYY l1:YYBYYB f12:YBBYYY a13:YBBYBY k3:BBYBYB e11:BYBYYY g4:YYBBBY
g3:YBYBYB c12:BYBYBB j6:BYBBYB j10:BYYBBY e9:YBBBYY d11:YYBBYY g13:BYYYBY d7:YBBBYB
h9:BBYYBB c13:BBBBBY a7:YBBYBB b8:YYBYYB b11:YBYBBY h7:BBYYYY b6:BYBYBB e6:BYYYBB
h3:BYYYYY g1:BYBYYB l6:BBBBBB j9:YYYYYY i7:BYBBBY b12:YBYBBY
""".split()


def test_forced_pass_while_other_moves(impl):
    assert len(FORCED_PASS_GAME) == 102
    s = impl.Migong(pie=False)
    for m in FORCED_PASS_GAME:
        s.play(m)
    assert s.to_move == 0 and s.color_of(0) == "blue"
    assert len(s.board()["pieces"]) == 102 and len(s.remaining("blue")) == 12
    assert independent_legal_placements(s, "blue") == []
    assert s.legal_moves() == ["pass"] and s.legal_actions() == [8065]
    yellow = independent_legal_placements(s, "yellow")
    assert yellow == ["j1:YYBYYY", "i4:BBYYBY", "k6:BBYBYY", "e8:YYYBYB", "i11:BBYYBY"]
    s.play("pass")
    assert not s.is_over and s.to_move == 1 and s.last_mover == 1
    assert s.legal_moves() == yellow
    assert_rejected(s, "pass")  # Yellow has moves
    s.play("e8:YYYBYB")
    assert not s.is_over and s.to_move == 0 and s.last_mover == 1
    assert s.legal_moves() == (independent_legal_placements(s, "blue") or ["pass"])


def test_pass_only_when_no_move(impl):
    s = impl.Migong()
    assert_rejected(s, "pass")
    s.play("g4:BBBBBB")
    assert_rejected(s, "pass")  # Yellow may place or swap
    assert s.move_to_action("pass") == 8065


# --- full games by mirror play: 0-0 endings -----------------------------------------------


def mirror_game(impl, swap, group_size="extent", seed=7):
    """Blue plays seeded random legal moves; Yellow answers each with its mirror image.

    The position after each Yellow move is symmetric under `mirror` (a 180-degree turn
    exchanging colours, which also maps the alternating border onto itself with colours
    exchanged, and Blue's unused pieces onto Yellow's). So Yellow's mirror answer is
    always legal (c and -c are never neighbours), Blue eventually has no move, and then
    neither has Yellow; and every blue group has a yellow image of the same extent and
    wedge count, so both scores are 0. Yellow made the last move and loses.
    """
    rng = random.Random(seed)
    s = impl.Migong(pie=swap, group_size=group_size)
    while True:
        assert s.color_of(s.to_move) == "blue"
        moves = s.legal_moves()
        if moves == ["pass"]:
            break
        m = rng.choice(moves)
        s.play(m)
        if swap and len(s.history) == 1:
            assert s.legal_moves()[-1] == "swap"
            s.play("swap")
        s.play(mirror(m))
    return s


@pytest.mark.parametrize("group_size", ["extent", "wedges"])
def test_zero_zero_last_mover_loses(impl, group_size):
    s = mirror_game(impl, swap=False, group_size=group_size)
    blue_moves = [m for m in s.history[0::2]]
    assert s.history[1::2] == [mirror(m) for m in blue_moves]
    assert s.last_mover == 1
    s.play("pass")  # Blue: forced
    assert not s.is_over and s.to_move == 1 and s.last_mover == 1
    assert s.legal_moves() == ["pass"]  # Yellow: forced too, by symmetry
    s.play("pass")
    assert s.is_over and s.to_move is None and s.legal_moves() == [] and s.legal_actions() == []
    groups = s.groups()
    signature = sorted((g.color, g.size, g.wedges) for g in groups)
    flipped = sorted(("yellow" if c == "blue" else "blue", n, w) for c, n, w in signature)
    assert signature == flipped
    assert s.scores() == (0, 0)
    assert s.last_mover == 1
    assert s.winner == 0  # Yellow (seat 1) made the last move and loses
    assert_rejected(s, "pass")
    assert_rejected(s, blue_moves[0])
    with pytest.raises(IllegalMoveError):
        s.apply_action(8065)
    # Undo at the end resumes the game.
    s.undo()
    assert not s.is_over and s.winner is None and s.legal_moves() == ["pass"]


def test_pie_swap(impl):
    s = impl.Migong()
    s.play("g4:BBBBBB")  # seat 0, Blue
    assert s.to_move == 1 and "swap" in s.legal_moves()
    assert s.legal_actions()[-1] == 8064
    s.play("swap")
    assert s.history == ["g4:BBBBBB", "swap"]
    assert s.color_of(0) == "yellow" and s.color_of(1) == "blue"
    assert s.to_move == 0 and s.last_mover == 1
    assert s.board() == {"pieces": {"g4": "BBBBBB"}}
    assert_rejected(s, "swap")  # only on seat 1's first turn
    assert_rejected(s, "j7:BBBBBB")  # seat 0 now plays Yellow's set
    s.play("j7:YYYYYY")  # seat 0, Yellow
    assert_rejected(s, "h4:BBBBBB")  # seat 1 plays Blue's set, BBBBBB already used
    assert_rejected(s, "h4:YYYYBY")  # h4's W wedge must match g4's B
    s.play("h4:BBBBBY")  # seat 1, Blue: joins g4 into a blue group of extent 2
    # Blue: one group of extent 2, holds 2. Yellow: j7 and h4's wedge 5, two groups of
    # extent 1, holds 1. Scores are per seat: seat 0 is Yellow.
    assert s.scores() == (1, 2)
    assert s.last_mover == 1 and s.to_move == 0 and s.color_of(s.to_move) == "yellow"
    assert "swap" not in s.legal_moves()
    # pie off: no swap.
    t = impl.Migong(pie=False)
    t.play("g4:BBBBBB")
    assert "swap" not in t.legal_moves()
    assert_rejected(t, "swap")


def test_pie_swap_full_game_winner_per_seat(impl):
    s = mirror_game(impl, swap=True)
    assert s.history[1] == "swap"
    assert s.color_of(0) == "yellow" and s.color_of(1) == "blue"
    # Seat 0 (Yellow) mirrored every Blue move, so seat 0 made the last move.
    assert s.last_mover == 0
    s.play("pass")
    s.play("pass")
    assert s.is_over and s.scores() == (0, 0)
    assert s.winner == 1


# --- actions ----------------------------------------------------------------------------


def test_action_numbering(impl):
    s = impl.Migong()
    expected = {
        "g1:BBBBBB": 0,
        "g1:YBBBBB": 1,
        "g1:BYBBBB": 2,
        "g1:BYBYBB": 10,  # Y on wedges 1 and 3
        "g1:YYYYYY": 63,
        "h1:BBBBBB": 64,
        "m1:BBBBBB": 6 * 64,
        "g2:BBBBBB": 8 * 64,  # row r=-5 starts at index 7 with f2 (q=-1)
        "a7:BBBBBB": 57 * 64,  # rows r=-6..-1 hold 7+8+9+10+11+12 = 57 cells
        "f7:BBBBBB": 62 * 64,
        "h7:BBBBBB": 63 * 64,
        "h7:BBBYBB": 63 * 64 + 8,
        "m7:BBBBBB": 68 * 64,
        "g8:BBBBBB": 75 * 64,  # row r=1 starts at 69 with a8 (q=-6)
        "g13:BBBBBB": 125 * 64,
        "g13:YYYYYY": 8063,
        "swap": 8064,
        "pass": 8065,
    }
    for move, action in expected.items():
        assert s.move_to_action(move) == action, move
        assert s.action_to_move(action) == move, action
    for a in range(0, 8066, 37):
        assert s.move_to_action(s.action_to_move(a)) == a
    assert NAMES[0] == "g1" and NAMES[125] == "g13" and NAMES[63] == "h7"
    assert [s.action_to_move(c * 64) for c in range(126)] == [n + ":BBBBBB" for n in NAMES]
    actions = s.legal_actions()
    assert actions == sorted(actions) and actions[0] == 10
    assert s.legal_moves() == [s.action_to_move(a) for a in actions]
    for bad in (-1, 8066, 10**9):
        with pytest.raises(IllegalMoveError):
            s.action_to_move(bad)
        with pytest.raises(IllegalMoveError):
            s.apply_action(bad)
    for bad in ("g7:BBBBBB", "a1:BBBBBB", "h7", "h7:BYB", "swap ", ""):
        with pytest.raises(IllegalMoveError):
            s.move_to_action(bad)
    s.apply_action(63 * 64 + 8)
    assert s.history == ["h7:BBBYBB"]
    t = impl.Migong()
    t.play("h7:BBBYBB")
    assert s == t


# --- bad input --------------------------------------------------------------------------


def test_bad_moves_leave_state_unchanged(impl):
    s = impl.Migong()
    assert_rejected(s, "swap")  # seat 0 at the start
    s.play("g4:BBBBBB")
    s.play("i4:YYYYYY")
    assert s.to_move == 0
    for bad in [
        "",  # malformed
        "h4",
        "h4:",
        ":BYBYBY",
        "h4:BYBYBY:",
        "h4-BYBYBY",
        "h4 BYBYBY",
        "H4:YYYBYY",
        "h4:yyybyy",
        "h4:YYYBY",  # malformed piece
        "h4:YYYBYYY",
        "h4:YYYBXY",
        "a1:BBBBBB",  # (-6,-6) is off the board
        "n7:BBBBBB",
        "h14:BBBBBB",
        "h0:BBBBBB",
        "g7:BBBBBB",  # the central border
        "g4:BYBYBY",  # occupied
        "d7:BBBBBB",  # already used
        "d7:YYYYYY",  # not in Blue's set
        "h4:BYBYBY",  # wedge mismatch with g4 and i4
        "g1:BBBBBB",  # rim mismatch
        "pass",  # Blue has moves
        "swap",  # not seat 1's first turn
        "resign",
    ]:
        assert_rejected(s, bad)
    for bad in (None, 5, b"h4:YYYBYY"):
        assert_rejected(s, bad)
    before = snapshot(s)
    for a in (-1, 8066, 8064, 8065, 0, 63, 28 * 64 + 63):
        with pytest.raises(IllegalMoveError):
            s.apply_action(a)
    assert snapshot(s)[1:] == before[1:]
    s.play("h4:YYYBYY")


def test_bad_constructor_params(impl):
    for kwargs, name in [
        ({"pie": 1}, "pie"),
        ({"pie": "yes"}, "pie"),
        ({"pie": None}, "pie"),
        ({"border": "red"}, "border"),
        ({"border": "Alternate"}, "border"),
        ({"border": None}, "border"),
        ({"border": "b" * 84}, "border"),
        ({"border": "BY" * 41 + "X" + "B"}, "border"),
        ({"border": "B" * 83}, "border"),
        ({"group_size": "size"}, "group_size"),
        ({"group_size": None}, "group_size"),
        ({"group_size": 1}, "group_size"),
    ]:
        with pytest.raises(ValueError) as info:
            impl.Migong(**kwargs)
        assert name in str(info.value)
    ok = impl.Migong(pie=False, border="yellow", group_size="wedges")
    assert ok.params == {"pie": False, "border": "yellow", "group_size": "wedges"}
    assert impl.Migong(**ok.params) == ok


# --- undo, copy, equality ----------------------------------------------------------------


def test_undo_and_copy(impl):
    s = impl.Migong()
    with pytest.raises(IndexError):
        s.undo()
    start = s.copy()
    s.play("g4:BBBBBB")
    after1 = s.copy()
    s.play("swap")
    s.play("j7:YYYYYY")
    c = s.copy()
    assert c == s and c is not s
    c.play("h4:BBBBBY")
    assert s.history == ["g4:BBBBBB", "swap", "j7:YYYYYY"]
    assert "j7" in s.board()["pieces"] and "h4" not in s.board()["pieces"]
    assert c != s
    s.undo()
    assert "YYYYYY" in s.remaining("yellow") and s.board() == {"pieces": {"g4": "BBBBBB"}}
    assert s.to_move == 0 and s.color_of(0) == "yellow"
    s.undo()  # takes back the swap
    assert s == after1 and s.color_of(0) == "blue" and s.to_move == 1 and s.last_mover == 0
    assert s.legal_moves()[-1] == "swap"
    s.undo()
    assert s == start and s.history == [] and s.last_mover is None
    assert "BBBBBB" in s.remaining("blue")
    with pytest.raises(IndexError):
        s.undo()
    # The copy lives on independently.
    assert c.history == ["g4:BBBBBB", "swap", "j7:YYYYYY", "h4:BBBBBY"]
    assert c.scores() == (1, 2)
    # Equality covers the parameters and the history; states are not hashable.
    assert impl.Migong() == impl.Migong()
    assert impl.Migong() != impl.Migong(pie=False)
    assert impl.Migong() != impl.Migong(group_size="wedges")
    assert impl.Migong(border="alternate") != impl.Migong(border="BYBYBY" * 14)
    with pytest.raises(TypeError):
        hash(impl.Migong())
