"""Environments for reinforcement-learning libraries.

``pettingzoo_env(game, **params)`` builds a PettingZoo AEC environment; PettingZoo and
Gymnasium are imported only when it is called (install them with ``pip install
"territory-games[rl]"``). For fast batched stepping without Python in the loop, use
``territory.VecEnv``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["pettingzoo_env"]


def pettingzoo_env(game: Any, **params: Any) -> Any:
    """A PettingZoo AEC environment playing ``game`` (a key of ``territory.GAMES``, or a
    state to start from) with these parameters; see ``territory.envs.pettingzoo``."""
    from territory.envs.pettingzoo import TerritoryAEC

    return TerritoryAEC(game, **params)
