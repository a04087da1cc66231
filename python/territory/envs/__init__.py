"""Environments for reinforcement-learning libraries.

``pettingzoo_env(game, **params)`` builds a PettingZoo AEC environment; PettingZoo and
Gymnasium are imported only when it is called (install them with ``pip install
"territory-games[rl]"``). For fast batched stepping without Python in the loop, use
``territory.VecEnv``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["pettingzoo_env"]

RL_EXTRA = 'pip install "territory-games[rl]"'


def pettingzoo_env(game: Any, **params: Any) -> Any:
    """A PettingZoo AEC environment playing ``game`` (a key of ``territory.GAMES``, or a
    state to start from) with these parameters; see ``territory.envs.pettingzoo``."""
    try:
        from territory.envs.pettingzoo import TerritoryAEC
    except ImportError as error:
        raise ImportError(f'pettingzoo_env needs PettingZoo and Gymnasium: {RL_EXTRA} ({error})') from error

    return TerritoryAEC(game, **params)
