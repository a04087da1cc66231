"""Seeded random playouts give bit-for-bit the results pinned before any refactoring."""

from __future__ import annotations

import json

import pytest

from pin_playouts import CONFIGS, DATA, SEEDS, checksum, key

PINNED = json.loads(DATA.read_text())


@pytest.mark.parametrize("game, params, games", CONFIGS, ids=lambda v: str(v))
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_playouts_are_pinned(game, params, games, seed):
    assert checksum(game, params, games, seed) == PINNED[key(game, params, games, seed)]
