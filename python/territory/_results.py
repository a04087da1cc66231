"""Short ``repr`` for result objects (``PlayoutResults``, ``MatchResults``, evaluation
results): like a DataFrame's, a few lines whatever the number of games: the scalar
fields, an optional summary line, and the shape and type of each array or long list,
never the arrays themselves."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

#: Longest field value shown in full; a longer list or dict is shown by its length.
_SHOWN = 60


def results_repr(obj: Any, summary: str = "") -> str:
    """``ClassName(scalar fields)``, then ``summary`` and the bulky fields by shape."""
    scalars, bulky = [], []
    for field in dataclasses.fields(obj):
        value = getattr(obj, field.name)
        if not field.repr or value is None:
            continue
        if isinstance(value, np.ndarray):
            bulky.append(f"{field.name}: {value.dtype} {value.shape}")
        elif isinstance(value, float):
            scalars.append(f"{field.name}={value:.4g}")
        elif isinstance(value, (list, tuple, dict)) and len(repr(value)) > _SHOWN:
            bulky.append(f"{field.name}: {type(value).__name__} of {len(value)}")
        else:
            scalars.append(f"{field.name}={value!r}")
    lines = [f"{type(obj).__name__}({', '.join(scalars)})"]
    if summary:
        lines.append(f"  {summary}")
    if bulky:
        lines.append("  " + "; ".join(bulky))
    return "\n".join(lines)


def rate_text(rate: float, interval: tuple[float, float]) -> str:
    """A win rate with its 95% interval, ``0.5012 (95% CI 0.4981 .. 0.5043)``."""
    return f"{rate:.4f} (95% CI {interval[0]:.4f} .. {interval[1]:.4f})"
