"""Perft: the number of move sequences of each depth from recorded positions
(tests/data/<game>.perft), counted by the native engine and by the reference.

The fast set counts the cheap depths (with the native engine: at most a few thousand
positions to expand; with the reference: the start and a late position of every option
set, a few hundred thousand actions' worth of move generation); the ``slow`` cases count
every depth of every entry. ``cargo test`` checks the same files with the engine's own
``Game::perft`` (rust/territory/tests/perft.rs).
"""

from __future__ import annotations

import importlib

import pytest

from perft import GAMES, Entry, perft, position, read

NATIVE_NODES = 3000  # most positions to expand at depth d - 1 in the fast set
REFERENCE_WORK = 20_000  # most (positions to expand) x num_actions in the fast set


def native_class(game: str):
    return getattr(importlib.import_module("territory"), game.capitalize())


def reference_class(game: str):
    return getattr(importlib.import_module(f"territory.reference.{game}"), game.capitalize())


def cheap(kind: str, entry: Entry, depth: int) -> bool:
    expand = entry.counts.get(depth - 1, 1) if depth > 1 else 1
    if kind == "native":
        return expand <= NATIVE_NODES
    if not entry.id.endswith(("-start", "-late")):
        return False
    return expand * native_class(entry.game)(**entry.params).num_actions <= REFERENCE_WORK


def cases(kind: str):
    for game in GAMES:
        for entry in read(game):
            fast = {d: n for d, n in entry.counts.items() if cheap(kind, entry, d)}
            if fast:
                yield pytest.param(entry, fast, id=entry.id)
            if fast != entry.counts:
                yield pytest.param(entry, entry.counts, id=f"{entry.id}-all",
                                   marks=pytest.mark.slow)


def check(cls, entry: Entry, counts: dict[int, int]) -> None:
    state = position(cls, entry)
    history = state.history
    for depth, expected in sorted(counts.items()):
        assert perft(state, depth) == expected, f"{entry.id}: perft {depth}"
    assert state.history == history, "perft changed the position"


@pytest.mark.parametrize(("entry", "counts"), list(cases("native")))
def test_perft_native(entry, counts):
    check(native_class(entry.game), entry, counts)


@pytest.mark.parametrize(("entry", "counts"), list(cases("reference")))
def test_perft_reference(entry, counts):
    check(reference_class(entry.game), entry, counts)


def test_perft_files_cover_every_game_and_option():
    """Every game and the options that change the moves have entries, with depth 3 or
    more somewhere."""
    seen = {game: read(game) for game in GAMES}
    sizes = {e.params["size"] for e in seen["tabik"]}
    assert {2, 3, 4, 8, 16} <= sizes
    assert {e.params["pie"] for e in seen["tabik"]} == {True, False}
    hexes = {e.params["n"] for e in seen["nume"] if e.params["square"] is None}
    squares = {e.params["square"] for e in seen["nume"]} - {None}
    assert {1, 2, 4, 8} <= hexes and {2, 3, 9, 16} <= squares
    assert any(e.params["komi_phase"] for e in seen["nume"])
    borders = {e.params["border"] if len(e.params["border"]) < 84 else "explicit"
               for e in seen["migong"]}
    assert borders == {"alternate", "blue", "yellow", "explicit"}
    assert {e.params["pie"] for e in seen["migong"]} == {True, False}
    for game, entries in seen.items():
        assert any(not e.moves for e in entries), f"{game}: no entry from the start"
        assert max(max(e.counts) for e in entries) >= 3, f"{game}: nothing deeper than 2"
