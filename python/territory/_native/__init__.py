"""The native game classes, one module per game (tests/gen_stubs.py)."""
