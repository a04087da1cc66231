"""Plain pure-Python reference implementations of the three games.

Written from RULES.md alone, simply and slowly, to cross-check the native engine.
"""
