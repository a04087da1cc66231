"""Reading and writing records: only RecordError (a ValueError) escapes `load`, whatever
the text; `to_record` refuses what `load` could not read back (issue 9)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import territory
import territory.reference.tabik
from territory import RecordError

BREAKS = ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("reference", [False, True])
def test_huge_move_number_is_a_record_error(reference):
    text = "game = tabik\nsize = 3\nmoves:\n" + "9" * 5000 + ". a1-a2\n"
    with pytest.raises(RecordError, match="line 4: move number") as info:
        territory.load(text, reference=reference)
    assert len(str(info.value)) < 300
    # Leading zeros still number a move.
    assert territory.load("game = tabik\nsize = 3\nmoves:\n001. a1-a2\n").history == ["a1-a2"]


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("value", ["9" * 5000, "-" + "9" * 5000, "9" * 5000 + ".5"])
def test_huge_header_number_is_a_record_error(reference, value):
    text = f"game = nume\nkomi = {value}\nmoves:\n"
    with pytest.raises(RecordError, match="line 2") as info:
        territory.load(text, reference=reference)
    assert len(str(info.value)) < 300


def test_huge_lines_are_quoted_short():
    for text in ("x" * 100_000, "game = " + "x" * 100_000 + "\nmoves:\n",
                 "game = tabik\nmoves:\n1. " + "a" * 100_000 + "\n",
                 "game = tabik\n" + "k" * 100_000 + " = 3\nmoves:\n"):
        with pytest.raises(RecordError) as info:
            territory.load(text)
        assert len(str(info.value)) < 400, str(info.value)[:500]


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("brk", BREAKS, ids=repr)
def test_seat_names_with_line_breaks_are_refused(reference, brk):
    state = (territory.reference.tabik.Tabik if reference else territory.Tabik)(size=3)
    state.play("a1-a2")
    for name in (f"Ann{brk}Bob", f"Ann{brk}", f"{brk}game = migong"):
        with pytest.raises(ValueError, match="seat name"):
            state.to_record(seats=(name, None))
        with pytest.raises(ValueError, match="seat name"):
            state.to_record(seats=(None, name))
    # Any other name (tabs and unicode included) survives the round trip.
    for name in ("Ann\tB.", "Zoë 李", "x" * 1000):
        loaded = territory.load(state.to_record(seats=(name, "Bob")), reference=reference)
        assert loaded.history == state.history


LINE = st.one_of(
    st.sampled_from([
        "game = tabik", "game = nume", "game = migong", "game = chess", "moves:", "size = 3",
        "size = 99", "size = 2", "pie = false", "pie = 1", "n = 1", "square = 2", "komi = none",
        "komi = 1.5", "komi = 9" + "9" * 5000, "komi_phase = true", "border = blue",
        "group_size = wedges", "seat0 = Ann", "result = unfinished", "result = draw 0-0",
        "1. a1-a2", "2. swap", "1. c1=3", "a1=0", "b1=1", "h7:BBBYBB", "pass", "swap",
        "3. pass", "9" * 5000 + ". pass", "1.", "x = y = z", "= 3", "KEY = 1", "# comment",
        "", "moves: extra", "size = -1", "size = 3.0", "n = 2.5", "unknown = 4",
    ]),
    st.text(max_size=20),
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines=st.lists(LINE, max_size=10), reference=st.booleans(),
       newline=st.sampled_from(["\n", "\r\n", "\r", "\x85"]))
def test_any_text_loads_or_raises_record_error(lines, reference, newline):
    text = newline.join(lines)
    try:
        state = territory.load(text, reference=reference)
    except RecordError as error:
        assert str(error)
        return
    # What loads writes a record that loads back to an equal state.
    again = territory.load(state.to_record(), reference=reference)
    assert again.history == state.history and again.params == state.params


@pytest.mark.parametrize("value", [None, 3, b"game = tabik\nmoves:\n"])
def test_non_text_is_a_record_error(value):
    with pytest.raises(RecordError):
        territory.load(value)
