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
