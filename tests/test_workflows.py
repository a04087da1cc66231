"""The release workflow (.github/workflows/release.yml) cannot run here: it is checked by
two workflow linters (actionlint for syntax, expressions and job wiring; zizmor for
security: pinned actions, token permissions, credentials), and read for the platforms it
promises. The linters come with the test extra on x86-64 Linux (where CI runs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"

pytestmark = pytest.mark.skipif(not WORKFLOW.exists(), reason="no .github/workflows here (an sdist)")


def linter(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (it comes with the test extra on x86-64 Linux)")
    return path


def test_actionlint_finds_nothing() -> None:
    run = subprocess.run([linter("actionlint"), "-no-color"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_zizmor_finds_nothing() -> None:
    run = subprocess.run(
        [linter("zizmor"), "--offline", "--no-progress", str(WORKFLOW)], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_promised_platform_is_built_and_tested() -> None:
    text = WORKFLOW.read_text()
    for name in ("linux-x86_64", "linux-aarch64", "musllinux-x86_64", "musllinux-aarch64",
                 "macos-x86_64", "macos-arm64", "windows-x86_64"):
        # Each platform has a wheel job and a test job that downloads that wheel.
        assert text.count(f"name: {name}") >= 2, name
    assert "command: sdist" in text
    assert "id-token: write" in text and "startsWith(github.ref, 'refs/tags/v')" in text
    # Each test job runs .ci/test-wheel: the engine's tests and the package's against the wheel.
    assert text.count("bash .ci/test-wheel dist") == 2
    script = (ROOT / ".ci" / "test-wheel").read_text()
    assert "cargo test -p territory" in script and "pytest" in script and '"${wheel}[test]"' in script
