"""Nume rule tests, each outcome worked out by hand from docs/RULES.md and
docs/games/nume.md. Every test runs on the native engine and on the reference."""

from __future__ import annotations

import pytest

from moves import play_all
from territory.errors import IllegalMoveError

# Hex n=1 is a triangle of side 3 (sides alternate 1 and 3). Cells sorted by r, then q:
#   r=0: a1 (0,0), b1 (1,0), c1 (2,0);  r=1: a2 (0,1), b2 (1,1);  r=2: a3 (0,2)
HEX1_CELLS = ["a1", "b1", "c1", "a2", "b2", "a3"]


def plain_moves(game):
    """The legal moves without a number: exactly the empty cells next to a stone of the
    color to move (a neutral probe of adjacency)."""
    return {m for m in game.legal_moves() if "=" not in m}


def numbered_cells(game):
    return [m[:-2] for m in game.legal_moves() if m.endswith("=0")]


def snapshot(game):
    return (
        game.copy(),
        game.history,
        game.board(),
        game.to_move,
        game.legal_moves(),
        game.scores(),
        game.last_mover,
        game.is_over,
    )


def assert_unchanged(game, snap):
    copy, history, board, to_move, legal, scores, last_mover, is_over = snap
    assert game == copy
    assert game.history == history
    assert game.board() == board
    assert game.to_move == to_move
    assert game.legal_moves() == legal
    assert game.scores() == scores
    assert game.last_mover == last_mover
    assert game.is_over == is_over


def assert_illegal(game, move):
    snap = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    assert isinstance(info.value, ValueError)
    assert str(info.value)  # says why
    assert_unchanged(game, snap)


# ----------------------------------------------------------------------------- boards


@pytest.mark.parametrize("n, cells", [(1, 6), (2, 18), (3, 36), (4, 60)])
def test_hex_board_sizes(impl, n, cells):
    g = impl.Nume(n=n)
    assert len(numbered_cells(g)) == cells
    # Every cell is empty and every first stone starts a group: N * (N + 1) moves.
    assert len(g.legal_moves()) == cells * (cells + 1)
    assert g.num_actions == (cells + 2) ** 2


def test_hex_n1_cells_in_index_order(impl):
    assert numbered_cells(impl.Nume(n=1)) == HEX1_CELLS


def test_hex_n4_first_and_last_cells(impl):
    cells = numbered_cells(impl.Nume(n=4))
    # r=0 holds q=3..8 (d1..i1), r=1 holds q=2..8 (c2..i2), r=8 holds q=0..3 (a9..d9).
    assert cells[:7] == ["d1", "e1", "f1", "g1", "h1", "i1", "c2"]
    assert cells[-4:] == ["a9", "b9", "c9", "d9"]
    assert "a1" not in cells and "e5" in cells


@pytest.mark.parametrize("k", [2, 3, 9, 16])
def test_square_board_sizes(impl, k):
    g = impl.Nume(square=k)
    cells = numbered_cells(g)
    assert len(cells) == k * k
    assert cells[0] == "a1" and cells[1] == "b1" and cells[k] == "a2"
    assert g.num_actions == (k * k + 2) ** 2


def test_default_is_hex_n4(impl):
    assert len(numbered_cells(impl.Nume())) == 60


def test_hex_n4_centre_has_six_neighbours(impl):
    # e5 = (4, 4): neighbours (5,4) f5, (5,3) f4, (4,3) e4, (3,4) d5, (3,5) d6, (4,5) e6.
    g = play_all(impl.Nume(n=4), ["e5=0", "d1=0"])
    assert plain_moves(g) == {"f5", "f4", "e4", "d5", "d6", "e6"}


def test_hex_n4_corner_has_three_neighbours(impl):
    # d1 = (3, 0), z = 8: only e1 (4,0), c2 (2,1), d2 (3,1) are on the board.
    g = play_all(impl.Nume(n=4), ["d1=0", "e5=0"])
    assert plain_moves(g) == {"e1", "c2", "d2"}


def test_hex_n1_neighbours(impl):
    # b2 = (1,1) touches b1, c1, a2, a3 but not a1 (which is (-1,-1) away).
    g = play_all(impl.Nume(n=1), ["b2=0", "a1=0"])
    assert plain_moves(g) == {"b1", "c1", "a2", "a3"}
    # a1 = (0,0) touches b1 and a2 only.
    g = play_all(impl.Nume(n=1), ["a1=0", "a3=0"])
    assert plain_moves(g) == {"b1", "a2"}


def test_hex_axial_diagonals_not_adjacent(impl):
    # (q+1, r+1) and (q-1, r-1) are not hex neighbours: f6 and d4 from e5.
    g = play_all(impl.Nume(n=4), ["e5=0", "d1=0"])
    moves = g.legal_moves()
    assert "f6" not in moves and "f6=0" in moves
    assert "d4" not in moves and "d4=0" in moves
    with pytest.raises(IllegalMoveError):
        g.play("f6")


def test_square_neighbours_orthogonal_only(impl):
    g = play_all(impl.Nume(square=3), ["b2=0", "a1=0"])
    assert plain_moves(g) == {"b1", "a2", "c2", "b3"}
    g = play_all(impl.Nume(square=3), ["a1=0", "c3=0"])
    assert plain_moves(g) == {"b1", "a2"}  # b2 is diagonal


# ----------------------------------------------------------------------------- prices


def test_merge_of_three_groups_keeps_all_numbers(impl):
    g = impl.Nume(square=5)
    # Black a2=7, b1=2, c2=9 are three separate groups (pairwise diagonal); b2 joins them.
    play_all(g, ["a2=7", "e5=0", "b1=2", "e4", "c2=9", "e3"])
    assert [grp.size for grp in g.groups()] == [1, 1, 1, 3]
    g.play("b2")
    black, white = g.groups()
    assert black.color == "black"
    assert black.size == 4
    assert black.cells == ("b1", "a2", "b2", "c2")
    assert black.numbers == (2, 7, 9)  # cell order: b1 (1), a2 (5), c2 (7)
    assert black.price == 5  # max(|2-4|, |7-4|, |9-4|)
    assert white.color == "white"
    assert white.cells == ("e3", "e4", "e5")
    assert white.numbers == (0,)
    assert white.price == 3
    assert g.scores() == (5.5, 3.0)  # komi 0.5 to Black (seat 0)


def test_price_before_merge(impl):
    g = play_all(impl.Nume(square=5), ["a2=7", "e5=0", "b1=2", "e4", "c2=9", "e3"])
    # Black: b1 |2-1|=1, a2 |7-1|=6, c2 |9-1|=8 -> 15; White |0-3| = 3.
    prices = [(grp.cells, grp.price) for grp in g.groups()]
    assert prices == [(("b1",), 1), (("a2",), 6), (("c2",), 8), (("e3", "e4", "e5"), 3)]
    assert g.scores() == (15.5, 3.0)


def test_price_zero_when_number_equals_size(impl):
    g = play_all(impl.Nume(square=3), ["a1=2", "c3=0", "b1"])
    black = g.groups()[0]
    assert (black.cells, black.numbers, black.size, black.price) == (("a1", "b1"), (2,), 2, 0)
    assert g.scores() == (0.5, 1.0)


def test_number_larger_than_board(impl):
    g = impl.Nume(square=3)  # N = 9
    g.play("a1=100")
    assert g.history == ["a1=100"]
    assert g.groups()[0].numbers == (100,)
    assert g.groups()[0].price == 99
    assert g.scores() == (99.5, 0.0)
    assert "a1=100" not in impl.Nume(square=3).legal_moves()
    assert "a1=9" in impl.Nume(square=3).legal_moves()
    assert "a1=10" not in impl.Nume(square=3).legal_moves()
    with pytest.raises(IllegalMoveError):
        g.move_to_action("a1=100")


def test_number_limits(impl):
    g = impl.Nume(square=3)
    g.play("a1=2147483647")
    assert g.groups()[0].price == 2147483646
    assert_illegal(g, "c3=2147483648")
    g.play("c3=0")
    assert g.history == ["a1=2147483647", "c3=0"]


def test_number_missing_on_new_group(impl):
    g = impl.Nume(square=3)
    assert_illegal(g, "a1")
    g.play("a1=0")
    g.play("c3=4")
    assert_illegal(g, "c2")  # not next to black a1
    g.play("c2=1")


def test_number_given_when_joining(impl):
    g = play_all(impl.Nume(square=3), ["a1=0", "c3=4"])
    assert_illegal(g, "b1=3")
    assert_illegal(g, "a2=0")
    g.play("b1")
    assert g.groups()[0].cells == ("a1", "b1")


def test_stone_next_to_opponent_only_needs_number(impl):
    g = play_all(impl.Nume(square=3), ["a1=0"])
    # White b1 touches only a black stone: it creates a new white group.
    assert_illegal(g, "b1")
    g.play("b1=1")
    assert [grp.color for grp in g.groups()] == ["black", "white"]


# ----------------------------------------------------------------------------- end of game

FULL_2X2 = ["a1=1", "b2=1", "b1", "a2"]


def test_full_board_ends_game(impl):
    g = impl.Nume(square=2)
    play_all(g, FULL_2X2[:3])
    assert not g.is_over and g.to_move == 1 and g.winner is None
    g.play("a2")
    assert g.is_over
    assert g.to_move is None
    assert g.legal_moves() == []
    assert g.legal_actions() == []
    # Black {a1,b1} size 2 number 1: price 1; White {a2,b2}: price 1; komi 0.5 to Black.
    assert g.scores() == (1.5, 1.0)
    assert g.winner == 1
    assert g.last_mover == 1
    assert g.history == FULL_2X2
    for bad in ["a1", "a1=0", "komi 0.5 black", "side black", "pass"]:
        assert_illegal(g, bad)
    snap = snapshot(g)
    with pytest.raises(IllegalMoveError):
        g.apply_action(0)
    assert_unchanged(g, snap)


def test_scores_are_floats(impl):
    g = impl.Nume(square=2)
    assert g.scores() == (0.5, 0.0)
    assert all(isinstance(s, float) for s in g.scores())
    g = impl.Nume(square=2, komi=None)
    assert g.scores() == (0.0, 0.0)
    assert all(isinstance(s, float) for s in g.scores())


def test_komi_to_white(impl):
    g = play_all(impl.Nume(square=2, komi_to="white"), FULL_2X2)
    assert g.komi == (0.5, "white")
    assert g.scores() == (1.0, 1.5)
    assert g.winner == 0


def test_large_komi_to_black(impl):
    g = play_all(impl.Nume(square=2, komi=3.5), FULL_2X2)
    assert g.scores() == (4.5, 1.0)
    assert g.winner == 1


def test_komi_none_draw(impl):
    g = play_all(impl.Nume(square=2, komi=None), FULL_2X2)
    assert g.komi is None
    assert g.scores() == (1.0, 1.0)
    assert g.is_over
    assert g.winner is None


def test_komi_none_decisive(impl):
    # Black a1=3 alone then joined: size 2, price 1; White b2=0 joined: size 2, price 2.
    g = play_all(impl.Nume(square=2, komi=None), ["a1=3", "b2=0", "b1", "a2"])
    assert g.scores() == (1.0, 2.0)
    assert g.winner == 0


# ----------------------------------------------------------------------------- komi phase


def test_komi_phase_choices(impl):
    g = impl.Nume(square=2, komi=7.5, komi_to="white", komi_phase=True)  # N = 4
    assert g.komi is None  # creation komi not used
    assert g.scores() == (0.0, 0.0)
    assert g.to_move == 0
    assert (g.color_of(0), g.color_of(1)) == ("black", "white")
    assert g.legal_moves() == [
        f"komi {k}.5 {c}" for k in range(5) for c in ("black", "white")
    ]
    assert g.legal_actions() == list(range(24, 34))
    g.play("komi 1.5 white")
    assert g.komi == (1.5, "white")
    assert g.to_move == 1 and g.last_mover == 0
    assert g.legal_moves() == ["side black", "side white"]
    assert g.legal_actions() == [34, 35]
    g.play("side black")
    assert g.last_mover == 1
    assert (g.color_of(0), g.color_of(1)) == ("white", "black")
    assert g.to_move == 1  # Black places the first stone
    assert g.scores() == (1.5, 0.0)
    play_all(g, FULL_2X2)
    # Black (seat 1) 1; White (seat 0) 1 + 1.5.
    assert g.scores() == (2.5, 1.0)
    assert g.winner == 1
    assert g.last_mover == 0
    assert g.history == ["komi 1.5 white", "side black"] + FULL_2X2


def test_komi_phase_side_white(impl):
    g = impl.Nume(square=2, komi_phase=True)
    play_all(g, ["komi 1.5 white", "side white"])
    assert (g.color_of(0), g.color_of(1)) == ("black", "white")
    assert g.to_move == 0
    play_all(g, FULL_2X2)
    # Same stones, but now seat 1 is White and carries the komi.
    assert g.scores() == (1.0, 2.5)
    assert g.winner == 0


def test_komi_phase_komi_for_black(impl):
    g = play_all(impl.Nume(square=2, komi_phase=True), ["komi 0.5 black", "side black"])
    play_all(g, FULL_2X2)
    assert g.scores() == (1.0, 1.5)  # seat 0 White 1; seat 1 Black 1 + 0.5
    assert g.winner == 0


def test_komi_phase_errors(impl):
    g = impl.Nume(square=2, komi_phase=True)
    for bad in ["a1=0", "a1", "side black", "komi 2.0 white", "komi 2 white",
                "komi 5.5 black", "komi 0.5 red", "komi 0.5  black", "komi 02.5 black",
                "Komi 0.5 black", "komi -0.5 black", "komi 0.5 black "]:
        assert_illegal(g, bad)
    g.play("komi 4.5 black")
    for bad in ["komi 0.5 black", "a1=0", "side red", "side"]:
        assert_illegal(g, bad)
    g.play("side white")
    for bad in ["side white", "side black", "komi 0.5 black"]:
        assert_illegal(g, bad)
    g.play("a1=0")


def test_komi_moves_without_phase(impl):
    g = impl.Nume(square=2)
    assert_illegal(g, "komi 0.5 black")
    assert_illegal(g, "side black")
    snap = snapshot(g)
    for a in [24, 34, 35]:
        with pytest.raises(IllegalMoveError):
            g.apply_action(a)
        assert_unchanged(g, snap)


def test_komi_phase_undo(impl):
    g = play_all(impl.Nume(square=2, komi_phase=True), ["komi 1.5 white", "side black", "a1=0"])
    g.undo()
    assert g.to_move == 1 and g.color_of(1) == "black"
    g.undo()
    assert g.to_move == 1 and g.color_of(1) == "white" and g.color_of(0) == "black"
    assert g.komi == (1.5, "white")
    g.undo()
    assert g.komi is None and g.to_move == 0 and g.last_mover is None
    assert g == impl.Nume(square=2, komi_phase=True)


# ----------------------------------------------------------------------------- actions


def test_action_numbering_square3(impl):
    g = impl.Nume(square=3)  # N = 9, K = 99, S = 119
    expected = {
        0: "a1", 1: "b1", 3: "a2", 8: "c3",
        9: "a1=0", 18: "a1=9", 19: "b1=0", 98: "c3=9",
        99: "komi 0.5 black", 100: "komi 0.5 white", 101: "komi 1.5 black",
        117: "komi 9.5 black", 118: "komi 9.5 white",
        119: "side black", 120: "side white",
    }
    assert g.num_actions == 121
    for a, m in expected.items():
        assert g.action_to_move(a) == m
        assert g.move_to_action(m) == a


def test_action_numbering_hex1(impl):
    g = impl.Nume(n=1)  # N = 6, K = 48, S = 62
    expected = {
        0: "a1", 5: "a3", 6: "a1=0", 12: "a1=6", 13: "b1=0", 47: "a3=6",
        48: "komi 0.5 black", 61: "komi 6.5 white", 62: "side black", 63: "side white",
    }
    assert g.num_actions == 64
    for a, m in expected.items():
        assert g.action_to_move(a) == m
        assert g.move_to_action(m) == a


def test_action_numbering_hex4(impl):
    g = impl.Nume(n=4)  # N = 60, K = 3720, S = 3842
    assert g.num_actions == 3844
    expected = {0: "d1", 59: "d9", 60: "d1=0", 120: "d1=60", 121: "e1=0",
                3719: "d9=60", 3720: "komi 0.5 black", 3841: "komi 60.5 white",
                3842: "side black", 3843: "side white"}
    for a, m in expected.items():
        assert g.action_to_move(a) == m
        assert g.move_to_action(m) == a


def test_action_round_trip_all(impl):
    g = impl.Nume(n=1)
    for a in range(g.num_actions):
        assert g.move_to_action(g.action_to_move(a)) == a


def test_actions_without_mapping(impl):
    g = impl.Nume(n=1)
    for a in [-1, 64, 10**6]:
        with pytest.raises(IllegalMoveError):
            g.action_to_move(a)
        with pytest.raises(IllegalMoveError):
            g.apply_action(a)
    for m in ["a1=7", "komi 7.5 black", "d1", "a1=-1", "garbage", "pass"]:
        with pytest.raises(IllegalMoveError):
            g.move_to_action(m)


def test_legal_moves_follow_action_order(impl):
    g = play_all(impl.Nume(square=3), ["a1=0", "c3=0"])
    moves, actions = g.legal_moves(), g.legal_actions()
    # Plain b1 (1), a2 (3) first, then numbered c1, b2, c2, a3, b3 (cells 2, 4, 5, 6, 7).
    assert actions[:2] == [1, 3]
    assert actions[2:] == [9 + c * 10 + w for c in (2, 4, 5, 6, 7) for w in range(10)]
    assert moves[:4] == ["b1", "a2", "c1=0", "c1=1"]
    assert moves == [g.action_to_move(a) for a in actions]
    assert len(moves) == 52


def test_apply_action(impl):
    g = impl.Nume(square=2)
    assert g.legal_actions() == list(range(4, 24))
    g.apply_action(4 + 0 * 5 + 1)  # a1=1
    g.apply_action(4 + 3 * 5 + 1)  # b2=1
    assert g.history == ["a1=1", "b2=1"]
    assert g.legal_actions() == [1, 2]
    assert g.legal_moves() == ["b1", "a2"]
    snap = snapshot(g)
    for bad in [0, 3, 4 + 1 * 5, 4 + 0 * 5 + 1, 24, 34]:  # occupied/number/phase
        with pytest.raises(IllegalMoveError):
            g.apply_action(bad)
        assert_unchanged(g, snap)
    g.apply_action(1)
    g.apply_action(2)
    assert g.is_over and g.history == FULL_2X2


# ----------------------------------------------------------------------------- bad input


BAD_MOVES = [
    "", "e5=1", "e5", "z1=0", "a1=0", "j1=0", "e10=0", "e0=0", "E4", "F6=0",
    "f5=2", "f6", "f6=-1", "f6=1.5", "f6=x", "f6=", "f6=2147483648", "f6 =1",
    " f6=1", "f6=1 ", "f6=+1", "f6=1=2", "f6==1", "pass", "swap", "komi 0.5 black",
    "side black", "f6-f7", "e5xf5", "f 6=1",
]


@pytest.mark.parametrize("move", BAD_MOVES)
def test_bad_move_rejected_state_unchanged(impl, move):
    g = play_all(impl.Nume(n=4), ["e5=3", "d1=0"])  # Black to move
    assert_illegal(g, move)


def test_leading_zero_number_not_canonical(impl):
    g = impl.Nume(square=3)
    assert_illegal(g, "a1=05")
    assert_illegal(g, "a1=00")
    g.play("a1=0")


BAD_PARAMS = [
    ({"n": 0}, "n"), ({"n": 9}, "n"), ({"n": True}, "n"), ({"n": 4.0}, "n"),
    ({"n": "4"}, "n"), ({"n": None}, "n"),
    ({"square": 1}, "square"), ({"square": 17}, "square"), ({"square": True}, "square"),
    ({"square": 3.0}, "square"), ({"square": "9"}, "square"), ({"square": 0}, "square"),
    ({"komi": 2.0}, "komi"), ({"komi": "0.5"}, "komi"), ({"komi": -0.5}, "komi"),
    ({"komi": 1}, "komi"), ({"komi": True}, "komi"), ({"komi": float("nan")}, "komi"),
    ({"komi": float("inf")}, "komi"), ({"komi": 0.25}, "komi"),
    ({"komi": 2**31 + 1.5}, "komi"),
    ({"komi_to": "red"}, "komi_to"), ({"komi_to": "Black"}, "komi_to"),
    ({"komi_to": None}, "komi_to"),
    ({"komi_phase": 1}, "komi_phase"), ({"komi_phase": "yes"}, "komi_phase"),
    ({"komi_phase": None}, "komi_phase"),
]


@pytest.mark.parametrize("kwargs, name", BAD_PARAMS)
def test_bad_constructor_params(impl, kwargs, name):
    with pytest.raises(ValueError) as info:
        impl.Nume(**kwargs)
    assert name in str(info.value)


def test_edge_constructor_params(impl):
    assert len(numbered_cells(impl.Nume(n=8))) == 3 * 8 * 9
    assert len(numbered_cells(impl.Nume(square=16))) == 256
    assert impl.Nume(komi=2**31 + 0.5).komi == (2**31 + 0.5, "black")
    assert impl.Nume(komi=None).komi is None
    assert impl.Nume(komi=2.5, komi_to="white").komi == (2.5, "white")


def test_params(impl):
    g = impl.Nume()
    assert g.params == {"n": 4, "square": None, "komi": 0.5, "komi_to": "black",
                        "komi_phase": False}
    h = impl.Nume(n=2, square=5, komi=None, komi_to="white", komi_phase=True)
    assert h.params == {"n": 2, "square": 5, "komi": None, "komi_to": "white",
                        "komi_phase": True}
    assert impl.Nume(**h.params) == h
    assert impl.Nume.game == "nume" and g.game == "nume"


# ----------------------------------------------------------------------------- state API


def test_undo(impl):
    g = impl.Nume(square=2)
    with pytest.raises(IndexError):
        g.undo()
    play_all(g, FULL_2X2)
    g.undo()
    assert not g.is_over and g.to_move == 1 and g.winner is None
    assert g.history == FULL_2X2[:3]
    assert g.last_mover == 0
    assert g == play_all(impl.Nume(square=2), FULL_2X2[:3])
    g.undo()
    g.undo()
    assert g.history == ["a1=1"] and g.to_move == 1
    assert g.legal_moves()[0] == "b1=0"
    g.undo()
    assert g == impl.Nume(square=2)
    assert g.last_mover is None and g.board() == {"stones": {}}
    with pytest.raises(IndexError):
        g.undo()


def test_undo_restores_number_rule(impl):
    g = play_all(impl.Nume(square=3), ["a1=0", "c3=0", "b1"])
    g.undo()
    assert "b1" in g.legal_moves()
    g.undo()
    assert g.to_move == 1 and "c3=0" in g.legal_moves()


def test_copy_is_independent(impl):
    g = play_all(impl.Nume(square=3), ["a1=0", "c3=0"])
    c = g.copy()
    assert c == g and c is not g
    c.play("b1")
    assert c != g
    assert g.history == ["a1=0", "c3=0"] and c.history == ["a1=0", "c3=0", "b1"]
    assert "b1" not in g.board()["stones"]
    g.play("a2")
    assert c.history == ["a1=0", "c3=0", "b1"]


def test_history_is_a_fresh_list(impl):
    g = play_all(impl.Nume(square=3), ["a1=0"])
    h = g.history
    h.append("junk")
    assert g.history == ["a1=0"]


def test_equality(impl):
    a = play_all(impl.Nume(square=3), ["a1=0", "c3=0"])
    b = play_all(impl.Nume(square=3), ["a1=0", "c3=0"])
    assert a == b
    assert impl.Nume() == impl.Nume()
    assert impl.Nume() != impl.Nume(komi=1.5)
    assert impl.Nume(square=3) != impl.Nume(square=4)
    # Same position reached in another order: histories differ.
    c = play_all(impl.Nume(square=3), ["a1=0", "c3=0", "b1", "b3", "a2", "c2"])
    d = play_all(impl.Nume(square=3), ["a1=0", "c3=0", "a2", "c2", "b1", "b3"])
    assert c.board() == d.board()
    assert c != d


def test_board_snapshot_and_groups_order(impl):
    g = play_all(impl.Nume(square=3), ["c1=4", "a1=1", "c2", "b1"])
    assert g.board() == {"stones": {"a1": ("white", 1), "b1": ("white", None),
                                    "c1": ("black", 4), "c2": ("black", None)}}
    assert list(g.board()["stones"]) == ["a1", "b1", "c1", "c2"]
    groups = g.groups()
    assert [(x.color, x.cells, x.numbers, x.price) for x in groups] == [
        ("white", ("a1", "b1"), (1,), 1),
        ("black", ("c1", "c2"), (4,), 2),
    ]
    assert g.scores() == (2.5, 1.0)


def test_color_of_and_to_move(impl):
    g = impl.Nume(square=3)
    assert g.to_move == 0 and g.color_of(0) == "black" and g.color_of(1) == "white"
    g.play("a1=0")
    assert g.to_move == 1 and g.last_mover == 0
    g.play("c3=0")
    assert g.to_move == 0 and g.last_mover == 1
