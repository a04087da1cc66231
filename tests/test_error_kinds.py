"""Move errors carry a stable ``.kind`` (docs/conventions.md, "Error kinds", and each
game's own in docs/games/<game>.md) and the offending ``.move``; the codes in the docs'
tables are exactly the engine's."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import territory
from territory.errors import IllegalMoveError, InvalidMoveError

ROOT = Path(__file__).resolve().parent.parent

# (class, parameters, moves played first, offending move, exception class, kind)
CASES = [
    ("Tabik", {"size": 4}, [], "zz", InvalidMoveError, "syntax"),
    ("Tabik", {"size": 4}, [], "e9-e8", InvalidMoveError, "off_board"),
    ("Tabik", {"size": 4}, [], "a0-a1", InvalidMoveError, "row_zero"),
    # The shape before the squares: a missing or malformed second square is syntax even
    # after a row-0 square (the differential test found the engine saying row_zero).
    ("Tabik", {"size": 4}, [], "a0-", InvalidMoveError, "syntax"),
    ("Tabik", {"size": 4}, [], "a0xzz", InvalidMoveError, "syntax"),
    # 'x' is a column letter too: x1 and c1, x1 off the board (CI's differential run).
    ("Tabik", {"size": 4}, [], "x1xc1", InvalidMoveError, "off_board"),
    ("Tabik", {"size": 4}, [], 7, InvalidMoveError, "not_a_string"),
    ("Tabik", {"size": 4}, ["b2-b3"], "b2-b3", IllegalMoveError, "occupied"),
    ("Tabik", {"size": 4}, [], "b2-c3", IllegalMoveError, "not_adjacent"),
    ("Tabik", {"size": 4}, [], "b2xb3", IllegalMoveError, "no_stone_to_swap"),
    ("Tabik", {"size": 4}, [], "pass", IllegalMoveError, "pass_not_allowed"),
    ("Tabik", {"size": 4}, [], "swap", IllegalMoveError, "swap_not_now"),
    ("Tabik", {"size": 4, "pie": False}, ["b2-b3"], "swap", IllegalMoveError, "pie_rule_off"),
    ("Nume", {}, [], "a1", InvalidMoveError, "off_board"),
    ("Nume", {}, [], "d4=x", InvalidMoveError, "number"),
    ("Nume", {}, [], "d4=99999999999", InvalidMoveError, "number_too_large"),
    ("Nume", {}, [], "d4", IllegalMoveError, "number_required"),
    ("Nume", {"komi_phase": True}, [], "side black", IllegalMoveError, "komi_first"),
    ("Nume", {"komi_phase": True}, [], "komi x white", InvalidMoveError, "komi"),
    ("Nume", {"komi_phase": True}, [], "komi 999.5 white", InvalidMoveError, "komi_too_large"),
    ("Nume", {"komi_phase": True}, [], "komi 2.5 green", InvalidMoveError, "color_word"),
    ("Nume", {}, [], "komi 2.5 white", IllegalMoveError, "not_komi_phase"),
    ("Migong", {}, [], "g7:BBBBBB", InvalidMoveError, "central_border"),
    ("Migong", {}, [], "h7:BBQBBB", InvalidMoveError, "piece"),
]


@pytest.mark.parametrize("cls, params, before, move, error, kind", CASES)
def test_move_errors_carry_kind_and_move(cls, params, before, move, error, kind):
    state = getattr(territory, cls)(**params)
    for m in before:
        state.play(m)
    with pytest.raises(error) as raised:
        state.play(move)
    assert type(raised.value) is error
    assert raised.value.kind == kind, str(raised.value)
    assert raised.value.move == move
    assert raised.value.parameter is None
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (type(copy), str(copy), copy.kind, copy.move) == (error, str(raised.value), kind, move)


def test_actions_carry_kind_and_move():
    state = territory.Tabik(size=4)
    with pytest.raises(InvalidMoveError) as raised:
        state.apply_action(10**6)
    assert (raised.value.kind, raised.value.move) == ("action_out_of_range", 10**6)
    state.play("b2-b3")
    taken = state.move_to_action("b2-b3")
    with pytest.raises(IllegalMoveError) as raised:
        state.apply_action(taken)
    assert (raised.value.kind, raised.value.move) == ("occupied", "b2-b3")


KIND_ROW = re.compile(r"^\| \w+Error \| `(\w+)` \|", re.M)
ENGINE_KIND = (re.compile(r'=> "(\w+)",'), re.compile(r'^\s*"(\w+)",$', re.M))


def kinds_in(*sources: Path) -> set[str]:
    text = "".join(f.read_text() for f in sources)
    return {kind for pattern in ENGINE_KIND for kind in pattern.findall(text)}


def test_the_documented_kinds_are_the_engines():
    """The shared kinds (rules/error.rs and the bindings') are in docs/conventions.md; each
    game's own (games/<game>/error.rs) in its own docs/games/<game>.md."""
    shared_doc = set(KIND_ROW.findall((ROOT / "docs" / "conventions.md").read_text()))
    engine_src = ROOT / "rust" / "territory" / "src"
    shared = kinds_in(engine_src / "rules" / "error.rs", ROOT / "rust" / "territory-py" / "src" / "game_class.rs")
    assert shared and shared <= shared_doc, shared - shared_doc
    documented = set(shared_doc)
    for game in territory.GAMES:
        own_doc = set(KIND_ROW.findall((ROOT / "docs" / "games" / f"{game}.md").read_text()))
        # A game with no reasons of its own has no error.rs (docs/adding-a-game.md).
        error_rs = engine_src / "games" / game / "error.rs"
        own = kinds_in(error_rs) if error_rs.exists() else set()
        assert own == own_doc, (game, own ^ own_doc)
        assert not own & shared_doc, (game, own & shared_doc)
        documented |= own_doc
    assert {f.parent.name for f in engine_src.glob("games/*/error.rs")} <= set(territory.GAMES)
    assert {kind for *_, kind in CASES} <= documented
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", k) for k in documented)


def test_python_raised_errors_default_to_no_kind():
    error = IllegalMoveError("the game is over")
    assert (str(error), error.kind, error.move, error.parameter) == ("the game is over", None, None, None)
