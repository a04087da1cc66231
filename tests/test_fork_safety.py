"""Every bulk call works in a child process after running in its parent: forked
(``os.fork``, multiprocessing's "fork", the default on Linux before Python 3.14) or
started by a ``ProcessPoolExecutor`` with each start method. A forked child has the
parent's thread pools' memory but none of their threads; work sent there would wait
forever (docs/interrupts.md). Each case runs in a subprocess with a timeout, so a hang
fails the test instead of stopping the suite."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("bulk_calls.py")
MODES = ["os.fork", "fork", "pool-fork", "pool-spawn", "pool-forkserver"]


@pytest.mark.parametrize("mode", MODES)
def test_bulk_calls_work_in_a_child_after_the_parent(mode: str) -> None:
    method = "fork" if mode in ("os.fork", "fork") else mode.removeprefix("pool-")
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method!r} start method on this platform")
    try:
        result = subprocess.run([sys.executable, str(SCRIPT), mode], capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired as timeout:
        out = (timeout.stdout or b"").decode() if isinstance(timeout.stdout, bytes) else (timeout.stdout or "")
        last = out.strip().splitlines()[-1:] or ["(nothing)"]
        pytest.fail(f"{mode}: hung; last call started: {last[0]}")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.strip().endswith("ok")
