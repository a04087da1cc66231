"""``Puct``: tree search guided by a trained policy and value network (docs/learning.md).

The search runs in Rust (``territory._core.PuctSearch``); the network
(``territory.model.Model``, numpy) evaluates the leaves it collects, in batches.
``run_search`` drives one batch of searches; ``Puct`` plays one game's moves with it and
fits ``play_match``, ``evaluate`` and the command line (``--agents puct:MODEL:400``).
"""

from __future__ import annotations

import math
import os
from typing import Any, Sequence, Union

import numpy as np

from territory import _core
from territory._checks import check_int
from territory.model import Model

__all__ = ["Puct", "run_search"]


def run_search(model: Model, states: Sequence[Any], iterations: int, c_puct: float = 1.5,
               noise_alpha: float = 0.3, noise_fraction: float = 0.0, seed: int = 0,
               leaves_per_search: int = 1) -> Any:
    """Searches every state of ``states`` (running games of one game) with ``iterations``
    simulations each, ``model`` evaluating the leaves of all the searches together (up
    to ``leaves_per_search`` per search and round), and returns the finished
    ``_core.PuctSearch`` (``visits()``, ``best_actions()``, ``root_values()``)."""
    search = _core.PuctSearch(list(states), iterations, c_puct, noise_alpha, noise_fraction, seed, leaves_per_search)
    while (obs := search.leaves()) is not None:
        logits, values = model.forward(obs)
        search.backup(logits, values)
    return search


class Puct:
    """PUCT search with ``iterations`` simulations per move, guided by ``model`` (a
    ``Model``, a ``.npz`` path or a shipped model's name such as ``"tabik-6"``).

    Plays the most visited move, without noise: the same state always gets the same
    move. ``seed`` only seeds the search (used by noise, which play leaves off). Each
    round of the search sends up to ``leaves`` leaves (spread by virtual loss) to the
    network in one batch: fewer numpy calls per simulation.
    """

    def __init__(self, model: Union[str, os.PathLike, Model], iterations: int = 400,
                 c_puct: float = 1.5, seed: int = 0, leaves: int = 8) -> None:
        self.model = model if isinstance(model, Model) else Model.load(model)
        self.source = str(model) if not isinstance(model, Model) else None
        self.iterations = check_int("iterations", iterations, 1, 2**31)
        if isinstance(c_puct, bool) or not isinstance(c_puct, (int, float)) or not (math.isfinite(c_puct) and c_puct >= 0):
            raise ValueError(f"c_puct must be a finite number >= 0, got {c_puct!r}")
        self.c_puct = float(c_puct)
        self.seed = check_int("seed", seed, 0, 2**63 - 1)
        self.leaves = check_int("leaves", leaves, 1, 4096)

    def analyse(self, state: Any) -> tuple[np.ndarray, float]:
        """(visit counts by action, the root's value for the player to move) of a
        search from ``state`` (not changed)."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.model.check_fits(state)
        search = run_search(self.model, [state], self.iterations, self.c_puct, seed=self.seed,
                            leaves_per_search=self.leaves)
        return search.visits()[0], float(search.root_values()[0])

    def choose(self, state: Any) -> str:
        """The most visited move of a search from ``state``."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.model.check_fits(state)
        search = run_search(self.model, [state], self.iterations, self.c_puct, seed=self.seed,
                            leaves_per_search=self.leaves)
        return str(state.action_to_move(search.best_actions()[0]))

    def __repr__(self) -> str:
        what = repr(self.source) if self.source else repr(self.model)
        return f"Puct({what}, iterations={self.iterations})"


def parse_puct(spec: str, arg: str) -> Puct:
    """``Puct`` from the part after ``puct:`` of an agent spec: ``MODEL`` or
    ``MODEL:N`` (N simulations per move, default 400)."""
    model, sep, count = arg.rpartition(":") if arg.rpartition(":")[2].isdigit() else (arg, "", "")
    if not model:
        raise ValueError(f"agent {spec!r}: give a model after 'puct:', like 'puct:tabik-6:400' or 'puct:model.npz'")
    iterations = int(count) if sep else 400
    if iterations < 1:
        raise ValueError(f"agent {spec!r}: the simulations after the model must be a positive whole number")
    return Puct(model, iterations)

