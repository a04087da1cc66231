"""The entry point of the ``territory`` command, apart from the ``territory`` package so
that Ctrl-C is handled from the first moment: importing ``territory`` (numpy, the native
module) takes a good fraction of a second, and an interrupt then would otherwise end in
a traceback. Nothing heavy is imported before ``main`` runs (docs/interrupts.md).

``python -m territory`` cannot start here: Python imports the package first. So the
package's first line calls ``guard_start_up``, which, in that one case, makes Ctrl-C
during the import end the command the same way; ``territory.__main__`` then runs
``main``."""

import signal
import sys

#: The exit code of an interrupted command: 128 + SIGINT, as shells report Ctrl-C.
INTERRUPTED = 130


def interrupted() -> int:
    """Ignores any further Ctrl-C, prints the one line and returns ``INTERRUPTED``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("territory: interrupted", file=sys.stderr)
    return INTERRUPTED


def _exit_interrupted(signum: int, frame: object) -> None:
    sys.exit(interrupted())


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
    ``INTERRUPTED`` and one line on stderr."""
    try:
        # Python's own handler again (``guard_start_up``'s under ``python -m territory``).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from territory import cli

        return cli.main()
    except KeyboardInterrupt:
        return interrupted()
