"""``python -m territory``: the ``territory`` command (its light entry point, which
handles Ctrl-C; the package's import was guarded by ``territory_cli.guard_start_up``)."""

import sys

from territory_cli import INTERRUPTED, main

code = main()
if code == INTERRUPTED:
    # CPython marks an interrupt that ended any `exec` of a string (dataclasses and
    # namedtuple build their methods so, so an import can end that way) and, under
    # `python -m` only, ends the process by SIGINT after our exit code, even though the
    # interrupt was caught. A string `exec` clears that mark: exit 130 stays exit 130.
    exec("", {})
sys.exit(code)
