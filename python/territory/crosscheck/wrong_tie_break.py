"""A deliberately wrong engine for `territory crosscheck` (docs/crosscheck.md): the
example adapter (territory.crosscheck.adapter) with one bug in Tabik, the last mover
winning a game tied at 0-0 instead of losing it. It shows what a disagreement looks like:

    territory crosscheck tabik --engine "python -m territory.crosscheck.wrong_tie_break"
"""

from territory.crosscheck import adapter
from territory.reference.tabik import Tabik


class WrongTieBreak(Tabik):
    """The reference Tabik, except for the winner of a 0-0 tie."""

    @property
    def winner(self):
        winner = Tabik.winner.fget(self)
        if winner is not None and self.scores()[0] == self.scores()[1]:
            return 1 - winner  # the bug: the last mover wins a 0-0
        return winner


if __name__ == "__main__":
    adapter.GAMES = {**adapter.GAMES, "tabik": WrongTieBreak}
    adapter.main()
