"""Game records: the format, round trips on random games, corrupt records."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import territory
from territory import record
from territory.errors import RecordError

OPTION_SETS = [
    ("tabik", {"size": 2}),
    ("tabik", {"size": 6, "pie": False}),
    ("migong", {}),
    ("migong", {"pie": False, "border": "yellow", "group_size": "wedges"}),
    ("migong", {"border": "BY" * 42}),
    ("nume", {"n": 1}),
    ("nume", {"n": 3, "komi": 7.5, "komi_to": "white"}),
    ("nume", {"square": 3, "komi": None}),
    ("nume", {"n": 2, "komi_phase": True}),
]


@pytest.mark.parametrize("game, params", OPTION_SETS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_round_trip_on_random_games(game, params, seed, cut):
    finished = territory.replay_playout(game, seed, 0, **params)
    state = territory.playouts.new_game(game, **params)
    for move in finished.history[: int(cut * len(finished.history))]:
        state.play(move)
    text = state.to_record()
    assert territory.load(text) == state
    reference = territory.load(text, reference=True)
    assert reference.history == state.history and reference.params == state.params
    assert reference.to_record() == text
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state


def test_format_by_example():
    state = territory.Tabik(size=2)
    for move in ["a1-b1", "swap", "a2-b2", "pass", "pass"]:
        state.play(move)
    text = state.to_record(seats=("Alice", "Bob"), comment="a short game")
    assert text == (
        "# territory game record\n"
        "# a short game\n"
        "game = tabik\n"
        "size = 2\n"
        "pie = true\n"
        "seat0 = Alice\n"
        "seat1 = Bob\n"
        f"result = {record.result_text(state)}\n"
        "moves:\n"
        "1. a1-b1\n2. swap\n3. a2-b2\n4. pass\n5. pass\n"
    )
    parsed = record.parse(text)
    assert parsed.seats == ("Alice", "Bob") and parsed.game == "tabik"
    assert parsed.params == {"size": 2, "pie": True}
    assert record.result_text(state) == "seat 1 wins 0-0"


def test_comments_blank_lines_unnumbered_moves_and_defaults():
    text = """
    # anything after '#' is a comment
    game = nume   # the game
    n = 1

    moves:
    a1=3        # first stone
    b1=0
    2. c1       # numbers are optional, but must be right when given
    """
    with pytest.raises(RecordError, match="line 9: move number 2 out of order, expected 3"):
        territory.load(text)
    state = territory.load(text.replace("2. c1", "c1=1"))
    assert state.history == ["a1=3", "b1=0", "c1=1"]
    assert state.params["komi"] == 0.5  # a parameter left out takes its default


def test_komi_phase_moves_survive_a_round_trip():
    state = territory.Nume(n=1, komi_phase=True)
    state.play("komi 3.5 white")
    state.play("side black")
    state.play("a2=1")
    assert territory.load(state.to_record()) == state


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no 'game = ...' line"),
        ("game = chess\nmoves:\n", "line 1: unknown game 'chess'"),
        ("game = tabik\nsize = 1\nmoves:\n", "line 2: bad parameter: size must be"),
        ("game = tabik\nsize = eight\nmoves:\n", "line 2: bad parameter: size"),
        ("game = tabik\nboard = 8\nmoves:\n", "line 2: unknown tabik parameter 'board'"),
        ("game = nume\nkomi = 2.0\nmoves:\n", "line 2: bad parameter: komi"),
        ("game = tabik\nsize = 3\n", "no 'moves:' line: the record is truncated"),
        ("game = tabik\nsize = 3\nmoves:\n1. a1-b1\n2. a1-a2\n", "line 5: illegal move 'a1-a2'"),
        ("game = tabik\nmoves:\n1. zz\n", "line 3: illegal move 'zz'"),
        ("game = tabik\nsize = 3\nresult = seat 0 wins 1-0\nmoves:\n1. a1-b1\n", "result says"),
        ("game = tabik\ngame = nume\nmoves:\n", "line 2: 'game' given twice"),
        ("game = tabik\nthis line is odd\nmoves:\n", "line 2: expected 'key = value'"),
        ("game = tabik\nmoves:\n1.\n", "line 3: move number without a move"),
    ],
)
def test_corrupt_records_name_the_line_and_problem(text, message):
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        territory.load(text)
    with pytest.raises(RecordError):
        territory.load(text, reference=True)


def test_record_error_is_a_value_error_and_not_a_half_loaded_state():
    assert issubclass(RecordError, ValueError)
    with pytest.raises(ValueError):
        territory.load(12)


def test_seat_names_cannot_break_the_format():
    with pytest.raises(ValueError, match="seat name"):
        territory.Tabik().to_record(seats=("a # b", None))


def test_scores_are_written_as_whole_numbers_or_half_points():
    """Whole scores (ints, or Nume's floats without komi) are written without a decimal
    point; half points keep theirs; the result line uses that form."""
    assert [record.format_score(s) for s in (3, 3.0, 0.0, 2.5, -0.5)] == ["3", "3", "0", "2.5", "-0.5"]
    state = territory.Nume(n=1, komi=0.5)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    assert ".5" in record.result_text(state) and ".5" in state.to_record().split("result = ")[1].splitlines()[0]
