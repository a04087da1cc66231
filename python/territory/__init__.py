"""territory: a fast, exact rules engine for Migong, Nume and Tabik.

Three territory games by Luis Bolaños Mures (Migong with Christian Freeling). The
classes here are native (Rust); ``territory.reference`` holds slow, plain pure-Python
implementations of the same API for cross-checking. ``GAMES`` lists them by name, from
the engine's own registry; ``new_game(name, **params)`` builds any of them.
"""

# First, before any other import: Ctrl-C while `python -m territory` imports this
# package ends the command as the `territory` script does (docs/interrupts.md).
from territory_cli import guard_start_up as _guard_start_up

_guard_start_up()
del _guard_start_up

import importlib as _importlib  # noqa: E402
import importlib.util as _importlib_util  # noqa: E402
import sys as _sys  # noqa: E402
import types as _types  # noqa: E402
import typing as _typing  # noqa: E402

from territory import _presentation  # noqa: E402
from territory._core import VecEnv, __version__  # noqa: E402

# The game classes, one line per game (the ``as`` form re-exports them for type checkers;
# ``GAMES`` comes from the engine's registry).
from territory._native.migong import Migong as Migong  # noqa: E402
from territory._native.nume import Nume as Nume  # noqa: E402
from territory._native.tabik import Tabik as Tabik  # noqa: E402

from territory._core import Stop  # noqa: E402
from territory.errors import (  # noqa: E402
    AgentError, IllegalMoveError, InvalidMoveError, NodeLimitError, ParameterError, RecordError, SolveLimitError,
    StateInUseError, StoppedError, TimeLimitError,
)
from territory.registry import GAMES, new_game  # noqa: E402
from territory.types import GameState, Group  # noqa: E402

# Diagrams, records, pictures and pickling come from the Python side, as python-chess
# attaches chess.svg: the native module imports no Python module.
for _cls in GAMES.values():
    _presentation.attach(_cls)
del _cls

#: What is loaded on first use (PEP 562): name -> the module that defines it. Matches,
#: searches, analyses, records and the environments are imported when first asked for
#: (``territory.Uct``, ``from territory import evaluate``), not by ``import territory``.
_LAZY = {
    "PlayoutResults": "playouts", "random_playouts": "playouts", "replay_playout": "playouts",
    "load": "record",
    "evaluate": "evaluate", "fair_komi": "evaluate", "openings": "evaluate",
    "MatchResults": "agents", "RandomAgent": "agents", "Uct": "agents", "parse_agent": "agents",
    "play_match": "agents", "solve": "agents",
    "Puct": "puct",
}

if _typing.TYPE_CHECKING:
    from territory import envs as envs
    from territory.agents import MatchResults as MatchResults, RandomAgent as RandomAgent, Uct as Uct
    from territory.agents import parse_agent as parse_agent, play_match as play_match, solve as solve
    from territory.evaluate import evaluate as evaluate, fair_komi as fair_komi, openings as openings
    from territory.playouts import PlayoutResults as PlayoutResults
    from territory.playouts import random_playouts as random_playouts, replay_playout as replay_playout
    from territory.puct import Puct as Puct
    from territory.record import load as load


def __getattr__(name: str) -> object:
    """A name of ``_LAZY`` or a submodule (``territory.agents``), imported on first use."""
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(f"{__name__}.{module}"), name)
    elif not name.startswith("__") and _importlib_util.find_spec(f"{__name__}.{name}") is not None:
        value = _importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"envs"})


class _Package(_types.ModuleType):
    """The package's module: importing the submodule ``territory.evaluate`` keeps
    ``territory.evaluate`` the function of that name (as when everything was imported
    eagerly), not the submodule."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, _types.ModuleType) and _LAZY.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

__all__ = [
    "__version__",
    "GAMES",
    *(cls.__name__ for cls in GAMES.values()),
    "new_game",
    "VecEnv",
    "envs",
    "random_playouts",
    "replay_playout",
    "evaluate", "fair_komi", "openings",
    "PlayoutResults", "IllegalMoveError", "InvalidMoveError", "ParameterError", "StateInUseError", "RecordError", "GameState",
    "Group", "load",
    "RandomAgent", "Uct", "Puct", "play_match", "solve", "parse_agent", "MatchResults", "AgentError", "NodeLimitError",
    "SolveLimitError", "TimeLimitError", "Stop", "StoppedError",
]
