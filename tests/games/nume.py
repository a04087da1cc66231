"""Nume's test data (see ``tests/games``)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from games import bad_values

DEFAULTS = {"n": 4, "square": None, "komi": 0.5, "komi_to": "black", "komi_phase": False}

KOMI = st.one_of(
    st.none(),
    st.just(0.5),
    st.integers(0, 12).map(lambda k: k + 0.5),
    st.integers(0, 2**31).map(lambda k: k + 0.5),
)


@st.composite
def params(draw) -> dict[str, Any]:
    hexagonal = draw(st.booleans())
    return {
        "n": draw(st.integers(1, 4)),  # ignored by a square board, but kept in params
        "square": None if hexagonal else draw(st.integers(2, 7)),
        "komi": draw(KOMI),
        "komi_to": draw(st.sampled_from(["black", "white"])),
        "komi_phase": draw(st.booleans()),
    }


PARAMS = params()


def max_length(params: dict[str, Any]) -> int:
    k = params["square"]
    n = params["n"]
    cells = k * k if k is not None else 3 * n * (n + 1)
    return cells + 2 * bool(params["komi_phase"])  # a stone per cell; the komi-phase moves


ALPHABET = "abcdefgh0123456789=-+ .komisdeblackwhite\n"
SPECIALS = ("a1=", "a1=-0", "a1=-1", "a1=+1", "a1=01", "a1=00",
            "a1=0\n", "a1 =0", "a1= 0", "a1=0 ", "a1=1.0", "a1=1e3",
            "a1=\u0661", "a1=2147483647", "a1=2147483648",
            "a1=99999999999999999999999", "a1=0x10", "a1==1",
            "a1=1=2", "A1=0", "a01=0", "a0=0", "komi 0.5 black",
            "komi 0.5 white", "komi 1.5 white", "komi 1 black",
            "komi 0.5", "komi 0.50 black", "komi 00.5 black",
            "komi -0.5 black", "komi  0.5 black", "komi 0.5 Black",
            "komi 2147483648.5 black", "komi 0.5 black\n",
            "komi 99999999999999999999.5 white", "side black",
            "side white", "side  black", "side grey", "side",
            "side black\n", "Side white")
COST = 1.5
PLAY_COST = 1.0

#: a few parameter sets of the differential tests' odd-type checks
SAMPLES = [{}, {"square": 3, "komi_phase": True}, {"n": 1, "komi": None}]

#: parameters drawn good or bad, which engine and reference must accept or refuse alike
BAD_PARAMS = st.fixed_dictionaries({}, optional={
    "n": bad_values(st.integers(1, 8), [0, 9, -1, True, 4.0, "4", None, 2**40]),
    "square": bad_values(st.one_of(st.none(), st.integers(2, 16)),
                         [0, 1, 17, True, False, 9.0, "9", 2**40]),
    "komi": bad_values(
        st.one_of(st.none(), st.integers(0, 2**31).map(lambda k: k + 0.5)),
        [0, 1, 0.0, 1.0, 0.25, -0.5, 2**31 + 0.5, 2**31 + 1.5, 2**33 + 0.5, math.nan,
         math.inf, -math.inf, "0.5", True, 1e300],
    ),
    "komi_to": bad_values(st.sampled_from(["black", "white"]), ["Black", "blue", "", None, 0]),
    "komi_phase": bad_values(st.booleans(), [0, 1, None, "false"]),
})

#: every board size and komi option each allows (the differential tests play them all)
HEX_SIZES = range(1, 9)
SQUARE_SIZES = range(2, 17)
KOMI_OPTIONS = (
    {"komi": None},
    {"komi": 0.5, "komi_to": "black"},
    {"komi": 3.5, "komi_to": "white"},
    {"komi": 2**31 + 0.5},
    {"komi_phase": True},
    {"komi_phase": True, "komi": None, "komi_to": "white"},
)
EDGES = ([{"n": n} for n in HEX_SIZES]
         + [{"square": k} for k in SQUARE_SIZES]
         + [dict(board, **komi) for board in ({"n": 1}, {"square": 2}, {"n": 3}, {"square": 5})
            for komi in KOMI_OPTIONS])

#: a few parameter sets whose positions engine and reference write and read alike
#: (tests/test_positions.py)
POSITIONS = [{"n": 1, "komi_phase": True}, {"square": 3, "komi": None}, {"n": 2, "komi_to": "white"}]

#: malformed or impossible positions, each with its parameters (tests/test_positions.py)
BAD_POSITIONS = [
    ("3/3/3 0 - 0.5b bw x", {"square": 3}),
    ("3/3/3 0 - 1.5b bw", {"square": 3}),  # not the game's komi
    ("3/3/3 0 - 0.5b wb", {"square": 3}),  # colours without a komi phase
    ("3/3/3 1 - 0.5b bw", {"square": 3}),  # wrong seat to move
    ("3/3/3 0 k - bw", {"square": 3}),  # komi phase without komi_phase
    ("3/3/3 0 k 0.5b bw", {"square": 3, "komi_phase": True}),  # komi in phase k
    ("3/3/3 1 s 10.5b bw", {"square": 3, "komi_phase": True}),  # komi above N + 0.5
    ("3/3/b2 1 - 0.5b bw", {"square": 3}),  # a group without a number
    ("3/3/b(1)b(2)1 1 - 0.5b bw", {"square": 3}),  # two numbers side by side
    ("3/3/b(1)1b(2) 0 - 0.5b bw", {"square": 3}),  # two black, no white
    ("3/3/b(2147483648)2 1 - 0.5b bw", {"square": 3}),  # number too big
    ("3/3/b(01)2 1 - 0.5b bw", {"square": 3}),  # a leading zero
    ("3/3/b(1 1 - 0.5b bw", {"square": 3}),  # an unclosed parenthesis
    ("3/3/b(1)2 1 - 0.5 bw", {"square": 3}),  # komi without colour
    ("3/3/3 0 - 0.5b bw", {}),  # a square board for a hex game
]

#: the edge cases its shipped vectors must have, beside every game's (tests/test_crosscheck.py)
VECTOR_TAGS = {"numbered-stone", "numbered-stone-0", "group-price-0", "group-with-two-numbers",
               "komi-chosen", "side-chosen", "komi-decides", "draw"}

PERFT = ([{"n": n} for n in (1, 2, 3, 4, 8)]
         + [{"square": k} for k in (2, 3, 4, 9, 16)]
         + [{"n": 1, "komi_phase": True}, {"n": 2, "komi_phase": True},
            {"square": 2, "komi_phase": True}, {"n": 1, "komi": None, "komi_to": "white"}])

PINS = [*[({"n": n}, 400) for n in (1, 2, 4, 7)],
        *[({"square": k}, 400) for k in (2, 3, 9, 15)],
        ({"komi": None}, 400),
        ({"komi": 3.5, "komi_to": "white"}, 400),
        ({"komi_phase": True}, 400),
        ({"square": 4, "komi": None, "komi_phase": True}, 400)]
