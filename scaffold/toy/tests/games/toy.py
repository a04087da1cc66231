"""Toy's test data (see ``tests/games``): the scaffold's template of a game's test module.

Copy it to ``tests/games/<game>.py`` with the game's other files. Only the names are
checked here (``tests/test_adding_a_game.py``: every name the shared tests read, with
the defaults and the length bound of Toy's engine); the values are the game's to fill in.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from games import bad_values

DEFAULTS = {"size": 5}

PARAMS = st.fixed_dictionaries({"size": st.integers(2, 6)})


def max_length(params: dict[str, Any]) -> int:
    cells = params["size"] ** 2
    # every placement may follow a pass, then the two closing passes
    return 2 * cells + 2


ALPHABET = "abcdefz0123456789 pas\n"
SPECIALS = ("a0", "a01", "a1 ", "A1", "pass ", "a17")
COST = 1.0
PLAY_COST = 1.0

#: a few parameter sets of the differential tests' odd-type checks
SAMPLES = [{}, {"size": 2}]

#: parameters drawn good or bad, which engine and reference must accept or refuse alike
BAD_PARAMS = st.fixed_dictionaries({}, optional={
    "size": bad_values(st.integers(2, 16), [0, 1, 17, True, 5.0, "5", None]),
})

#: every board size (the differential tests play them all)
EDGES = [{"size": k} for k in range(2, 17)]

#: a few parameter sets whose positions engine and reference write and read alike
POSITIONS = [{"size": 2}, {"size": 3}]

#: malformed or impossible positions, each with its parameters (tests/test_positions.py)
BAD_POSITIONS = [
    ("", {}),
    ("5/5/5/5/5 0 - 0", {}),  # a field missing
    ("5/5/5/5/6 0 - 0 -", {}),  # a row too long
    ("5/5/5/5/5 0 w 0 -", {}),  # a pie field without the pie rule
]

#: the edge cases its shipped vectors must have, beside every game's
VECTOR_TAGS = {"after-pass", "over-by-two-passes", "tie-last-mover-loses"}

PERFT = [{"size": k} for k in (2, 3, 5)]

PINS = [({"size": k}, 400) for k in (2, 3, 5)]
