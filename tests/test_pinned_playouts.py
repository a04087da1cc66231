"""Seeded random playouts give bit-for-bit the results pinned before any refactoring."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pin_playouts import CONFIGS, SEEDS, checksum, key, pinned

PINNED = pinned()


@pytest.mark.parametrize("game, params, games", CONFIGS, ids=lambda v: str(v))
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_playouts_are_pinned(game, params, games, seed):
    assert checksum(game, params, games, seed) == PINNED[key(game, params, games, seed)]


def test_the_portable_path_gives_the_pinned_results_too():
    """With ``TERRITORY_PORTABLE=1`` the engine counts bits without POPCNT or PDEP (the
    variable is read once, on first use, hence a child process)."""
    code = (
        "import json, sys; from pin_playouts import CONFIGS, SEEDS, checksum, key; "
        "json.dump({key(g, p, n, s): checksum(g, p, n, s) for g, p, n in CONFIGS for s in SEEDS}, sys.stdout)"
    )
    env = dict(os.environ, TERRITORY_PORTABLE="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), env.get("PYTHONPATH")]))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == PINNED
