"""Plain pure-Python reference implementations of the three games.

Written from RULES.md alone, simply and slowly, to cross-check the native engine.
"""

from territory.reference.migong import Migong
from territory.reference.nume import Nume
from territory.reference.tabik import Tabik

#: The reference's games by name, like ``territory.GAMES`` (one line per game).
GAMES: dict[str, type] = {
    "migong": Migong,
    "nume": Nume,
    "tabik": Tabik,
}
