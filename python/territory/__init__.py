"""territory: a fast, exact rules engine for Migong, Nume and Tabik.

Three territory games by Luis Bolaños Mures (Migong with Christian Freeling). The
classes here are native (Rust); ``territory.reference`` holds slow, plain pure-Python
implementations of the same API for cross-checking.
"""

from territory._core import Migong, Nume, Tabik, __version__
from territory.playouts import PlayoutResults, random_playouts, replay_playout
from territory.evaluate import evaluate, fair_komi, openings
from territory.errors import IllegalMoveError, RecordError
from territory.record import load
from territory.types import Group
from territory.agents import (
    AgentError, MatchResults, NodeLimitError, RandomAgent, Uct, parse_agent, play_match, solve,
)

__all__ = [
    "__version__",
    "Migong",
    "Nume",
    "Tabik",
    "random_playouts",
    "replay_playout",
    "evaluate", "fair_komi", "openings",
    "PlayoutResults", "IllegalMoveError", "RecordError", "Group", "load",
    "RandomAgent", "Uct", "play_match", "solve", "parse_agent", "MatchResults", "AgentError", "NodeLimitError",
]
