"""Argument checks shared by the Python modules that take counts and bounds from users
(agents, matches, evaluation): a clear ``ValueError`` naming the argument."""

from __future__ import annotations

from typing import Any

import numpy as np

from territory._core import MAX_THREADS


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an int from ``low`` to ``high`` (no upper bound for None); bools and
    other types are refused, numpy integers accepted."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an int {bound}, got {value!r}")
    return int(value)


def check_threads(threads: Any) -> int | None:
    """``threads``: None (every core) or an int from 1 to ``MAX_THREADS``."""
    if threads is not None:
        check_int("threads", threads, 1, MAX_THREADS)
    return threads


def available_memory() -> int | None:
    """The memory available now, in bytes (``MemAvailable`` on Linux), or None where it
    cannot be read."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _size(count: int) -> str:
    for unit, size in (("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if count >= size:
            return f"{count / size:,.1f} {unit}"
    return f"{count:,} bytes"


def check_memory(what: str, needed: int, instead: str) -> None:
    """A ``ValueError`` if ``what`` (a phrase, "keeping the arrays of 10 games") needs
    more than the memory available now (``needed`` bytes), saying what to do
    ``instead``."""
    available = available_memory()
    if available is not None and needed > available:
        raise ValueError(f"{what} needs about {_size(needed)}, more than the {_size(available)} of memory "
                         f"available: {instead}")
