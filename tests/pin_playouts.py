"""Checksums of seeded random playouts, pinned so that no refactoring or speed work can
change a result for a given seed (the random policy and per-game seeding are a contract).

``python tests/pin_playouts.py [game ...]`` rewrites ``tests/data/<game>.playouts.json``
(every game's, or the named ones'): run it only when a change of results is intended, or
for a new game, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

import games as test_games

DATA = Path(__file__).parent / "data"
FIELDS = ("winner", "length", "passes", "swapped", "scores")

#: (game, params, games): every board size family and rule option, from each game's test
#: data (``PINS`` in tests/games/<game>.py).
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    (name, params, games) for name, data in test_games.modules().items() for params, games in data.PINS
]
SEEDS = (0, 12345)


def key(game: str, params: dict[str, Any], games: int, seed: int) -> str:
    return f"{game} {json.dumps(params, sort_keys=True)} games={games} seed={seed}"


def checksum(game: str, params: dict[str, Any], games: int, seed: int) -> str:
    import territory

    result = territory.random_playouts(game, games, seed=seed, threads=2, **params)
    digest = hashlib.sha256()
    for name in FIELDS:
        array = np.ascontiguousarray(getattr(result, name))
        digest.update(name.encode())
        digest.update(array.astype(array.dtype.newbyteorder("<")).tobytes())
    for index in (0, games - 1):
        history = territory.replay_playout(game, seed, index, **params).history
        digest.update(" ".join(history).encode())
    return digest.hexdigest()


def pin_file(game: str) -> Path:
    """The file of ``game``'s pinned checksums (read by name, like its perft file)."""
    return DATA / f"{game}.playouts.json"


def pinned() -> dict[str, str]:
    """Every game's pinned checksums, by ``key``."""
    import territory

    return {k: v for game in territory.GAMES for k, v in json.loads(pin_file(game).read_text()).items()}


def compute(game: str) -> dict[str, str]:
    return {
        key(game, params, games, seed): checksum(game, params, games, seed)
        for name, params, games in CONFIGS
        if name == game
        for seed in SEEDS
    }


if __name__ == "__main__":
    import sys

    import territory

    for game in sys.argv[1:] or list(territory.GAMES):
        pin_file(game).write_text(json.dumps(compute(game), indent=1, sort_keys=True) + "\n")
        print(f"wrote {pin_file(game)}")
