"""Each game's test data, in a module of its own named after the game
(``tests/games/<game>.py``), found by the game's name: a new game adds its module and
touches no shared test file.

A game's module defines:

``DEFAULTS``
    its parameters and their defaults, in the order of its docs/games/<game>.md
    (tests/test_registry.py);
``PARAMS``
    a hypothesis strategy of its parameters (tests/strategies.py: the differential
    tests);
``max_length(params) -> int``
    the exact bound of the engine's ``max_game_length`` (its docs/games/<game>.md);
``ALPHABET``, ``SPECIALS``, ``COST``, ``PLAY_COST`` and, optionally, ``plan_length(params)``
    the differential tests' random move strings, hand-picked odd strings (beside the
    shared ones), relative costs and plan length (``strategies.Game`` says what each is);
``SAMPLES``, ``BAD_PARAMS``, ``EDGES`` and, optionally, ``fast_edge(params)``
    the differential tests' parameter sets: a few for the odd-type checks, a strategy of
    good and bad parameters (``bad_values``), every board size and option (those for which
    ``fast_edge`` is false are marked slow);
``POSITIONS``, ``BAD_POSITIONS``
    parameter sets whose positions engine and reference write and read alike, and
    malformed or impossible positions with their parameters (tests/test_positions.py);
``VECTOR_TAGS``
    the edge cases its shipped vectors must have, beside every game's
    (tests/test_crosscheck.py);
``PERFT``
    its option sets for perft (tests/make_perft.py writes ``tests/data/<game>.perft``);
``PINS``
    its seeded playouts to pin, as ``(params, games)`` (tests/pin_playouts.py writes
    ``tests/data/<game>.playouts.json``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

#: What every game's module must define.
REQUIRED = ("DEFAULTS", "PARAMS", "max_length", "ALPHABET", "SPECIALS", "COST", "PLAY_COST", "SAMPLES",
            "BAD_PARAMS", "EDGES", "POSITIONS", "BAD_POSITIONS", "VECTOR_TAGS", "PERFT", "PINS")

HERE = Path(__file__).parent


def bad_values(good: Any, bad: list) -> Any:
    """A strategy of a parameter's values: mostly good ones (``good``, a strategy), else
    one of ``bad``."""
    from hypothesis import strategies as st

    return st.one_of(good, good, st.sampled_from(bad))


def names() -> list[str]:
    """The games that have a test module here, in name order."""
    return sorted(p.stem for p in HERE.glob("*.py") if p.stem != "__init__")


def module(game: str) -> ModuleType:
    """The test data of ``game`` (a key of ``territory.GAMES``)."""
    return importlib.import_module(f"{__name__}.{game}")


def modules() -> dict[str, ModuleType]:
    """Every registered game's test data, in the registry's order."""
    import territory

    return {name: module(name) for name in territory.GAMES}
