"""The package's exceptions: those the native engine and the reference share, and those
of searches and matches. A leaf: it imports nothing of the package, so the native module
reaches its exceptions without loading anything heavy (``territory.agents`` re-exports
the search ones from their old home)."""

from __future__ import annotations

#: Characters of user input quoted in an error message; longer input is cut.
EXCERPT_LIMIT = 40


class IllegalMoveError(ValueError):
    """A move string or action that cannot be played in the current position.

    Raised as itself for a real move of the game that is not legal here (occupied, not
    adjacent, wrong colour, piece already used, swap or pass not allowed now, game over,
    ...), and as its subclass :class:`InvalidMoveError` for text that is not a move of
    the game at all. The state it was played on is left exactly as it was.

    ``kind`` is a stable short code for the reason (``"occupied"``, ``"syntax"``, ...:
    the tables in docs/conventions.md and docs/games/<game>.md), ``move`` the offending move (string, or action
    number) and ``parameter`` the offending parameter's name, each None where unknown.
    """

    kind: str | None = None
    move: object = None
    parameter: str | None = None

    def __init__(self, message: str = "", kind: str | None = None, move: object = None,
                 parameter: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.move, self.parameter = kind, move, parameter

    def __reduce__(self):
        return type(self), (str(self), self.kind, self.move, self.parameter)


class InvalidMoveError(IllegalMoveError):
    """A move string or action that is not a move of this game with these parameters at
    all: bad syntax, a cell off the board, an unknown piece, a number or komi out of
    range, an action number out of range, or not a string. It can never be played.
    """


class ParameterError(ValueError):
    """A parameter value that is not allowed: a game constructor's (``Tabik(size=17)``)
    or another argument checked like one (a ``seat``, ``VecEnv``'s ``batch`` ...).

    The message says "``{parameter} must be {allowed}, got {value}``"; ``parameter`` is
    the parameter's name and ``allowed`` what it allows (the text of
    ``Class.parameters()``), each None where unknown. A ``ValueError``, so
    ``except ValueError`` keeps working.
    """

    parameter: str | None = None
    allowed: str | None = None

    def __init__(self, message: str = "", parameter: str | None = None, allowed: str | None = None) -> None:
        super().__init__(message)
        self.parameter, self.allowed = parameter, allowed

    def __reduce__(self):
        return type(self), (str(self), self.parameter, self.allowed)


class StateInUseError(RuntimeError):
    """A game state was used while another call still held it: from another thread, or
    from a callback run by a call on the same state. States are not thread-safe; give
    each thread its own ``state.copy()``."""


class RecordError(ValueError):
    """A game record that cannot be read: its message names the line and the problem."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class SolveLimitError(RuntimeError):
    """``solve`` stopped at a limit before solving the position. ``nodes`` (positions
    searched), ``table_bytes`` (transposition table memory) and ``seconds`` tell how far
    it got."""

    def __init__(self, message: str, nodes: int = 0, table_bytes: int = 0, seconds: float = 0.0) -> None:
        super().__init__(message)
        self.nodes, self.table_bytes, self.seconds = nodes, table_bytes, seconds

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class NodeLimitError(SolveLimitError):
    """``solve`` visited more positions than its ``max_nodes`` allowed."""


class TimeLimitError(SolveLimitError):
    """``solve`` ran longer than its ``time_limit``."""


class StoppedError(RuntimeError):
    """A search (``Uct.analyse``, ``solve``) stopped because its ``stop`` was set."""


class AgentError(RuntimeError):
    """An agent of a match failed: it raised, returned a non-string or an illegal move.
    The message names the agent, the game index and the position (its move list)."""


def excerpt(text: object, limit: int = EXCERPT_LIMIT) -> str:
    """``repr(text)`` for an error message, cut to a short prefix when the text is long."""
    if isinstance(text, str) and len(text) > limit:
        return f"{text[:limit]!r}... ({len(text)} characters)"
    try:
        shown = repr(text)
    except ValueError:  # an int too long to print
        return f"a {type(text).__name__} too large to print"
    if len(shown) > 2 * limit:
        return f"{shown[:limit]}... ({len(shown)} characters)"
    return shown
