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

PERFT = ([{"size": k, "pie": True} for k in (2, 3, 4, 5, 6, 8, 12, 16)]
         + [{"size": k, "pie": False} for k in (2, 3, 8, 16)])

PINS = [*[({"size": k}, 400) for k in (2, 3, 4, 5, 8, 11)], ({"size": 8, "pie": False}, 400)]
