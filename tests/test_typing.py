"""The shipped type information: the native module's stubs match it (stubtest), and the
pure-Python modules type-check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
PACKAGE = Path(__import__("territory").__file__).parent
SOURCE = Path(__file__).resolve().parents[1] / "python" / "territory"


def test_stubs_match_the_native_module(tmp_path):
    """``_core.pyi`` types everything but the game classes, which ``_native/<game>.pyi``
    type where ``territory`` imports them from (so the classes are allowed to be missing
    from ``_core``'s stub and its ``__all__``, and only they: every other name the native
    module exports is still checked one by one)."""
    import territory

    allowlist = tmp_path / "allowlist"
    classes = [f"territory._core.{cls.__name__}" for cls in territory.GAMES.values()]
    allowlist.write_text("\n".join([*classes, "territory._core.__all__"]) + "\n")
    modules = ["territory._core", *(f"territory._native.{game}" for game in territory.GAMES)]
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--allowlist", str(allowlist), *modules],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_ships_stubs_and_marker():
    assert (PACKAGE / "py.typed").exists() and (PACKAGE / "_core.pyi").exists()


def test_public_modules_type_check():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--config-file", str(SOURCE.parents[1] / "pyproject.toml"),
         "--exclude", "reference/", str(SOURCE)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_committed_stubs_are_the_generated_ones():
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import gen_stubs
    finally:
        sys.path.pop(0)
    assert gen_stubs.stale() == [], "run python tests/gen_stubs.py"
