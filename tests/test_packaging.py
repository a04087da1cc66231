"""Packaging: building without Rust fails with one clear line; the source distribution
carries what a build and the tests need."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BACKEND = ROOT / "build_backend"
pytestmark = pytest.mark.skipif(not (BACKEND / "territory_build.py").exists(), reason="needs the source tree")


def without_cargo(tmp_path: Path) -> dict[str, str]:
    """The environment with a PATH on which no cargo can be found."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARGO", "CARGO_HOME", "RUSTUP_HOME")}
    env["PATH"] = str(tmp_path)  # an empty directory
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def test_the_backend_stops_with_one_line_when_rust_is_missing(tmp_path):
    for hook in ("get_requires_for_build_wheel", "get_requires_for_build_sdist", "get_requires_for_build_editable"):
        result = subprocess.run(
            [sys.executable, "-c", f"import territory_build; territory_build.{hook}()"],
            cwd=BACKEND, env=without_cargo(tmp_path), capture_output=True, text=True, timeout=60,
        )
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert "Rust toolchain" in result.stderr and "rustup" in result.stderr and "wheel" in result.stderr


def test_the_backend_asks_for_maturin_when_rust_is_there():
    sys.path.insert(0, str(BACKEND))
    try:
        import territory_build
    finally:
        sys.path.remove(str(BACKEND))
    if not (os.environ.get("CARGO") or __import__("shutil").which("cargo")):
        pytest.skip("no cargo here")
    assert [r.split(">")[0] for r in territory_build.get_requires_for_build_wheel()] == ["maturin"]


@pytest.mark.skipif(importlib.util.find_spec("pip") is None, reason="needs pip")
def test_pip_install_without_rust_offline_says_so_near_the_top(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-index", "--no-deps", "--disable-pip-version-check", "-w", str(tmp_path / "out"), str(ROOT)],
        env=without_cargo(tmp_path), capture_output=True, text=True, timeout=300,
    )
    assert result.returncode != 0
    output = (result.stdout + result.stderr).splitlines()
    line = next(i for i, text in enumerate(output) if "needs a Rust toolchain" in text)
    assert line < 10 and len(output) < 25, "\n".join(output)
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.skipif(importlib.util.find_spec("maturin") is None, reason="needs maturin")
def test_the_sdist_carries_the_licence_docs_and_tests(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "maturin", "sdist", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    if result.returncode != 0 and "cargo" in result.stderr.lower() and not __import__("shutil").which("cargo"):
        pytest.skip("maturin sdist needs cargo")
    assert result.returncode == 0, result.stderr
    [sdist] = tmp_path.glob("*.tar.gz")
    assert sdist.name.startswith("territory_games-")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        pkg_info = archive.extractfile(next(n for n in archive.getnames() if n.endswith("/PKG-INFO"))).read().decode()
    wanted = {
        "LICENSE", "README.md", "build_backend/territory_build.py", "docs/RULES.md",
        "tests/test_cli.py", "tests/data/tabik.playouts.json", "benches/playouts.rs", "Cargo.lock",
        "python/territory_cli/__init__.py",  # the command's entry point (docs/interrupts.md)
        "scaffold/toy/rust/territory/src/games/toy.rs",  # docs/adding-a-game.md starts from it
    }
    assert wanted <= names, wanted - names
    # No build settings outside Cargo.toml: CPU features are detected at run time, so a
    # build from the sdist is the same as a wheel (territory::rules::cpu).
    assert not any(name.startswith(".cargo/") for name in names)
    assert not any("__pycache__" in name for name in names)
    for field in ("Name: territory-games", "License-Expression: MIT", "License-File: LICENSE", "Author: ", "Keywords: "):
        assert field in pkg_info, field
    # There is no public repository yet: no placeholder address either.
    assert "example.invalid" not in pkg_info


# --- docs match the code ------------------------------------------------------------------


def test_readme_shows_the_real_group_repr():
    import territory

    readme = (ROOT / "README.md").read_text()
    shown = re.search(r"s\.groups\(\) +# \[(Group\(.*?\)), \.\.\.\]", readme)
    assert shown, "README no longer shows a Group"
    s = territory.Tabik(size=8, pie=True)
    s.play("b2-b3")
    s.play("swap")
    assert shown.group(1) == repr(s.groups()[0])


def test_docs_cited_in_the_package_exist():
    cited = set()
    for path in (ROOT / "python" / "territory").rglob("*.py"):
        cited |= set(re.findall(r"docs/[A-Za-z_/]+\.md", path.read_text()))
    assert cited and not {doc for doc in cited if not (ROOT / doc).exists()}
    assert "../shared" not in (ROOT / "docs" / "conventions.md").read_text()


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    lines = (ROOT / "README.md").read_text().split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("pip install . && territory simulate all")
    assert lines[1].startswith("bash .ci/run")
