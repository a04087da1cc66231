"""territory: a fast, exact rules engine for Migong, Nume and Tabik.

Three territory games by Luis Bolaños Mures (Migong with Christian Freeling). The
classes here are native (Rust); ``territory.reference`` holds slow, plain pure-Python
implementations of the same API for cross-checking. ``GAMES`` lists them by name, from
the engine's own registry; ``new_game(name, **params)`` builds any of them.
"""

# First, before anything heavy: Ctrl-C while `python -m territory` imports this package
# ends the command as the `territory` script does (docs/interrupts.md).
from territory_cli import guard_start_up as _guard_start_up

_guard_start_up()
del _guard_start_up

from territory import _presentation  # noqa: E402
from territory._core import VecEnv, __version__  # noqa: E402

# The game classes, one line per game (the ``as`` form re-exports them for type checkers;
# ``GAMES`` comes from the engine's registry).
from territory._core import Migong as Migong  # noqa: E402
from territory._core import Nume as Nume  # noqa: E402
from territory._core import Tabik as Tabik  # noqa: E402

from territory.errors import IllegalMoveError, InvalidMoveError, ParameterError, RecordError, StateInUseError  # noqa: E402
from territory.playouts import PlayoutResults, random_playouts, replay_playout  # noqa: E402
from territory.record import load  # noqa: E402
from territory.registry import GAMES, new_game  # noqa: E402
from territory.types import GameState, Group  # noqa: E402

# Diagrams, records, pictures and pickling come from the Python side, as python-chess
# attaches chess.svg: the native module imports no Python module.
for _cls in GAMES.values():
    _presentation.attach(_cls)
del _cls

from territory.evaluate import evaluate, fair_komi, openings  # noqa: E402
from territory.agents import (  # noqa: E402
    AgentError, MatchResults, NodeLimitError, RandomAgent, SolveLimitError, Stop, StoppedError, TimeLimitError, Uct,
    parse_agent, play_match, solve,
)
from territory.puct import Puct  # noqa: E402
from territory import envs  # noqa: E402

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
