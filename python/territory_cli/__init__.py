"""The entry point of the ``territory`` command, apart from the ``territory`` package so
that Ctrl-C is handled from the first moment: importing ``territory`` (numpy, the native
module) takes a good fraction of a second, and an interrupt then would otherwise end in
a traceback. Nothing heavy is imported before ``main`` runs (docs/interrupts.md)."""

import signal
import sys

#: The exit code of an interrupted command: 128 + SIGINT, as shells report Ctrl-C.
INTERRUPTED = 130


def interrupted() -> int:
    """Ignores any further Ctrl-C, prints the one line and returns ``INTERRUPTED``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("territory: interrupted", file=sys.stderr)
    return INTERRUPTED


def main() -> int:
    """Runs ``territory.cli.main``; Ctrl-C at any moment, importing included, exits with
    ``INTERRUPTED`` and one line on stderr."""
    try:
        from territory import cli

        return cli.main()
    except KeyboardInterrupt:
        return interrupted()
