"""``python -m territory``: the ``territory`` command (its light entry point, which
handles Ctrl-C; the package's import was guarded by ``territory_cli.guard_start_up``)."""

import sys

from territory_cli import main

sys.exit(main())
