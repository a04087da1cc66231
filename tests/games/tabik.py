"""Tabik's test data (see ``tests/games``)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from games import bad_values

DEFAULTS = {"size": 8, "pie": True}

PARAMS = st.fixed_dictionaries({"size": st.integers(2, 8), "pie": st.booleans()})


def max_length(params: dict[str, Any]) -> int:
    k = params["size"]
    # every move but swap and pass lays a rod; plus the swap and the two closing passes
    return 2 * k * (k - 1) + bool(params.get("pie", True)) + 2


ALPHABET = "abcdefghijz0123456789-x pasw\nX"
SPECIALS = ("a1-a1", "a1xa1", "a1-a2-a3", "a1-", "-a1", "a1x",
            "a10-a9", "a01-a2", "a1-a02", "a1–a2", "a1 - a2",
            "a1-b2", "a1xb2", "i1-h1", "a17-a16", "p16-p15",
            "a1-a2\n", "a1xa2\n", "A1-A2", "a1Xa2", "a1_a2")
COST = 1.0
PLAY_COST = 1.0

#: a few parameter sets of the differential tests' odd-type checks
SAMPLES = [{}, {"size": 2, "pie": False}, {"size": 3}]

#: parameters drawn good or bad, which engine and reference must accept or refuse alike
BAD_PARAMS = st.fixed_dictionaries({}, optional={
    "size": bad_values(st.integers(2, 16), [0, 1, 17, -2, 2**64, True, False, 8.0, "8", None]),
    "pie": bad_values(st.booleans(), [0, 1, None, "true", "True", 1.0]),
})

#: every board size each allows (the differential tests play them all)
SIZES = range(2, 17)
EDGES = [{"size": k, "pie": pie} for k in SIZES for pie in (True, False)]

#: a few parameter sets whose positions engine and reference write and read alike
#: (tests/test_positions.py)
POSITIONS = [{"size": 2, "pie": True}, {"size": 3, "pie": False}, {"size": 4, "pie": True}]

#: malformed or impossible positions, each with its parameters (tests/test_positions.py)
BAD_POSITIONS = [
    ("", {}),
    ("8/8/8/8/8/8/8/8 0 w 0", {}),  # a field missing
    ("8/8/8/8/8/8/8/8 0 w 0 - x", {}),  # a field too many
    ("8/8/8/8/8/8/8/8  0 w 0 -", {}),  # two spaces
    ("8/8/8/8/8/8/8 0 w 0 -", {}),  # a row missing
    ("9/8/8/8/8/8/8/8 0 w 0 -", {}),  # a row too long
    ("7/8/8/8/8/8/8/8 0 w 0 -", {}),  # a row too short
    ("08/8/8/8/8/8/8/8 0 w 0 -", {}),  # a leading zero
    ("x7/8/8/8/8/8/8/8 0 w 0 -", {}),  # an unknown character
    ("8/8/8/8/8/8/8/8 2 w 0 -", {}),  # seat 2
    ("8/8/8/8/8/8/8/8 0 q 0 -", {}),  # unknown pie state
    ("8/8/8/8/8/8/8/8 0 w 3 -", {}),  # passes 3
    ("8/8/8/8/8/8/8/8 0 w 0 -", {"pie": False}),  # pie field with the pie rule off
    ("8/8/8/8/8/8/8/8 1 w 0 -", {}),  # 'w' with seat 1 to move
    ("8/8/8/8/8/8/8/8 0 w 2 -", {}),  # over, yet someone to move
    ("8/8/8/8/8/8/8/7b> 1 - 0 0", {}),  # a rod off the board
    ("8/8/8/8/8/8/8/b>7 1 - 0 0", {}),  # a rod to an empty square
    ("8/8/8/8/8/8/8/bw6 1 - 0 0", {}),  # stones without a rod
    ("8/8/8/8/8/8/8/b>b6 1 - 0 0", {}),  # two black stones, no white
    ("8/8/8/8/8/8/8/b>w6 1 - 0 -", {}),  # stones but no last mover
    ("8/8/8/8/8/8/8/b>w6 1 - 0 1", {}),  # last mover is the seat to move
    ("8/8/8/8/8/8/8/b>w6 0 - 1 0", {}),  # a pass while moves are available
    ("8/8/8/8/8/8/8/8 1 s 0 0", {}),  # a swap on an empty board
    ("8/8/8/8/8/8/8/w>w6 1 - 0 0", {}),  # two white stones, no black
    ("8/8/8/8/8/8/8/w>w6/ 1 - 0 0", {}),  # (and a row too many)
    ("8/8/8/8/8/8/8/8 1 - 0 -", {}),  # an empty board but seat 1 to move
    ("8/8/8/8/8/8/8/8 1 - 0 0", {}),  # an empty board with a last mover
    ("8/8/8/8/8/8/8/8 0 - 0 -", {}),  # the pie rule on, seat 1's first turn gone
    ("8/8/8/8/8/8/8/8 0 - 1 1", {"pie": False}),  # a pass on an empty board
    ("8/8/8/8/8/8/8/b>w6 - - 2 0", {}),  # two passes while moves are available
]

#: the edge cases its shipped vectors must have, beside every game's (tests/test_crosscheck.py)
VECTOR_TAGS = {"pie-swap-legal", "after-pie-swap", "over-after-pie-swap", "pass-forced", "after-pass",
               "over-by-two-passes", "tie-last-mover-loses", "equal-group-counts", "equal-counts-above-score"}

PERFT = ([{"size": k, "pie": True} for k in (2, 3, 4, 5, 6, 8, 12, 16)]
         + [{"size": k, "pie": False} for k in (2, 3, 8, 16)])

PINS = [*[({"size": k}, 400) for k in (2, 3, 4, 5, 8, 11)], ({"size": 8, "pie": False}, 400)]
