"""The one way the tests send Ctrl-C (docs/interrupts.md).

- ``interrupt(args, ...)`` starts a command, sends it SIGINT at a chosen moment and
  returns how it ended (``Ended``: exit code, output, seconds from the signal to the
  exit); ``Ended.assert_clean`` checks the promise of every command: exit 130 and one
  line on stderr, no traceback and no Rust panic.
- ``sigint_later(seconds)`` sends this process's main thread SIGINT from a timer, for a
  call interrupted in the test's own process (or in a script such as interrupt_calls.py).
- ``thread_running(pid, name)``: whether a process runs a thread of that name (the
  bindings name the thread of a long call ``territory-run``), to interrupt mid-work.
- ``territory_script()``: the ``territory`` console script beside this Python.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import pytest

#: The promise is 0.5 s; the slack is for a loaded test machine.
PROMPT = 2.0
#: The name the bindings give the worker thread of a long call (interrupt.rs).
WORKER = "territory-run"


@dataclass
class Ended:
    """How an interrupted command ended."""

    returncode: int
    stdout: str
    stderr: str
    #: From the signal to the exit.
    seconds: float

    def assert_clean(self, line: str = "territory: interrupted", *, may_precede_handler: bool = False) -> None:
        """Exit 130 and ``line`` (a regular expression) as the one line on stderr, no
        traceback, no panic, within ``PROMPT``. ``may_precede_handler``: the signal may
        have come before Python installed its handler (the first milliseconds); the
        process then ends by the signal itself (shells report 130 too) and prints
        nothing."""
        if may_precede_handler and self.returncode == -signal.SIGINT:
            # Before our handler, Python's own KeyboardInterrupt may come from the
            # installer's console-script wrapper (its `import re`, before it imports
            # territory_cli): no frame of ours may be in that traceback.
            assert "/territory/" not in self.stderr and "territory_cli" not in self.stderr, self.stderr
            assert self.stderr == "" or self.stderr.rstrip().endswith("KeyboardInterrupt"), self.stderr
        else:
            assert "Traceback" not in self.stderr and "panicked" not in self.stderr, self.stderr
            assert self.returncode == 130, (self.returncode, self.stderr)
            assert len(self.stderr.splitlines()) == 1 and re.fullmatch(line, self.stderr.strip()), self.stderr
        assert self.seconds < PROMPT, self.seconds


def interrupt(args: Sequence[str], *, after: float = 0.0, when: Optional[Callable[[subprocess.Popen], bool]] = None,
              group: bool = False, timeout: float = 60.0) -> Ended:
    """Starts ``args`` (stdout and stderr captured), waits until ``when(process)`` is true
    (if given; polled every 10 ms, or it may block reading the process's output), then
    ``after`` seconds, sends SIGINT (to the whole process group with ``group``, as a
    terminal's Ctrl-C does) and waits for the end. Fails if the command ended before the
    signal or is still running ``timeout`` seconds after it."""
    process = subprocess.Popen(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=group)
    try:
        deadline = time.monotonic() + timeout
        while when is not None and not when(process):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the moment to interrupt never came"
            time.sleep(0.01)
        time.sleep(after)
        assert process.poll() is None, process.communicate()
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{' '.join(args)}: SIGINT ignored (still running after {timeout:g} s)")
        return Ended(process.returncode, out, err, time.monotonic() - sent)
    finally:
        if process.poll() is None:
            if group:
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()
            process.wait()


def sigint_later(seconds: float) -> Callable[[], float]:
    """Sends SIGINT to this process's main thread in ``seconds`` (a timer thread).
    Returns a function giving the seconds since the signal was sent."""
    main, sent = threading.main_thread().ident, []
    assert main is not None

    def send() -> None:
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Timer(seconds, send)
    timer.daemon = True
    timer.start()
    return lambda: time.monotonic() - sent[0]


def thread_running(pid: int, name: str = WORKER) -> bool:
    """Whether process ``pid`` runs a thread named ``name`` (Linux: /proc)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text().strip() == name:
                return True
        except OSError:
            pass
    return False


def wait_until_no_search_runs(seconds: float) -> float:
    """Waits until no engine search runs in this process (Linux: /proc); returns the
    seconds waited. Fails if one still runs after ``seconds``."""
    began = time.monotonic()
    while thread_running(os.getpid()):
        assert time.monotonic() - began < seconds, "a search still runs"
        time.sleep(0.01)
    return time.monotonic() - began


def territory_script() -> str:
    """The ``territory`` console script installed beside this Python (skips if none)."""
    script = Path(sys.executable).with_name("territory")
    if not script.exists():
        pytest.skip("the territory console script is not installed next to this Python")
    return str(script)
