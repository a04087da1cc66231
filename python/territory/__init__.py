"""territory: a fast, exact rules engine for Migong, Nume and Tabik.

Three territory games by Luis Bolaños Mures (Migong with Christian Freeling). The
classes here are native (Rust); ``territory.reference`` holds slow, plain pure-Python
implementations of the same API for cross-checking. ``GAMES`` lists them by name, from
the engine's own registry; ``new_game(name, **params)`` builds any of them.
"""

from territory import _presentation
from territory._core import Migong, Nume, Tabik, VecEnv, __version__
from territory.errors import IllegalMoveError, InvalidMoveError, ParameterError, RecordError, StateInUseError
from territory.playouts import PlayoutResults, random_playouts, replay_playout
from territory.record import load
from territory.registry import GAMES, new_game
from territory.types import GameState, Group

# Diagrams, records, pictures and pickling come from the Python side, as python-chess
# attaches chess.svg: the native module imports no Python module.
for _cls in GAMES.values():
    _presentation.attach(_cls)
del _cls

from territory.evaluate import evaluate, fair_komi, openings  # noqa: E402
from territory.agents import (  # noqa: E402
    AgentError, MatchResults, NodeLimitError, RandomAgent, SolveLimitError, TimeLimitError, Uct, parse_agent, play_match,
    solve,
)
from territory.puct import Puct  # noqa: E402
from territory import envs  # noqa: E402

__all__ = [
    "__version__",
    "GAMES",
    "Migong",
    "Nume",
    "Tabik",
    "new_game",
    "VecEnv",
    "envs",
    "random_playouts",
    "replay_playout",
    "evaluate", "fair_komi", "openings",
    "PlayoutResults", "IllegalMoveError", "InvalidMoveError", "ParameterError", "StateInUseError", "RecordError", "GameState", "Group", "load",
    "RandomAgent", "Uct", "Puct", "play_match", "solve", "parse_agent", "MatchResults", "AgentError", "NodeLimitError",
    "SolveLimitError", "TimeLimitError",
]
