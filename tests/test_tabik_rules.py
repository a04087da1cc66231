"""Tabik rule tests (docs/RULES.md, docs/games/tabik.md), run on every implementation.

Every expected value below was worked out by hand from the rules, not by running an
engine. Boards are drawn with row 1 at the bottom, as on a chess board.
"""

from __future__ import annotations

import pytest

from moves import play_all
from territory.errors import IllegalMoveError

# A complete 3 x 3 game (no pie swap), worked out by hand.
#
#   after the four placements        after the six stone swaps (final)
#   3  B W .                         3  W B .
#   2  W W B                         2  W B W
#   1  B B W                         1  W B B
#      a b c                            a b c
#
# Final groups: black {b1, c1, b2, b3} (size 4); white {a1, a2, a3} (size 3, joined across
# the rods a1|a2 and a2|a3: rods do not split groups) and {c2} (size 1).
# Black holds 4; white holds 3 and 1. Black 4, white 3.
PLACEMENTS_3X3 = ["a1-a2", "b1-c1", "c2-b2", "a3-b3"]
STONE_SWAPS_3X3 = ["b1xb2", "a1xb1", "c1xc2", "a2xa3", "b2xb3", "a2xb2"]
GAME_3X3 = PLACEMENTS_3X3 + STONE_SWAPS_3X3


def snapshot(state):
    """Everything observable about a state, for 'unchanged' / 'restored' checks."""
    return (
        state.history,
        state.legal_moves(),
        state.legal_actions(),
        state.board(),
        state.groups(),
        state.scores(),
        state.to_move,
        state.is_over,
        state.winner,
        state.last_mover,
        state.color_of(0),
        state.color_of(1),
    )


# --------------------------------------------------------------------- construction


def test_defaults(impl):
    s = impl.Tabik()
    assert s.game == "tabik"
    assert s.params == {"size": 8, "pie": True}
    assert s.num_actions == 338
    assert s.to_move == 0
    assert s.color_of(0) == "black" and s.color_of(1) == "white"
    assert s.history == []
    assert s.last_mover is None
    assert not s.is_over and s.winner is None
    assert s.scores() == (0, 0)
    assert s.groups() == []
    assert s.board() == {"stones": {}, "rods": []}
    # every placement, both colourings, on each of the 112 edges
    assert len(s.legal_moves()) == 224
    assert s.legal_actions() == list(range(224))


@pytest.mark.parametrize("size", [0, 1, -3, "8", 17, True, 8.0, None])
def test_bad_size_rejected(impl, size):
    with pytest.raises(ValueError, match="size"):
        impl.Tabik(size=size)


@pytest.mark.parametrize("pie", ["yes", 1, 0, None])
def test_bad_pie_rejected(impl, pie):
    with pytest.raises(ValueError, match="pie"):
        impl.Tabik(pie=pie)


def test_size_bounds_accepted(impl):
    assert impl.Tabik(size=2).num_actions == 3 * 4 + 2
    assert impl.Tabik(size=16, pie=False).params == {"size": 16, "pie": False}


# --------------------------------------------------------------------- action numbering


def test_action_numbering_3x3(impl):
    s = impl.Tabik(size=3)
    # E = 2 * 3 * 2 = 12 edges; horizontal edges 0..5, vertical edges 6..11.
    assert s.num_actions == 38
    expected = {
        0: "a1-b1",   # edge 0 = a1|b1, black on first
        1: "b1-a1",   # black on second
        6: "b2-c2",   # edge 3 = b2|c2 (r=1, c=1: 1*2+1)
        7: "c2-b2",
        10: "b3-c3",  # edge 5 = b3|c3
        12: "a1-a2",  # edge 6 = a1|a2 (3*2 + 0)
        20: "b2-b3",  # edge 10 = b2|b3 (6 + 1*3 + 1)
        21: "b3-b2",
        23: "c3-c2",  # edge 11 = c2|c3, black on second
        24: "a1xb1",  # 2E + 0
        27: "b2xc2",  # 2E + 3
        30: "a1xa2",  # 2E + 6
        35: "c2xc3",  # 2E + 11
        36: "swap",
        37: "pass",
    }
    for action, move in expected.items():
        assert s.action_to_move(action) == move
        assert s.move_to_action(move) == action


def test_action_numbering_8x8(impl):
    s = impl.Tabik()
    assert s.action_to_move(0) == "a1-b1"
    assert s.action_to_move(110) == "g8-h8"      # edge 55 = g8|h8 (7*7 + 6)
    assert s.action_to_move(112) == "a1-a2"      # edge 56 = a1|a2 (8*7 + 0)
    assert s.action_to_move(223) == "h8-h7"      # edge 111 = h7|h8, black on second
    assert s.action_to_move(280) == "a1xa2"      # 224 + 56
    assert s.action_to_move(335) == "h7xh8"      # 224 + 111
    assert s.action_to_move(336) == "swap"
    assert s.action_to_move(337) == "pass"
    assert s.move_to_action("b1xa1") == s.move_to_action("a1xb1") == 224


def test_action_conversion_out_of_range(impl):
    s = impl.Tabik(size=3)
    for bad in (-1, 38, 1000):
        with pytest.raises(IllegalMoveError):
            s.action_to_move(bad)
    for bad in ("d1-c1", "a1-c1", "hello", "a1 - b1"):
        with pytest.raises(IllegalMoveError):
            s.move_to_action(bad)


def test_legal_moves_and_actions_correspond(impl):
    s = play_all(impl.Tabik(size=3), PLACEMENTS_3X3)
    actions = s.legal_actions()
    assert actions == sorted(actions)
    assert s.legal_moves() == [s.action_to_move(a) for a in actions]
    # Only c3 is empty and its neighbours are occupied: no placement. Stone swaps:
    # b1(B)|b2(W) edge 7, c1(W)|c2(B) edge 8, a2(W)|a3(B) edge 9.
    assert s.legal_moves() == ["b1xb2", "c1xc2", "a2xa3"]
    assert actions == [31, 32, 33]


# --------------------------------------------------------------------- scoring


def test_scores_mid_game(impl):
    s = play_all(impl.Tabik(size=3), PLACEMENTS_3X3)
    # 3  B W .    black: {a1,b1} size 2, {c2} size 1, {a3} size 1
    # 2  W W B    white: {a2,b2,b3} size 3, {c1} size 1
    # 1  B B W    black holds 2 and 1 -> 2; white holds 3 -> 3
    assert s.scores() == (2, 3)
    assert not s.is_over and s.winner is None
    assert s.groups()[0].color == "black" and s.groups()[0].cells == ("a1", "b1")
    # after the pie swap at the same position the seats' scores are exchanged
    t = play_all(impl.Tabik(size=3), ["a1-a2", "swap", "b1-c1", "c2-b2", "a3-b3"])
    assert t.board() == s.board()
    assert t.scores() == (3, 2)


def test_size_held_by_side_with_fewer_groups(impl):
    # Both colours always have the same number of stones in Tabik (a placement adds one
    # of each, a stone swap keeps both counts), so what decides is the number of groups
    # of each size, not the number of stones.
    s = play_all(impl.Tabik(size=4), ["a1-b1", "c2-c1"])
    # black: a1, c2 (two groups of size 1); white: {b1, c1} (one group of size 2)
    assert s.scores() == (1, 2)

    s = play_all(impl.Tabik(size=4), ["a1-a2", "b1-b2", "c1-c2", "d2-d1"])
    # 2  W W W B    black {a1,b1,c1} 3, {d2} 1; white {a2,b2,c2} 3, {d1} 1:
    # 1  B B B W    every size tied -> nobody holds anything
    assert s.scores() == (0, 0)
    s.play("c1xd1")
    # 2  W W W B    black {a1,b1} 2, {d1,d2} 2; white {c1,a2,b2,c2} 4
    # 1  B B W B    black holds 2 (two groups against none), white holds 4
    assert s.scores() == (2, 4)
    groups = s.groups()
    assert [(g.color, g.size, g.cells) for g in groups] == [
        ("black", 2, ("a1", "b1")),
        ("white", 4, ("c1", "a2", "b2", "c2")),
        ("black", 2, ("d1", "d2")),
    ]
    # it is seat 1's turn; the scores stay per seat, not per side to move
    assert s.to_move == 1


def test_groups_are_not_split_by_rods(impl):
    s = play_all(impl.Tabik(size=3), GAME_3X3)
    assert [(g.color, g.size, g.cells) for g in s.groups()] == [
        ("white", 3, ("a1", "a2", "a3")),
        ("black", 4, ("b1", "c1", "b2", "b3")),
        ("white", 1, ("c2",)),
    ]
    assert s.board() == {
        "stones": {
            "a1": "white", "b1": "black", "c1": "black",
            "a2": "white", "b2": "black", "c2": "white",
            "a3": "white", "b3": "black",
        },
        "rods": [
            ("a1", "b1"), ("b1", "c1"), ("a2", "b2"), ("b2", "c2"), ("a3", "b3"),
            ("a1", "a2"), ("b1", "b2"), ("c1", "c2"), ("a2", "a3"), ("b2", "b3"),
        ],
    }


# --------------------------------------------------------------------- passes and end


def test_forced_pass_then_two_passes_end_the_game(impl):
    s = play_all(impl.Tabik(size=2, pie=False), ["a1-b1", "a2-b2"])
    # 2  B W   rods a1|b1, a2|b2; a1|a2 and b1|b2 join like colours: no move left.
    # 1  B W
    assert not s.is_over
    assert s.to_move == 0
    assert s.legal_moves() == ["pass"]
    assert s.legal_actions() == [13]
    s.play("pass")
    assert not s.is_over
    assert s.to_move == 1
    assert s.legal_moves() == ["pass"]
    assert s.winner is None
    s.play("pass")
    assert s.is_over
    assert s.to_move is None
    assert s.legal_moves() == [] and s.legal_actions() == []
    # black {a1,a2} 2 and white {b1,b2} 2: tied at 0; seat 1 made the last move and loses
    assert s.scores() == (0, 0)
    assert s.last_mover == 1
    assert s.winner == 0
    assert s.history == ["a1-b1", "a2-b2", "pass", "pass"]


def test_two_by_two_played_out(impl):
    s = impl.Tabik(size=2)
    s.play("a1-b1")
    assert s.legal_moves() == ["a2-b2", "b2-a2", "swap"]
    s.play("b2-a2")
    # 2  W B   swaps possible across a1|a2 and b1|b2
    # 1  B W
    assert s.legal_moves() == ["a1xa2", "b1xb2"]
    s.play("a2xa1")  # the other order is accepted, stored canonically
    # 2  B B
    # 1  W W
    assert s.scores() == (0, 0)
    assert s.legal_moves() == ["b1xb2"]
    s.play("b1xb2")
    # 2  B W   four single stones each side, all four rods placed
    # 1  W B
    assert s.legal_moves() == ["pass"]
    s.play("pass")
    s.play("pass")
    assert s.is_over
    assert s.history == ["a1-b1", "b2-a2", "a1xa2", "b1xb2", "pass", "pass"]
    assert s.board() == {
        "stones": {"a1": "white", "b1": "black", "a2": "black", "b2": "white"},
        "rods": [("a1", "b1"), ("a2", "b2"), ("a1", "a2"), ("b1", "b2")],
    }
    assert s.scores() == (0, 0)
    assert s.last_mover == 1
    assert s.winner == 0


def test_tie_lost_by_seat_whose_stone_swap_was_last(impl):
    # The same 2 x 2 game with the pie swap inserted: now seat 0 makes the final stone swap.
    s = play_all(impl.Tabik(size=2), ["a1-b1", "swap", "b2-a2", "a1xa2", "b1xb2"])
    assert s.legal_moves() == ["pass"]
    play_all(s, ["pass", "pass"])
    assert s.is_over
    assert s.scores() == (0, 0)
    assert s.last_mover == 0
    assert s.winner == 1


def test_pie_swap_counts_as_last_move(impl):
    s = impl.Tabik(size=2)
    s.play("a1-b1")
    assert s.last_mover == 0
    s.play("swap")
    # the pie swap is a move (not a pass), attributed to seat 1
    assert s.last_mover == 1
    assert not s.is_over
    assert s.to_move == 0
    # (a game can never end right after the pie swap: after one placement two adjacent
    # squares are still empty on any board, so the tie-break from it cannot be reached
    # in a finished game; the stone-swap tests cover the tie-break itself)
    assert "pass" not in s.legal_moves()
    s.play("a2-b2")
    assert s.last_mover == 0
    play_all(s, ["pass", "pass"])
    assert s.last_mover == 0
    # black {a1,a2}, white {b1,b2}: 0-0; seat 0 made the last move and loses
    assert s.scores() == (0, 0)
    assert s.winner == 1


# --------------------------------------------------------------------- pie rule


def test_pie_swap_changes_colours_and_winner(impl):
    plain = play_all(impl.Tabik(size=3), GAME_3X3)
    assert plain.legal_moves() == ["pass"]
    play_all(plain, ["pass", "pass"])
    assert plain.is_over
    assert plain.color_of(0) == "black"
    assert plain.scores() == (4, 3)
    assert plain.last_mover == 1
    assert plain.winner == 0

    swapped = impl.Tabik(size=3)
    swapped.play(GAME_3X3[0])
    assert "swap" in swapped.legal_moves()
    assert swapped.legal_actions()[-1] == 36
    swapped.play("swap")
    assert swapped.color_of(0) == "white" and swapped.color_of(1) == "black"
    assert swapped.to_move == 0
    play_all(swapped, GAME_3X3[1:] + ["pass", "pass"])
    assert swapped.is_over
    assert swapped.board() == plain.board()
    assert swapped.color_of(0) == "white" and swapped.color_of(1) == "black"
    assert swapped.scores() == (3, 4)
    assert swapped.last_mover == 0
    assert swapped.winner == 1


def test_swap_only_on_seat_1_first_turn(impl):
    s = impl.Tabik(size=3)
    assert "swap" not in s.legal_moves()
    s.play("a1-b1")
    assert "swap" in s.legal_moves()
    s.play("a2-b2")
    assert "swap" not in s.legal_moves()
    s.play("a3-b3")
    assert "swap" not in s.legal_moves()

    off = impl.Tabik(size=3, pie=False)
    off.play("a1-b1")
    assert "swap" not in off.legal_moves()
    with pytest.raises(IllegalMoveError, match="(?i)swap|pie"):
        off.play("swap")


# --------------------------------------------------------------------- stone swaps


def test_stone_swap_blocked_by_rod(impl):
    s = play_all(impl.Tabik(size=3), ["a1-a2", "b2-b1"])
    # 2  W B    a1|a2 and b1|b2 carry rods; a1|b1 and a2|b2 do not
    # 1  B W
    moves = s.legal_moves()
    assert "a1xa2" not in moves and "b1xb2" not in moves
    assert "a1xb1" in moves and "a2xb2" in moves
    before = snapshot(s)
    for bad in ("a1xa2", "a2xa1", "b1xb2", "b2xb1"):
        with pytest.raises(IllegalMoveError, match="(?i)rod"):
            s.play(bad)
        assert snapshot(s) == before
    with pytest.raises(IllegalMoveError):
        s.apply_action(s.move_to_action("a1xa2"))
    assert snapshot(s) == before
    s.play("a2xb2")
    assert s.board()["stones"]["a2"] == "black" and s.board()["stones"]["b2"] == "white"
    assert s.history[-1] == "a2xb2"


def test_stone_swap_of_like_colours_rejected(impl):
    s = play_all(impl.Tabik(size=3), ["a1-a2", "b1-b2"])
    # 2  W W
    # 1  B B
    before = snapshot(s)
    for bad in ("a1xb1", "b1xa1", "a2xb2"):
        with pytest.raises(IllegalMoveError, match="(?i)colou?r"):
            s.play(bad)
        assert snapshot(s) == before


# --------------------------------------------------------------------- bad input


def _mid_game(impl):
    # 3  B W .
    # 2  W W B
    # 1  B B W     seat 0 to move; legal: b1xb2, c1xc2, a2xa3
    return play_all(impl.Tabik(size=3), PLACEMENTS_3X3)


@pytest.mark.parametrize(
    "move",
    ["", "a1", "a1-", "-a1", "A1-A2", "a1 - b1", " pass", "Pass", "a01xa2", "a1=b1",
     "a1-b1-c1", "1a-2a", "foo", "swap!", "a1xb1x"],
)
def test_malformed_move_rejected(impl, move):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError):
        s.play(move)
    assert snapshot(s) == before


@pytest.mark.parametrize("move", [None, 5, b"pass", ("a1", "a2")])
def test_non_string_move_rejected(impl, move):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError):
        s.play(move)
    assert snapshot(s) == before


@pytest.mark.parametrize("move", ["d1-c1", "c4-c3", "a0-a1", "c3xd3", "z9xz8"])
def test_off_board_square_rejected(impl, move):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError, match="(?i)off|board"):
        s.play(move)
    assert snapshot(s) == before


@pytest.mark.parametrize("move", ["a1-c1", "a1-b2", "a1-a1", "a1xc3", "c3xa1", "b1xb3"])
def test_non_adjacent_squares_rejected(impl, move):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError, match="(?i)adjacent"):
        s.play(move)
    assert snapshot(s) == before


@pytest.mark.parametrize("move", ["c3-b3", "b3-c3", "c2-c3", "a1-b1"])
def test_placement_on_occupied_square_rejected(impl, move):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError, match="(?i)occupied"):
        s.play(move)
    assert snapshot(s) == before


@pytest.mark.parametrize("move", ["b3xc3", "c3xb3", "c2xc3"])
def test_stone_swap_with_empty_square_rejected(impl, move):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError, match="(?i)empty"):
        s.play(move)
    assert snapshot(s) == before
    fresh = impl.Tabik(size=3)
    with pytest.raises(IllegalMoveError, match="(?i)empty"):
        fresh.play("a1xa2")
    assert fresh.history == []


def test_pass_rejected_when_a_move_exists(impl):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError, match="(?i)pass"):
        s.play("pass")
    assert snapshot(s) == before
    fresh = impl.Tabik(size=2)
    with pytest.raises(IllegalMoveError, match="(?i)pass"):
        fresh.play("pass")
    assert fresh.history == []


def test_swap_rejected_when_not_allowed(impl):
    fresh = impl.Tabik(size=3)
    with pytest.raises(IllegalMoveError, match="(?i)swap"):
        fresh.play("swap")  # seat 0's first turn
    assert fresh.history == [] and fresh.color_of(0) == "black"
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError, match="(?i)swap"):
        s.play("swap")  # too late
    assert snapshot(s) == before
    once = play_all(impl.Tabik(size=3), ["a1-b1", "swap"])
    before = snapshot(once)
    with pytest.raises(IllegalMoveError, match="(?i)swap"):
        once.play("swap")  # seat 0 cannot swap back
    assert snapshot(once) == before


def test_moves_after_game_over_rejected(impl):
    s = play_all(impl.Tabik(size=2, pie=False), ["a1-b1", "a2-b2", "pass", "pass"])
    assert s.is_over
    before = snapshot(s)
    for move in ("pass", "swap", "a1xa2"):
        with pytest.raises(IllegalMoveError):
            s.play(move)
        assert snapshot(s) == before
    with pytest.raises(IllegalMoveError, match="(?i)over"):
        s.play("pass")
    with pytest.raises(IllegalMoveError):
        s.apply_action(13)
    assert snapshot(s) == before


@pytest.mark.parametrize("action", [-1, 38, 10**9, True, "3", 3.0, None])
def test_apply_action_bad_value_rejected(impl, action):
    s = _mid_game(impl)
    before = snapshot(s)
    with pytest.raises(IllegalMoveError):
        s.apply_action(action)
    assert snapshot(s) == before


def test_apply_action_illegal_rejected(impl):
    s = _mid_game(impl)
    before = snapshot(s)
    # 0 = a1-b1 (occupied), 30 = a1xa2 (rod), 24 = a1xb1 (like colours),
    # 35 = c2xc3 (empty square), 36 = swap (too late), 37 = pass (moves exist)
    for action in (0, 30, 24, 35, 36, 37):
        with pytest.raises(IllegalMoveError):
            s.apply_action(action)
        assert snapshot(s) == before
    s.apply_action(31)
    assert s.history[-1] == "b1xb2"


def test_apply_action_matches_play(impl):
    a = impl.Tabik(size=3)
    b = impl.Tabik(size=3)
    for move in ["a1-a2", "swap"] + GAME_3X3[1:] + ["pass", "pass"]:
        a.play(move)
        b.apply_action(b.move_to_action(move))
        assert a == b
    assert b.winner == 1


# --------------------------------------------------------------------- undo, copy, equality


def test_undo_restores_previous_state_exactly(impl):
    s = impl.Tabik(size=3)
    moves = ["a1-a2", "swap"] + GAME_3X3[1:] + ["pass", "pass"]
    snapshots = [snapshot(s)]
    states = [s.copy()]
    for move in moves:
        s.play(move)
        snapshots.append(snapshot(s))
        states.append(s.copy())
    assert s.is_over
    for i in range(len(moves), 0, -1):
        assert snapshot(s) == snapshots[i]
        assert s == states[i]
        s.undo()
        assert snapshot(s) == snapshots[i - 1]
        assert s == states[i - 1]
    assert s == impl.Tabik(size=3)
    with pytest.raises(IndexError):
        s.undo()
    assert snapshot(s) == snapshots[0]


def test_undo_of_pie_swap_restores_colours(impl):
    s = play_all(impl.Tabik(size=3), ["a1-b1", "swap"])
    assert s.color_of(0) == "white"
    s.undo()
    assert s.color_of(0) == "black" and s.color_of(1) == "white"
    assert s.to_move == 1
    assert "swap" in s.legal_moves()
    assert s.last_mover == 0


def test_undo_on_fresh_game_raises_index_error(impl):
    s = impl.Tabik()
    with pytest.raises(IndexError):
        s.undo()
    assert s.history == [] and s == impl.Tabik()


def test_copy_is_independent(impl):
    s = play_all(impl.Tabik(size=3), ["a1-a2", "swap", "b1-c1"])
    c = s.copy()
    assert c == s and c is not s
    assert snapshot(c) == snapshot(s)
    before = snapshot(s)
    c.play("c2-b2")
    assert snapshot(s) == before
    assert c != s
    s.undo()
    assert c.history == ["a1-a2", "swap", "b1-c1", "c2-b2"]
    assert c.color_of(0) == "white"
    # history is a fresh list every time
    h = c.history
    h.append("pass")
    assert c.history == ["a1-a2", "swap", "b1-c1", "c2-b2"]


def test_equality(impl):
    assert impl.Tabik() == impl.Tabik(size=8, pie=True)
    assert impl.Tabik(size=3) != impl.Tabik(size=4)
    assert impl.Tabik(size=3) != impl.Tabik(size=3, pie=False)
    a = play_all(impl.Tabik(size=3), ["a1-b1"])
    b = play_all(impl.Tabik(size=3), ["a1-b1"])
    assert a == b
    assert a != play_all(impl.Tabik(size=3), ["b1-a1"])
    with pytest.raises(TypeError):
        hash(a)
