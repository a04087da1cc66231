"""Nume on the Python side: its text diagram (numbered stones on a hex or square board),
its square board drawn Go-like, how a numbered stone is offered on the web board, and its
crosscheck vectors (see ``territory.games``)."""

from __future__ import annotations

from typing import Any

from territory import geometry
from territory._presentation import STONE, hex_grid, square_grid

#: Fair komi (``territory.evaluate.fair_komi``): the parameters its sweep sets.
KOMI_PARAMETERS = ("komi", "komi_to")


def komi_params(params: dict[str, Any], komi: float) -> dict[str, Any]:
    """``params`` with the komi ``komi`` (positive: added to Black's score, negative: to
    White's); a ValueError if they let the players choose the komi."""
    if params.get("komi_phase"):
        raise ValueError("fair_komi needs komi_phase=False: with a komi phase the players choose the komi")
    return {**params, "komi": abs(komi), "komi_to": "black" if komi > 0 else "white"}


#: Nume's square variant is played on intersections.
ON_POINTS = True

#: UCT's exploration constant per board (hexagonal side n), measured by the sweep in
#: docs/strength.md.
TUNED_UCT_C = {4: 0.5, 3: 0.5}


def board_key(params: dict[str, Any]) -> int | str:
    """The hexagonal board's side n, or "square N" for a square board."""
    return f"square {params['square']}" if params.get("square") else int(params["n"])


def diagram(board: geometry.Board, position: dict[str, Any]) -> str:
    tokens = {c: STONE[color] + ("" if w is None else str(w)) for c, (color, w) in position["stones"].items()}
    return square_grid(board, tokens, []) if board.kind == "square" else hex_grid(board, tokens)


def choice(state: Any, move: str, clicks: list[str], entry: dict[str, Any]) -> None:
    """A numbered stone is offered as its number, with the price of its group after it
    (the engine plays it on a copy)."""
    if "=" in move:
        after = state.copy()
        after.play(move)
        group = next(g for g in after.groups() if clicks[0] in g.cells)
        entry["label"] = move.split("=", 1)[1]
        entry["detail"] = f"price {group.price}"


#: The web page shows each group's price.
WEB_GROUP_FIELDS = ("price",)


def scoring_tags(state: Any) -> list[str]:
    """The crosscheck vectors' tags of the scoring by price: a group worth 0, a group with
    two numbers."""
    groups = state.groups()
    tags = []
    if any(g.price == 0 for g in groups):
        tags.append("group-price-0")
    if any(len(g.numbers) > 1 for g in groups):
        tags.append("group-with-two-numbers")
    return tags


def deciding_groups(state: Any) -> list[Any]:
    """None: every group's price counts towards the score, no few of them decide."""
    return []


FULL_2X2 = ["a1=1", "b2=1", "b1", "a2"]
#: Move sequences the rule tests work out by hand (tests/test_nume_rules.py).
HAND_WORKED: list[tuple[str, dict[str, Any], list[str]]] = [
    ("price-before-merge", {"square": 5}, ["a2=7", "e5=0", "b1=2", "e4", "c2=9", "e3"]),
    ("price-zero", {"square": 3}, ["a1=2", "c3=0", "b1"]),
    ("number-above-board", {"square": 3}, ["a1=100"]),
    ("full-2x2", {"square": 2}, FULL_2X2),
    ("full-2x2-komi-white", {"square": 2, "komi_to": "white"}, FULL_2X2),
    ("full-2x2-large-komi", {"square": 2, "komi": 3.5}, FULL_2X2),
    ("full-2x2-draw", {"square": 2, "komi": None}, FULL_2X2),
    ("2x2-no-komi-decisive", {"square": 2, "komi": None}, ["a1=3", "b2=0", "b1", "a2"]),
    ("komi-phase-game", {"square": 2, "komi_phase": True}, ["komi 1.5 white", "side black", *FULL_2X2]),
]
