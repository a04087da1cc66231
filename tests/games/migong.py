"""Migong's test data (see ``tests/games``)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from games import bad_values

DEFAULTS = {"pie": True, "border": "alternate", "group_size": "extent"}

BORDER_EDGES = 84
BORDER = st.one_of(
    st.sampled_from(["alternate", "blue", "yellow"]),
    st.text(alphabet="BY", min_size=BORDER_EDGES, max_size=BORDER_EDGES),
    # explicit strings that colour like the named borders (but are other parameters)
    st.sampled_from(["B" * BORDER_EDGES, "Y" * BORDER_EDGES]),
)
PARAMS = st.fixed_dictionaries(
    {
        "pie": st.booleans(),
        "border": BORDER,
        "group_size": st.sampled_from(["extent", "wedges"]),
    }
)


def max_length(params: dict[str, Any]) -> int:
    # 126 placements and the swap; only the closing passes are consecutive, and no pass
    # comes before the first action or the swap
    return 2 * 127 if params.get("pie", True) else 2 * 126 + 1


ALPHABET = "abcghmn0123456789:BYbyXx pasw\n"
SPECIALS = ("g7:BBBBBB", "g7:YYYYYY", "g1:BBBBBB", "g1:YYYYYY",
            "h7:BYBYBY", "h7:BYBYB", "h7:BYBYBYB", "h7:bybyby",
            "h7:BYBYBX", "h7::BYBYBY", "h7BYBYBY", "h7 :BYBYBY",
            "h7: BYBYBY", "h07:BYBYBY", "n7:BYBYBY", "a1:BYBYBY",
            "a7:BYBYBY", "m7:BYBYBY", "g14:BYBYBY", "g0:BYBYBY",
            "h7:BYBYBY\n", ":BYBYBY", "h7:", "h7:BBBBBB:")
COST = 12.0
PLAY_COST = 4.0


def plan_length(params: dict[str, Any]) -> int:
    return 126 + 3  # every cell filled, the swap, two passes


EXPLICIT_BORDER = "BBYBYYYBYB" * 8 + "YBYB"
#: a few parameter sets of the differential tests' odd-type checks
SAMPLES = [{}, {"pie": False, "border": "blue"}, {"group_size": "wedges", "border": "BY" * 42}]

#: parameters drawn good or bad, which engine and reference must accept or refuse alike
BAD_PARAMS = st.fixed_dictionaries({}, optional={
    "pie": bad_values(st.booleans(), [0, 1, None, "false"]),
    "border": bad_values(
        st.sampled_from(["alternate", "blue", "yellow", "B" * 84, "BY" * 42]),
        ["Alternate", "BLUE", "", "b" * 84, "B" * 83, "B" * 85, "X" * 84, "BY" * 41 + "BX",
         " " + "B" * 83, None, 1, ["B"] * 84, "B" * 83 + "\n", "Y" * 84 + "\n"],
    ),
    "group_size": bad_values(st.sampled_from(["extent", "wedges"]),
                             ["Extent", "wedge", "", None, 1, "stones"]),
})

#: every border each allows (the differential tests play them all)
BORDERS = ("alternate", "blue", "yellow", "BYYBBBYBYY" * 8 + "YYBB")
EDGES = [{"border": b, "group_size": g, "pie": pie} for b in BORDERS
         for g in ("extent", "wedges") for pie in (True, False)]


def fast_edge(params: dict[str, Any]) -> bool:
    """Each border once in the fast set (the other group sizes and pies are slow),
    alternating the other options."""
    i = BORDERS.index(params["border"])
    return (params["group_size"], params["pie"]) == (("extent", "wedges")[i % 2], i < 2)

#: a few parameter sets whose positions engine and reference write and read alike
#: (tests/test_positions.py)
POSITIONS = [{}, {"pie": False, "border": "blue", "group_size": "wedges"}]

#: malformed or impossible positions, each with its parameters (tests/test_positions.py)
BAD_POSITIONS = [
    ("7/8/9/10/11/12/13/12/11/10/9/8/7 0 w 0 -", {}),  # no '*'
    ("7/8/9/10/11/12/6*7/12/11/10/9/8/7 0 w 0 -", {}),  # a row too long
    ("BBBBBB6/8/9/10/11/12/6*6/12/11/10/9/8/7 1 a 0 0", {}),  # g1 E wedge vs border
    ("7/8/9/10/11/12/6*BBBBBB5/12/11/10/9/8/7 1 a 0 0", {}),  # W wedge vs the centre
    ("7/8/9/10/11/12/6*bbbbyb5/12/11/10/9/8/7 1 a 0 0", {"border": "yellow"}),  # fits? no: yellow border
    ("7/8/9/10/11/12/6*YYYYYY5/12/11/10/9/8/7 1 a 0 0", {"border": "yellow"}),  # YYYYYY by Blue
    ("7/8/9/10/11/12/6*BBBYBBBBBYBB4/12/11/10/9/8/7 0 - 0 1", {}),  # used twice, misfit
    ("7/8/9/10/11/12/6*BBBYBX5/12/11/10/9/8/7 1 a 0 0", {}),  # not a piece
    ("7/8/9/10/11/12/6*BbBYBB5/12/11/10/9/8/7 1 a 0 0", {}),  # mixed case
    ("7/8/9/10/11/12/6*BBBYBB5/12/11/10/9/8/7 1 a 0 1", {}),  # last mover is to move
    ("7/8/9/10/11/12/6*BBBYBB5/12/11/10/9/8/7 1 - 1 1", {}),  # a pass with moves left
    ("7/8/9/10/11/12/6*6/12/11/10/9/8/7 1 - 0 -", {}),  # an empty board, seat 1 to move
    ("7/8/9/10/11/12/6*6/12/11/10/9/8/7 1 - 0 0", {}),  # an empty board with a last mover
]

#: the edge cases its shipped vectors must have, beside every game's (tests/test_crosscheck.py)
VECTOR_TAGS = {"pie-swap-legal", "after-pie-swap", "over-after-pie-swap", "pass-forced", "after-pass",
               "over-by-two-passes", "equal-group-counts", "tie-last-mover-loses"}

PERFT = ([{"border": b, "pie": pie} for b in ("alternate", "blue", "yellow", EXPLICIT_BORDER)
          for pie in (True, False)]
         + [{"border": "alternate", "group_size": "wedges"}])

PINS = [({}, 200), ({"pie": False}, 200), ({"border": "blue"}, 200),
        ({"border": "yellow", "group_size": "wedges"}, 200)]
