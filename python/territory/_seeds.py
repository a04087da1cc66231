"""The one way the Python layer derives seeds from several integers (per game, per seat,
per move): SplitMix64 steps, the mixer the engine uses for its own streams."""

from __future__ import annotations

MASK = 2**64 - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(*values: int, start: int = 0) -> int:
    """A 64-bit seed from ``values``: from ``start``, each value is XORed in, the golden
    ratio added, and the SplitMix64 finaliser applied. ``start`` separates streams:
    matches use 0, ``evaluate``'s per-game agent seeds ``GOLDEN`` (both kept as they were
    so that seeded results do not change)."""
    z = start & MASK
    for v in values:
        z = ((z ^ (int(v) & MASK)) + GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
    return z
