"""The driver's side of the cross-check protocol (docs/crosscheck.md): another
implementation runs as a child process and answers one JSON object per line on its
standard output for each JSON request line on its standard input.

Every reply is awaited at most ``timeout`` seconds; a missing, crashing, slow or
malformed engine raises :class:`EngineError` naming the request it failed on, never hangs.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import sys
import tempfile
import threading
from typing import Any, NoReturn

#: Version of the protocol (the ``"protocol"`` key of the ``new`` request).
PROTOCOL_VERSION = 1

#: The longest reply line read, in characters: the longest a correct engine sends is
#: Nume's legal moves at the start on 16 x 16, about 0.66 million.
MAX_REPLY = 8 * 2**20

#: What the reading thread queues for a line longer than MAX_REPLY (it then stops).
_TOO_LONG = object()

#: What each request's reply must hold: key -> a check of its value and its description.
REPLY_KEYS: dict[str, dict[str, tuple[Any, str]]] = {
    "new": {"ok": (lambda v: v is True, "true")},
    "play": {"ok": (lambda v: v is True, "true")},
    "legal_moves": {"moves": (lambda v: isinstance(v, list) and all(isinstance(m, str) for m in v), "a list of strings")},
    "scores": {"scores": (
        lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in v),
        "a list of two numbers",
    )},
    "winner": {
        "over": (lambda v: isinstance(v, bool), "true or false"),
        "winner": (lambda v: v in (None, 0, 1) and not isinstance(v, bool), "0, 1 or null"),
    },
}


class EngineError(Exception):
    """The engine could not be started, exited, answered late or answered nonsense."""


class Refused(Exception):
    """The engine answered ``{"error": ...}``: it refused the request."""


class Engine:
    """A running engine process. ``ask(request)`` sends one request and returns its
    reply (a dict); use as a context manager, which ends the process."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command, self.timeout = command, timeout
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise EngineError(f"cannot read the engine command {command!r}: {error}") from None
        if not argv:
            raise EngineError("the engine command is empty")
        self._stderr = tempfile.TemporaryFile(mode="w+b")
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
            )
        except OSError as error:
            self._stderr.close()
            raise EngineError(f"cannot start the engine {argv[0]!r}: {error.strerror or error}") from None
        self._lines: queue.Queue[object] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while line := self.process.stdout.readline(MAX_REPLY + 1):
            if len(line) > MAX_REPLY and not line.endswith("\n"):
                self._lines.put(_TOO_LONG)  # read no further: the line could be endless
                return
            self._lines.put(line)
        self._lines.put(None)

    def ask(self, request: dict[str, Any], step: str) -> dict[str, Any]:
        """The engine's reply to ``request``; ``step`` names it in error messages. Raises
        Refused for an ``{"error": ...}`` reply, EngineError for anything unusable."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except OSError:
            self._failed(step, "could not be sent: the engine has closed its input")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._failed(step, f"no reply within {self.timeout:g} s (--timeout)")
        if line is None:
            self._failed(step, "no reply: the engine closed its output")
        if line is _TOO_LONG:
            self._failed(step, f"the reply is longer than {MAX_REPLY:,} characters without an end of line")
        assert isinstance(line, str)
        try:
            reply = json.loads(line)
        except ValueError:
            self._failed(step, f"the reply is not JSON: {_excerpt(line)}")
        if not isinstance(reply, dict):
            self._failed(step, f"the reply is not a JSON object: {_excerpt(line)}")
        if "error" in reply:
            raise Refused(str(reply["error"]))
        for key, (check, what) in REPLY_KEYS[request["cmd"]].items():
            if key not in reply:
                self._failed(step, f"the reply has no {key!r}: {_excerpt(line)}")
            if not check(reply[key]):
                self._failed(step, f"the reply's {key!r} must be {what}: {_excerpt(line)}")
        return reply

    def _failed(self, step: str, problem: str) -> NoReturn:
        exited = self.process.poll()
        if exited is None and "no reply:" in problem:
            try:
                exited = self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
        status = f"; the engine exited with code {exited}" if exited is not None else ""
        raise EngineError(f"engine {self.command!r} at {step}: {problem}{status}{self._stderr_tail()}")

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0)
            lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return f"; its last error output: {_excerpt(lines[-1])}" if lines else ""

    def close(self) -> None:
        """Sends ``end`` and ends the process (killed if it does not exit in a second)."""
        try:
            if self.process.poll() is None and self.process.stdin is not None:
                self.process.stdin.write(json.dumps({"cmd": "end"}) + "\n")
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._stderr.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _excerpt(text: str, limit: int = 80) -> str:
    text = text.rstrip("\n")
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def python_command(module: str) -> str:
    """The shell command that runs ``python -m module`` with this interpreter."""
    return f"{shlex.quote(sys.executable)} -m {module}"
