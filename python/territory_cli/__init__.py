"""The entry point of the ``territory`` command, apart from the ``territory`` package so
that Ctrl-C is handled from the first moment: importing ``territory`` (numpy, the native
module) takes a good fraction of a second, and an interrupt then would otherwise end in
a traceback. Nothing heavy is imported before ``main`` runs (docs/interrupts.md).

``python -m territory`` cannot start here: Python imports the package first. So the
package's first line calls ``guard_start_up``, which, in that one case, makes Ctrl-C
during the import end the command the same way; ``territory.__main__`` then runs
``main``."""

from __future__ import annotations

import os
import signal
import sys

#: The exit code of an interrupted command: 128 + SIGINT, as shells report Ctrl-C.
INTERRUPTED = 130


def interrupted() -> int:
    """Ignores any further Ctrl-C, prints the one line and returns ``INTERRUPTED``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("territory: interrupted", file=sys.stderr)
    return INTERRUPTED


def _ignore_unraisable(unraisable: object) -> None:
    pass


def _exit_interrupted(signum: int, frame: object) -> None:
    # Not sys.exit: an exception raised mid-import may come out wrapped in another one
    # (see ``caused_by_interrupt``); nothing needs cleaning up before ``main`` starts.
    code = interrupted()
    sys.stderr.flush()
    os._exit(code)


def caused_by_interrupt(error: BaseException | None) -> bool:
    """Whether ``error`` is, or was raised because of, a ``KeyboardInterrupt``. Python
    3.11 wraps an exception raised inside ``__set_name__`` (say, while a dataclass is
    being created during an import) in a ``RuntimeError``, so Ctrl-C at that moment
    arrives as one."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def started_as_python_m() -> bool:
    """Whether this process is ``python -m territory`` (Python imports the package before
    running ``territory.__main__``; ``sys.argv[0]`` is ``-m`` until then). Needs
    ``sys.orig_argv`` (Python 3.10+) to tell ``territory`` from its submodules."""
    argv = getattr(sys, "orig_argv", None)
    if sys.argv[:1] != ["-m"] or argv is None:
        return False
    module = argv[len(argv) - len(sys.argv)] if len(argv) >= len(sys.argv) else ""
    return module == "territory" or (module.startswith("-") and module.endswith("mterritory"))


def guard_start_up() -> None:
    """Under ``python -m territory``, Ctrl-C from now until ``main`` starts exits with
    ``INTERRUPTED`` and one line on stderr. Does nothing otherwise (``import territory``
    keeps Python's own handler)."""
    if started_as_python_m():
        signal.signal(signal.SIGINT, _exit_interrupted)


def main() -> int:
    """Runs ``territory.cli.main``; Ctrl-C at any moment, importing included, exits with
    ``INTERRUPTED`` and one line on stderr.

    After an interrupt the process only exits, so errors in finalizers are not printed
    then: an object that the interrupt left half-made (a Dask future interrupted inside
    its ``__init__``) fails in its ``__del__`` at exit, and Python would print "Exception
    ignored" with a traceback after the one line. (Here, not in ``interrupted``: an
    in-process caller of ``territory.cli.main`` keeps its own hook.)"""
    try:
        # While the package is imported, Ctrl-C exits at once: raised as an exception
        # there it could be lost (in a finalizer that the import's garbage collection
        # runs, where Python only prints it and goes on) or turned into another error
        # (numpy's C import reports it as an ImportError).
        signal.signal(signal.SIGINT, _exit_interrupted)
        from territory import cli

        # Python's own handler for the work (and after ``guard_start_up``'s).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        code = cli.main()
    except Exception as error:
        if not caused_by_interrupt(error):
            raise
        code = interrupted()
    except KeyboardInterrupt:
        code = interrupted()
    if code == INTERRUPTED:
        sys.unraisablehook = _ignore_unraisable
    return code
