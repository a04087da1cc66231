"""``Puct``: tree search guided by a trained policy and value network (docs/learning.md).

``Puct`` plays with the whole search in Rust, the network evaluated by the engine
(``territory._core.Network``); it fits ``play_match``, ``evaluate`` and the command line
(``--agents puct:MODEL:400``). ``run_search`` drives the other way of searching, the
engine asking Python for batches of leaf evaluations (``territory._core.PuctSearch``):
for networks the engine cannot evaluate.
"""

from __future__ import annotations

import copy
import math
import os
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from territory import _core
from territory._checks import check_int
from territory.errors import excerpt
from territory.agents import (MAX_UCT_ITERATIONS, SearchProgress, Stop, _check_progress, _check_stop, spec_count,
                              spec_number, spec_options)
from territory.model import Model

__all__ = ["Puct", "PuctAnalysis", "run_search", "ANALYSIS_NOISE"]

#: The root noise (``noise_fraction``) a ``Puct`` plays with in the analyses by default.
ANALYSIS_NOISE = 0.25


class PuctAnalysis(tuple):  # type: ignore[type-arg]
    """What ``Puct.analyse`` gives: the pair (``visits``, ``value``), the search's visit
    counts by action (float32, one per action) and the root's mean value in [-1, 1] for
    the player to move, so that ``visits, value = agent.analyse(state)`` reads it; and as
    attributes, ``values``, each action's mean value for the player to move (0 where
    not visited or not legal), and the network's own reading of the position where the
    model has the heads (else None): ``margin``, the predicted final score margin in
    points for the player to move (positive: ahead; ``state.score_margin()`` at the
    end), and ``ownership``, one value per cell in [-1, 1] (float32, the board's cell
    order): +1 the cell is predicted to end with the colour the player to move plays,
    -1 with the other's (``state.ownership()`` at the end; ``state.svg(ownership=...)``
    draws it)."""

    values: np.ndarray
    margin: Optional[float]
    ownership: Optional[np.ndarray]

    def __new__(cls, visits: np.ndarray, value: float, values: np.ndarray, margin: Optional[float] = None,
                ownership: Optional[np.ndarray] = None) -> "PuctAnalysis":
        analysis = super().__new__(cls, (visits, float(value)))
        analysis.values, analysis.margin, analysis.ownership = values, margin, ownership
        return analysis

    @property
    def visits(self) -> np.ndarray:
        return self[0]  # type: ignore[no-any-return]

    @property
    def value(self) -> float:
        return self[1]  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        return PuctAnalysis, (self.visits, self.value, self.values, self.margin, self.ownership)

    def __repr__(self) -> str:
        return (f"PuctAnalysis(visits={int(self.visits.sum())} in all, value={self.value:.3f}, "
                f"margin={self.margin}, ownership={'None' if self.ownership is None else 'by cell'})")


def run_search(model: Model, states: Sequence[Any], iterations: int, c_puct: float = 1.5,
               noise_alpha: float = 0.3, noise_fraction: float = 0.0, seed: int = 0,
               leaves_per_search: int = 1) -> Any:
    """Searches every state of ``states`` (running games of one game) with ``iterations``
    simulations each, ``model`` evaluating the leaves of all the searches together (up
    to ``leaves_per_search`` per search and round), and returns the finished
    ``_core.PuctSearch`` (``visits()``, ``best_actions()``, ``root_values()``)."""
    search = _core.PuctSearch(list(states), iterations, c_puct, noise_alpha, noise_fraction, seed, leaves_per_search,
                              features=model.feature_len > 0)
    while (obs := search.leaves()) is not None:
        logits, values = model.forward(obs)
        search.backup(logits, values)
    return search


class Puct:
    """PUCT search with ``iterations`` simulations per move, guided by ``model`` (a
    ``Model``, a ``.npz`` path or a shipped model's name such as ``"tabik-6"``).

    The whole search runs in the engine (``territory._core.Network``: the network is
    evaluated in Rust, one leaf at a time, GIL released; Ctrl-C stops it), so in
    ``play_match`` and ``evaluate`` a ``Puct`` plays in Rust like ``Uct``, games in
    parallel. With ``rollout_weight`` λ > 0 a leaf's value is ``(1 - λ) v + λ r``, ``r``
    the result of one random playout from the leaf (AlphaGo's mixing); by default (None)
    the weight the model plays or was trained with (its ``meta``), else 0. A leaf is evaluated
    by the network and expanded on its ``expansion_visits``-th visit, each earlier visit
    valued by a random playout alone (AlphaGo's expansion threshold: the network's cost
    is shared by that many simulations); by default (None) the model's value, else 1 (at
    once). The defaults (None) come from the model's ``meta``: ``play`` (the settings it
    was measured to play best with, in docs/learning.md), then ``trained`` (those it was
    trained with; ``c_puct`` excepted), then ``c_puct=1.5``, ``rollout_weight=0``,
    ``expansion_visits=1``. The priors are ``softmax(logits / policy_temperature)``
    (below 1 sharper: the search spends more of its simulations on the network's
    favourite moves; by default (None) the model's ``play`` value, else 1, the network's
    own policy).

    Plays the most visited move. ``noise_fraction`` mixes Dirichlet(``noise_alpha``)
    noise into the priors at each search's root (AlphaZero's self-play exploration); by
    default (None) there is none in ``choose`` and ``play_match`` (the same state and
    seed always get the same move), and ``ANALYSIS_NOISE`` (0.25) in the analyses
    (``evaluate``, ``fair_komi``, ``openings``), which measure many distinct games:
    without noise every game from a position would be the same game. An analysis
    refuses a ``Puct`` given ``noise_fraction=0``. ``seed`` seeds the playouts and the
    noise (in matches each move's search is seeded from the match's seed, as UCT's are).
    """

    def __init__(self, model: Union[str, os.PathLike, Model], iterations: int = 400,
                 c_puct: Optional[float] = None, seed: int = 0, rollout_weight: Optional[float] = None,
                 expansion_visits: Optional[int] = None, noise_fraction: Optional[float] = None,
                 noise_alpha: float = 0.3, policy_temperature: Optional[float] = None) -> None:
        self.model = model if isinstance(model, Model) else Model.load(model)
        self.source = str(model) if not isinstance(model, Model) else None
        self.iterations = check_int("iterations", iterations, 1, MAX_UCT_ITERATIONS)
        if c_puct is None:
            c_puct = self._setting("c_puct", 1.5)
        self.c_puct = _number("c_puct", c_puct, 0.0, 1e6)
        if rollout_weight is None:
            rollout_weight = self._setting("rollout_weight", 0.0)
        self.rollout_weight = _number("rollout_weight", rollout_weight, 0.0, 1.0)
        if expansion_visits is None:
            expansion_visits = self._setting("expansion_visits", 1)
        self.expansion_visits = check_int("expansion_visits", expansion_visits, 1, 1_000_000)
        if policy_temperature is None:
            policy_temperature = self._setting("policy_temperature", 1.0)
        self.policy_temperature = _number("policy_temperature", policy_temperature, 0.01, 100.0)
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self.noise_fraction = None if noise_fraction is None else _number("noise_fraction", noise_fraction, 0.0, 1.0)
        self.noise_alpha = _number("noise_alpha", noise_alpha, 1e-3, 1e3)
        self._network: Any = None

    def _setting(self, name: str, default: Any) -> Any:
        """A search setting the model plays best with (its meta's ``play``, measured),
        else the one it was trained with (``trained``, c_puct excepted: training's
        exploration is not play's), else ``default``."""
        meta = self.model.meta
        if name in meta.get("play", {}):
            return meta["play"][name]
        if name != "c_puct" and name in meta.get("trained", {}):
            return meta["trained"][name]
        return default

    @property
    def network(self) -> Any:
        """The engine's copy of the model's weights (made on first use)."""
        if self._network is None:
            self._network = self.model.network()
        return self._network

    def analyse(self, state: Any, *, stop: Optional[Stop] = None, finish: Optional[Stop] = None,
                progress: Optional[SearchProgress] = None) -> PuctAnalysis:
        """A search from ``state`` (not changed): (visit counts by action, the root's
        value for the player to move), with each action's mean value and the network's
        predicted score margin and ownership map of the position where the model has
        those heads (None otherwise) as attributes (``PuctAnalysis``). Setting ``stop`` (a ``territory.Stop``)
        from another thread ends the search with ``StoppedError``; setting ``finish``
        (another one) ends it within milliseconds with what it has found (once the root
        is evaluated: "move now"). ``progress(simulations, best, value)`` is called on
        this thread about every 0.1 s: the simulations done, the most visited move so
        far and the root's value for the player to move; its exception stops the search
        and is raised."""
        visits, value, _, means = self._search(state, stop, finish, progress)
        margin = ownership = None
        if self.model.has_margin or self.model.ownership_cells:
            _, _, margins, owners = self.network.evaluate_heads(self.model.inputs(state)[None, :])
            margin = None if margins is None else float(margins[0])
            ownership = None if owners is None else owners[0]
        return PuctAnalysis(visits, float(value), means, margin, ownership)

    def choose(self, state: Any, *, stop: Optional[Stop] = None, finish: Optional[Stop] = None,
               progress: Optional[SearchProgress] = None) -> str:
        """The most visited move of a search from ``state`` (ties: the higher mean
        value, then the higher prior); ``stop``, ``finish`` and ``progress`` as in
        ``analyse``."""
        return str(state.action_to_move(self._search(state, stop, finish, progress)[2]))

    def _search(self, state: Any, stop: Optional[Stop] = None, finish: Optional[Stop] = None,
                progress: Optional[SearchProgress] = None) -> tuple[np.ndarray, float, int, np.ndarray]:
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.model.check_fits(state)
        return self.network.analyse(state, self.iterations, self.c_puct, self.seed, self.rollout_weight,
                                    self.expansion_visits, _check_stop(stop), _check_stop(finish, "finish"),
                                    _check_progress(progress), policy_temperature=self.policy_temperature)

    def _spec(self) -> tuple[Any, ...]:
        return ("puct", self.network, self.iterations, self.c_puct, self.seed, self.rollout_weight,
                self.expansion_visits, self.noise_fraction or 0.0, self.noise_alpha, self.policy_temperature)

    def spec(self) -> str:
        """The agent spec string of this search, every setting written out
        (``parse_agent(puct.spec())`` searches the same way; the seed is not part of a
        spec). A ``Puct`` of a ``Model`` object, not a file or shipped name, has none:
        ValueError."""
        if self.source is None:
            raise ValueError("this Puct plays a Model object, not a model file or shipped name: it has no spec string")
        text = (f"puct:{self.source}:{self.iterations}:c={self.c_puct!r},rollout={self.rollout_weight!r},"
                f"expand={self.expansion_visits},temp={self.policy_temperature!r}")
        return text + ("" if self.noise_fraction is None else f",noise={self.noise_fraction!r}")

    def for_analysis(self, what: str) -> "Puct":
        """This agent as an analysis plays it: with root noise (``ANALYSIS_NOISE`` unless
        its own ``noise_fraction`` is set); refused with ``noise_fraction=0``."""
        if self.noise_fraction == 0:
            raise ValueError(
                f"{what} needs distinct games, and a Puct with noise_fraction=0 plays the same game from a "
                f"position every time: give it noise_fraction > 0, or None for {ANALYSIS_NOISE}"
            )
        if self.noise_fraction is not None:
            return self
        noisy = copy.copy(self)
        noisy.noise_fraction = ANALYSIS_NOISE
        return noisy

    def __getstate__(self) -> dict[str, Any]:
        # The engine's network is rebuilt from the weights in another process.
        return {**self.__dict__, "_network": None}

    def __repr__(self) -> str:
        what = repr(self.source) if self.source else repr(self.model)
        extra = f", c_puct={self.c_puct}" if self.c_puct != 1.5 else ""
        extra += f", rollout_weight={self.rollout_weight}" if self.rollout_weight else ""
        extra += f", expansion_visits={self.expansion_visits}" if self.expansion_visits > 1 else ""
        extra += f", noise_fraction={self.noise_fraction}" if self.noise_fraction is not None else ""
        extra += f", noise_alpha={self.noise_alpha}" if self.noise_alpha != 0.3 else ""
        extra += f", policy_temperature={self.policy_temperature}" if self.policy_temperature != 1 else ""
        return f"Puct({what}, iterations={self.iterations}{extra})"


def _number(name: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


#: The options of a ``puct:`` agent spec: name -> (``Puct`` keyword, reader).
PUCT_OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "c": ("c_puct", lambda v: spec_number(v, 0.0, 1e6)),
    "rollout": ("rollout_weight", lambda v: spec_number(v, 0.0, 1.0)),
    "expand": ("expansion_visits", lambda v: spec_count(v, 1, 1_000_000)),
    "noise": ("noise_fraction", lambda v: spec_number(v, 0.0, 1.0)),
    "temp": ("policy_temperature", lambda v: spec_number(v, 0.01, 100.0)),
}


def parse_puct(spec: str, arg: str) -> Puct:
    """``Puct`` from the part after ``puct:`` of an agent spec: ``MODEL``,
    ``MODEL:N`` (N simulations per move, default 400), then optionally
    ``:c=C,rollout=R,expand=K,noise=F,temp=T`` (``c_puct``, ``rollout_weight``,
    ``expansion_visits``, ``noise_fraction``, ``policy_temperature``; those not given:
    the model's own)."""
    options: dict[str, Any] = {}
    head, sep, last = arg.rpartition(":")
    if sep and "=" in last and not _is_model(arg):
        read = {key: reader for key, (_, reader) in PUCT_OPTIONS.items()}
        options = {PUCT_OPTIONS[k][0]: v for k, v in spec_options(spec, last.lower(), read).items()}
        arg = head
    model, sep, count = arg.rpartition(":")
    if not sep or not (count.isdigit() or _is_model(model)) or _is_model(arg):
        model, count = arg, ""
    if not model:
        raise ValueError(f"agent {excerpt(spec)}: give a model after 'puct:', like 'puct:tabik-6:400' or 'puct:model.npz'")
    if count and not (count.isdigit() and len(count) <= 18 and 1 <= int(count) <= MAX_UCT_ITERATIONS):
        raise ValueError(f"agent {excerpt(spec)}: the simulations after the model must be a whole number from 1 to "
                         f"{MAX_UCT_ITERATIONS:,}, got {excerpt(count)}")
    return Puct(model, int(count) if count else 400, **options)


def _is_model(name: str) -> bool:
    """Whether ``name`` is a file or a shipped model's name."""
    from territory.model import shipped_models

    return name in shipped_models() or os.path.isfile(name)

