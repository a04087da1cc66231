"""territory: a fast, exact rules engine for Migong, Nume and Tabik.

Three territory games by Luis Bolaños Mures (Migong with Christian Freeling). The
classes here are native (Rust); ``territory.reference`` holds slow, plain pure-Python
implementations of the same API for cross-checking.
"""

from territory._core import Migong, Nume, Tabik
from territory.playouts import PlayoutResults, random_playouts, replay_playout
from territory.errors import IllegalMoveError, InvalidMoveError, RecordError, StateInUseError
from territory.record import load
from territory.types import Group

__all__ = [
    "Migong",
    "Nume",
    "Tabik",
    "random_playouts",
    "replay_playout",
    "PlayoutResults", "IllegalMoveError", "InvalidMoveError", "StateInUseError", "RecordError", "Group", "load"]
