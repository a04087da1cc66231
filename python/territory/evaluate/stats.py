"""Estimates with 95% intervals, shared by the analyses."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from territory.playouts import wilson_interval

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Metric:
    """A metric's value and its 95% interval (None where none applies)."""

    estimate: float
    interval: tuple[float, float] | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": _json_float(self.estimate), "interval": None if self.interval is None else [_json_float(v) for v in self.interval], "note": self.note}

    def __str__(self) -> str:
        if self.interval is None:
            return f"{self.estimate:.4g}"
        return f"{self.estimate:.4g} [{self.interval[0]:.4g}, {self.interval[1]:.4g}]"


def _json_float(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _proportion(successes: float, n: int, note: str = "") -> Metric:
    return Metric(successes / n if n else math.nan, wilson_interval(successes, n), note)


def _mean(values: np.ndarray, note: str = "") -> Metric:
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n == 0:
        return Metric(math.nan, (math.nan, math.nan), note)
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Metric(mean, (mean - half, mean + half), note)
