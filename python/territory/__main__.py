import sys

from territory.cli import main

sys.exit(main())
