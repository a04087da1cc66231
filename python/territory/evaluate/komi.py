"""``fair_komi``: Black's win rate in Nume over a sweep of komi values, a logistic fit,
and the komi at which Black wins half the games. The game is the one that declares a
komi (its ``komi_params`` hook, ``territory.games``; ``komi_game``): no game and none of
its parameters is named here."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from territory._checks import check_int, check_threads
from territory._results import results_repr
from territory.evaluate.runs import MAX_GAMES, Progress, _agent_name, _parse, _traces
from territory.evaluate.stats import Z95
from territory.playouts import new_game, wilson_interval
from territory.games import hook
from territory.registry import GAMES

def komi_game() -> str:
    """The game whose komi ``fair_komi`` sweeps: the first that declares one (its
    ``komi_params`` hook in ``territory.games``: Nume)."""
    for name in GAMES:
        if hook(name, "komi_params") is not None:
            return name
    raise LookupError("no game declares a komi")


def _komi_params(params: dict[str, Any], komi: float) -> dict[str, Any]:
    """The komi game's parameters ``params`` with the signed komi ``komi`` (its hook)."""
    return dict(hook(komi_game(), "komi_params")(params, komi))


def _swept() -> tuple[str, ...]:
    """The parameters the sweep sets (the komi game's ``KOMI_PARAMETERS``)."""
    return tuple(hook(komi_game(), "KOMI_PARAMETERS"))


def fit_logistic(x: np.ndarray, wins: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood logistic fit of P(win) = 1 / (1 + exp(-(a + b x))) to binomial
    counts by Newton's method (IRLS). Returns (a, b) and their covariance matrix (the
    inverse of the Fisher information)."""
    x = np.asarray(x, dtype=np.float64)
    wins = np.asarray(wins, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    X = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(X @ beta)))
        w = n * p * (1.0 - p)
        hessian = X.T @ (X * w[:, None]) + 1e-12 * np.eye(2)
        step = np.linalg.solve(hessian, X.T @ (wins - n * p))
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(X @ beta)))
    w = n * p * (1.0 - p)
    cov = np.linalg.inv(X.T @ (X * w[:, None]) + 1e-12 * np.eye(2))
    return beta, cov


@dataclass
class KomiFit:
    """One agent's komi sweep: ``curve`` (komi, games, black_wins, win_rate with Wilson
    intervals, fitted), the logistic coefficients and the crossing ``estimate`` with its
    95% ``interval`` (delta method)."""

    __repr__ = results_repr

    agent: str
    estimate: float
    interval: tuple[float, float]
    coefficients: tuple[float, float]
    covariance: list[list[float]]
    curve: dict[str, list[float]]

    def fitted(self, komi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The fitted win rate at ``komi`` and its 95% band."""
        komi = np.asarray(komi, dtype=np.float64)
        X = np.column_stack([np.ones_like(komi), komi])
        eta = X @ np.asarray(self.coefficients)
        se = np.sqrt(np.einsum("ij,jk,ik->i", X, np.asarray(self.covariance), X))
        f = lambda e: 1.0 / (1.0 + np.exp(-e))  # noqa: E731
        return f(eta), f(eta - Z95 * se), f(eta + Z95 * se)

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "estimate": self.estimate, "interval": list(self.interval), "coefficients": list(self.coefficients), "covariance": self.covariance, "curve": self.curve}


@dataclass
class FairKomi:
    """``fair_komi``'s result. ``estimate``, ``interval`` and ``curve`` are those of the
    first agent; ``fits`` holds one ``KomiFit`` per agent strength."""

    __repr__ = results_repr

    params: dict[str, Any]
    games: int
    seed: int
    fits: list[KomiFit]
    seconds: float = 0.0

    @property
    def estimate(self) -> float:
        return self.fits[0].estimate

    @property
    def interval(self) -> tuple[float, float]:
        return self.fits[0].interval

    @property
    def curve(self) -> dict[str, list[float]]:
        return self.fits[0].curve

    @property
    def game(self) -> str:
        return komi_game()

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "params": self.params, "games_per_komi": self.games, "seed": self.seed, "seconds": self.seconds, "fits": [f.to_dict() for f in self.fits]}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        lines = [f"{self.game} fair komi (komi added to Black's score; negative: to White's), {self.games:,} games per komi value, seed {self.seed}"]
        for f in self.fits:
            lines.append(f"  {f.agent:<12} fair komi {f.estimate:8.2f}   95% CI [{f.interval[0]:.2f}, {f.interval[1]:.2f}]")
        return "\n".join(lines)

    def plot(self, path: Any) -> None:
        """Black's win rate against komi, with Wilson intervals, the fitted logistic
        curve and its 95% band, and the fair komi; SVG or PNG by the suffix."""
        from territory.evaluate import plots

        plots.plot_komi(self, path)


DEFAULT_KOMI = tuple(k + 0.5 for k in range(-21, 21))  # -20.5 .. 20.5


def _komi_start(params: dict[str, Any], value: Any) -> tuple[float, Any]:
    """A komi value of the sweep (signed: positive for Black) and Nume's start with it;
    the engine checks the komi, as for ``Nume(komi=...)``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ValueError(f"komi values must be numbers, got {value!r}")
    komi = float(value)
    try:
        return komi, new_game(komi_game(), **_komi_params(params, komi))
    except ValueError as error:
        raise ValueError(f"komi value {value!r}: {error}") from None


def fair_komi(
    agent: Any = "random",
    games: int = 2000,
    seed: int = 0,
    executor: Any = None,
    komi_values: Iterable[float] | None = None,
    threads: int | None = None,
    *,
    progress: Progress | None = None,
    **game_params: Any,
) -> FairKomi:
    """Black's win rate in Nume at each komi of ``komi_values`` (default -20.5 .. 20.5;
    positive: added to Black's score, negative: to White's), ``games`` games each, a
    logistic fit, and the komi at which Black wins half the games with a 95% interval.

    ``agent`` is one agent (as for ``evaluate``) or a list of them (several strengths:
    one fit each). Games at the j-th komi value are games ``j * games .. (j + 1) *
    games - 1`` of the run seeded with ``seed``, so komi values are independent samples.
    """
    for key in _swept():
        if key in game_params:
            raise ValueError(f"fair_komi sweeps {key} itself; do not pass {key}=")
    _komi_params(game_params, DEFAULT_KOMI[0])  # the game's own objections to a fixed komi
    games = check_int("games", games, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    starts = dict(sorted(_komi_start(game_params, k) for k in (DEFAULT_KOMI if komi_values is None else komi_values)))
    values = list(starts)
    if len(values) < 2:
        raise ValueError(f"komi_values must hold at least two distinct values k + 0.5 to fit a curve, got {values}")
    params = {k: v for k, v in starts[values[0]].params.items() if k not in _swept()}
    agents = [_parse(a, "fair_komi", starts[values[0]]) for a in (agent if isinstance(agent, (list, tuple)) else [agent])]
    if not agents:
        raise ValueError("agent list is empty")
    began = time.perf_counter()
    total = len(agents) * len(values) * games
    fits = []
    for a_index, a in enumerate(agents):
        wins = []
        for j, komi in enumerate(values):
            out = _traces(
                starts[komi], a, games, seed, first=j * games, threads=threads, executor=executor,
                progress=progress, outcomes_only=True, done_before=(a_index * len(values) + j) * games, grand_total=total,
            )
            wins.append(int((out["winner"] == 0).sum()))  # seat 0 plays Black (no komi phase)
        fits.append(_fit_komi(_agent_name(a), np.array(values), np.array(wins), games))
    return FairKomi(params, games, seed, fits, time.perf_counter() - began)


def _fit_komi(agent: str, komi: np.ndarray, wins: np.ndarray, games: int) -> KomiFit:
    n = np.full(len(komi), games, dtype=np.float64)
    (a, b), cov = fit_logistic(komi, wins, n)
    # Games are counts: whole numbers in the curve (and its JSON), floats only in the fit.
    curve: dict[str, list[float]] = {"komi": komi.tolist(), "games": [games] * len(komi), "black_wins": wins.tolist(), "win_rate": (wins / n).tolist()}
    intervals = [wilson_interval(w, games) for w in wins]
    curve["ci_low"] = [lo for lo, _ in intervals]
    curve["ci_high"] = [hi for _, hi in intervals]
    if abs(b) < 1e-12 or not np.all(np.isfinite(cov)):
        estimate, interval = math.nan, (math.nan, math.nan)
    else:
        estimate = -a / b
        gradient = np.array([-1.0 / b, a / b**2])
        se = math.sqrt(max(float(gradient @ cov @ gradient), 0.0))
        interval = (estimate - Z95 * se, estimate + Z95 * se)
    fit = KomiFit(agent, float(estimate), (float(interval[0]), float(interval[1])), (float(a), float(b)), cov.tolist(), curve)
    curve["fitted"] = fit.fitted(komi)[0].tolist()
    return fit
