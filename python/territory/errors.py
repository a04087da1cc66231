"""Exceptions shared by the native engine and the reference implementation."""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A move string or action that is malformed or not legal in the current position.

    The state it was played on is left exactly as it was.
    """


class RecordError(ValueError):
    """A game record that cannot be read: its message names the line and the problem."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
