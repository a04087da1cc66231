"""Hypothesis strategies and game descriptions for the differential tests
(tests/test_differential.py): the native engine (``territory.Tabik``, ``territory.Migong``,
``territory.Nume``) against the pure-Python reference (``territory.reference.*``).

A game whose native or reference class does not exist (yet) is skipped, not failed.
"""

from __future__ import annotations

import importlib
import random
import re
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import strategies as st

import games as test_games
import territory

MAX_NUMBER = 2**31 - 1  # the largest number a Nume stone may carry

# Each game's parameters, bounds and odd strings are its test data (tests/games/<game>.py).


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class Game:
    name: str  # "tabik"
    cls_name: str  # "Tabik"
    params: st.SearchStrategy
    max_length: Callable[[dict[str, Any]], int]  # an upper bound on a game's actions
    #: characters that move strings of this game are made of (for random strings)
    alphabet: str
    #: hand-picked odd strings, most of them illegal everywhere
    specials: tuple[str, ...]
    #: relative cost of a test that asks the reference for legal moves at every step
    #: (Migong's reference scans 126 cells x 63 pieces each time), and of one that only
    #: lets the reference play moves picked from the native lists; used to scale the
    #: number of examples
    cost: float
    play_cost: float
    #: the most steps a drawn plan has, if not max_length (Migong's bound is about twice
    #: its usual game length, so its plans stop near the usual length instead)
    plan_length: Callable[[dict[str, Any]], int] | None = None

    def native(self):
        return getattr(importlib.import_module("territory"), self.cls_name, None)

    def reference(self):
        try:
            module = importlib.import_module(f"territory.reference.{self.name}")
        except ImportError:
            return None
        return getattr(module, self.cls_name, None)

    def classes(self):
        """(native class, reference class); skips the calling test if either is missing."""
        native, reference = self.native(), self.reference()
        if native is None:
            pytest.skip(f"native territory.{self.cls_name} not available yet")
        if reference is None:
            pytest.skip(f"reference territory.reference.{self.name}.{self.cls_name} not available")
        return native, reference

    def examples(self, base: int, every_step: bool = True) -> int:
        """How many hypothesis examples a test with ``base`` examples for Tabik gets here;
        ``every_step``: the test generates the reference's legal moves at every step."""
        return max(3, round(base / (self.cost if every_step else self.play_cost)))

    def __repr__(self) -> str:  # shows in test ids and failure reports
        return self.name


COMMON_SPECIALS = ("", " ", "swap", "pass", "Swap", "PASS", " pass", "swap ", "pass\n", "\n",
                   "swap\n", "none", "None", "0", "-1", "=", ":", "-", "x", "\x00", "é",
                   "a", "a1", "a0", "a-1", "z99", "a1\n", "komi", "side")

def _game(name: str) -> Game:
    data = test_games.module(name)
    return Game(
        name=name,
        cls_name=territory.GAMES[name].__name__,
        params=data.PARAMS,
        max_length=data.max_length,
        alphabet=data.ALPHABET,
        specials=COMMON_SPECIALS + tuple(data.SPECIALS),
        cost=data.COST,
        play_cost=data.PLAY_COST,
        plan_length=getattr(data, "plan_length", None),
    )


#: Every game of the registry, from its test data (tests/games/<game>.py).
GAMES = {name: _game(name) for name in territory.GAMES}
GAME_NAMES = list(GAMES)


# --------------------------------------------------------------------------- move choices

#: one step of a random game: (index into the legal moves, how to play it, a number to
#: write instead of the listed one on a numbered Nume placement or None). A negative
#: index counts from the end of the list, where the rare moves are: the pie swap, Nume's
#: "side white", the last komi choices and the highest numbers. How to play it: 0 play()
#: on both, 1 apply_action() on both, 2 native apply_action / reference play, 3 native
#: play / reference apply_action.
big_number = st.one_of(
    st.none(),
    st.none(),
    st.none(),
    st.integers(0, MAX_NUMBER),
    st.sampled_from([MAX_NUMBER, MAX_NUMBER - 1, 2**30, 61, 62, 100]),
)
index = st.one_of(st.integers(0, 2**20), st.integers(-3, -1))
step = st.tuples(index, st.integers(0, 3), big_number)


def random_index(rng: random.Random) -> int:
    return rng.randrange(-3, 0) if rng.random() < 0.1 else rng.randrange(2**20)


def random_step(rng: random.Random) -> tuple[int, int, int | None]:
    number = rng.choice([None, None, None, rng.randrange(MAX_NUMBER + 1)])
    return (random_index(rng), rng.randrange(4), number)


@st.composite
def game_plan(draw, game: Game, max_steps: int | None = None, min_steps: int = 0):
    """Parameters and a list of steps. The steps come from a drawn list (shrinks well),
    then a drawn number of further steps from a drawn seed, so that long games (up to the
    game's bound on its length) are common too."""
    params = draw(game.params)
    limit = (game.plan_length or game.max_length)(params) if max_steps is None else max_steps
    steps = draw(st.lists(step, max_size=limit))
    extra = draw(st.integers(max(0, min_steps - len(steps)), limit - len(steps)))
    if extra:
        rng = random.Random(draw(st.integers(0, 2**32 - 1)))
        steps = steps + [random_step(rng) for _ in range(extra)]
    if len(steps) >= 2 and draw(st.integers(0, 2)) == 0:
        # the last move of the second action: the pie swap, or Nume's "side white"
        steps[1] = (-1,) + tuple(steps[1][1:])
    return params, steps


# --------------------------------------------------------------------------- bad input

_ODD_CHARS = "abz019-x:=BY .\n\t\r\x00é٣−–"


@st.composite
def mutation(draw, move: str) -> str:
    """A small edit of a move string: usually malformed, sometimes another move."""
    kind = draw(st.sampled_from(
        ["delete", "insert", "replace", "case", "space", "double", "cut", "reverse",
         "number", "piece", "digit", "row"]
    ))
    i = draw(st.integers(0, max(0, len(move) - 1)))
    char = draw(st.one_of(st.sampled_from(_ODD_CHARS), st.characters()))
    if kind == "delete" and move:
        return move[:i] + move[i + 1:]
    if kind == "insert":
        return move[:i] + char + move[i:]
    if kind == "replace" and move:
        return move[:i] + char + move[i + 1:]
    if kind == "case":
        return draw(st.sampled_from([move.upper(), move.lower(), move.swapcase(), move.title()]))
    if kind == "space":
        pad = draw(st.sampled_from([" ", "\n", "\t", "\r\n", "\u00a0"]))
        return draw(st.sampled_from([pad + move, move + pad, pad + move + pad]))
    if kind == "double":
        return move + draw(st.sampled_from(["", " ", "\n"])) + move
    if kind == "cut":
        return draw(st.sampled_from([move[:i], move[i:]]))
    if kind == "reverse":  # Tabik: the other order of the two squares
        for sep in "-x":
            if sep in move:
                a, _, b = move.partition(sep)
                return b + sep + a
        return move[::-1]
    if kind == "number" and "=" in move:  # Nume: odd numbers
        cell, _, w = move.partition("=")
        new = draw(st.one_of(
            st.sampled_from(["0" + w, "-" + w, "+" + w, w + " ", " " + w, "", "00", "-0",
                             str(MAX_NUMBER), str(MAX_NUMBER + 1), str(2**32), str(2**63),
                             str(2**64 + 1), "1_000", w + ".0", "1e2", "\u0661", "0" * 30 + "1"]),
            st.integers(0, 2**70).map(str),
        ))
        return f"{cell}={new}"
    if kind == "piece" and ":" in move:  # Migong: another pattern on the same cell
        cell, _, _piece = move.partition(":")
        piece = draw(st.text(alphabet="BY", min_size=0, max_size=8))
        return f"{cell}:{piece}"
    if kind == "digit":  # another cell name: bump a digit
        digits = [j for j, c in enumerate(move) if c.isdigit()]
        if digits:
            j = draw(st.sampled_from(digits))
            return move[:j] + draw(st.sampled_from("0123456789")) + move[j + 1:]
    if kind == "row":  # a cell name's number at the edges of what names a cell
        row = draw(st.sampled_from(["0", "00", "01", "256", "257", "999", "1000", str(2**70)]))
        return re.sub(r"(?<=[a-z])[0-9]+", row, move, count=draw(st.integers(0, 2)))
    return move + char


@st.composite
def candidate_move(draw, game: Game, state, reference_cls) -> str:
    """A move string to try in ``state``: legal, mutated, foreign or random."""
    legal = state.legal_moves()
    kind = draw(st.sampled_from(
        ["legal", "mutant", "mutant", "mutant", "foreign", "foreign", "elsewhere", "history",
         "text", "text", "any_text", "special"]
    ))
    if kind == "legal" and legal:
        return draw(st.sampled_from(legal))
    if kind == "mutant":
        base = draw(st.sampled_from(legal)) if legal else draw(st.sampled_from(game.specials))
        return draw(mutation(base))
    if kind == "foreign":  # any move of this game's action space, mostly illegal here
        return state.action_to_move(draw(st.integers(0, state.num_actions - 1)))
    if kind == "elsewhere":  # a move of the same game with other parameters
        other = reference_cls(**draw(game.params))
        move = other.action_to_move(draw(st.integers(0, other.num_actions - 1)))
        return draw(st.one_of(st.just(move), mutation(move)))
    if kind == "history" and state.history:  # a move already played (its cell is taken)
        return draw(st.sampled_from(state.history))
    if kind == "text":
        return draw(st.text(alphabet=game.alphabet, max_size=14))
    if kind == "any_text":
        return draw(st.text(max_size=8))
    return draw(st.sampled_from(game.specials))


def candidate_action(num_actions: int) -> st.SearchStrategy:
    """Integers for apply_action / action_to_move: in range, just outside, far outside."""
    return st.one_of(
        st.integers(0, num_actions - 1),
        st.integers(-3, 2).map(lambda d: d if d < 0 else num_actions + d),
        st.integers(-(2**70), 2**70),
        st.sampled_from([2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**64)]),
    )
