"""Position strings for the reference implementations, written from docs/positions.md
(and each game's format in docs/games/<game>.md).

Shared pieces: splitting the fields, writing and reading boards row by row with runs of
empty cells, the turn fields of Migong and Tabik (to move, pie, passes, last mover), and
the turn bookkeeping of a game set up from a position, and equality (``SameGame``).
"""

from __future__ import annotations

import re

from territory.errors import excerpt


def error(column, message):
    return ValueError(f"bad position: column {column}: {message}")


def split_fields(text, names):
    """The fields of a position as (text, column) pairs; exactly len(names) of them."""
    if not isinstance(text, str):
        raise ValueError(f"a position must be a string, got {text!r}")
    parts = text.split(" ")
    columns = []
    column = 1
    for part in parts:
        columns.append(column)
        column += len(part) + 1
    for part, col in zip(parts, columns):
        if part == "":
            raise error(col, "empty field (fields are separated by single spaces)")
    if len(parts) != len(names):
        raise error(1, f"expected {len(names)} fields ({', '.join(names)}), got {len(parts)}")
    return list(zip(parts, columns))


def write_board(rows, piece_text):
    """rows: lists of slots (a cell, or None for the central border '*')."""
    out = []
    for row in rows:
        text, run = "", 0
        for slot in row:
            piece = "*" if slot is None else piece_text(slot)
            if piece is None:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += piece
        if run:
            text += str(run)
        out.append(text)
    return "/".join(out)


_RUN = re.compile(r"[1-9][0-9]*")


def read_board(field, rows, read_piece):
    """Reads a board field; read_piece(rest) -> (value, length) or raises ValueError with
    a message. Returns {cell: (value, column)}."""
    text, column = field
    parts = text.split("/")
    if len(parts) != len(rows):
        raise error(column, f"expected {len(rows)} rows separated by '/', got {len(parts)}")
    found = {}
    col = column
    for number, (part, row) in enumerate(zip(parts, rows), start=1):
        slot, i = 0, 0
        while i < len(part):
            here = col + i
            match = _RUN.match(part, i)
            if match:
                for _ in range(int(match.group())):
                    if slot >= len(row):
                        raise error(here, f"row {number} is longer than its {len(row)} slots")
                    if row[slot] is None:
                        raise error(here, "a run of empty cells crosses the central border '*'")
                    slot += 1
                i = match.end()
                continue
            if part[i] == "0":
                raise error(here, "a run of empty cells is a number from 1")
            if slot >= len(row):
                raise error(here, f"row {number} is longer than its {len(row)} slots")
            if part[i] == "*":
                if row[slot] is not None:
                    raise error(here, "the central border '*' is not here")
                slot += 1
                i += 1
                continue
            if row[slot] is None:
                raise error(here, "the central border '*' belongs here")
            try:
                value, length = read_piece(part[i:])
            except ValueError as e:
                raise error(here, str(e)) from None
            found[row[slot]] = (value, here)
            slot += 1
            i += length
        if slot != len(row):
            raise error(col + len(part), f"row {number} describes {slot} of its {len(row)} slots")
        col += len(part) + 1
    return found


def seat_text(seat):
    return "-" if seat is None else str(seat)


class SameGame:
    """What every reference state shares: equality, as the native classes' (equal when
    the parameters, the histories and the set-up position, ``_base["text"]``, None from
    the start, agree; states are mutable, hence unhashable), and whether a move is the
    pass or the pie swap (docs/conventions.md: every game writes them ``pass`` and
    ``swap``)."""

    _base = None

    def is_pass(self, move):
        """Whether ``move`` (a move of the game: InvalidMoveError otherwise) is ``pass``."""
        self.move_cells(move)
        return move == "pass"

    def is_swap(self, move):
        """Whether ``move`` (a move of the game: InvalidMoveError otherwise) is ``swap``."""
        self.move_cells(move)
        return move == "swap"

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return (
            self.params == other.params
            and self._history == other._history
            and (self._base or {}).get("text") == (other._base or {}).get("text")
        )

    __hash__ = None


class SetUpTurns(SameGame):
    """Turn order for Migong and Tabik, starting at the start position or at a set-up
    position (``_base``: a dict with ply, passes, last_mover, swapped and the board)."""

    _base = None

    def _base_ply(self):
        return self._base["ply"] if self._base else 0

    def _ply(self):
        return self._base_ply() + len(self._history)

    def _passes_in_a_row(self):
        n = 0
        for move in reversed(self._history):
            if move != "pass":
                return n
            n += 1
        return n + (self._base["passes"] if self._base else 0)

    @property
    def is_over(self):
        return self._passes_in_a_row() >= 2

    @property
    def to_move(self):
        return None if self.is_over else self._ply() % 2

    @property
    def last_mover(self):
        for k in range(len(self._history) - 1, -1, -1):
            if self._history[k] != "pass":
                return (self._base_ply() + k) % 2
        return self._base["last_mover"] if self._base else None

    def _turn_text(self):
        ply = self._ply()
        if not self._pie:
            pie = "-"
        elif self._swapped:
            pie = "s"
        elif ply == 0:
            pie = "w"
        elif ply == 1:
            pie = "a"
        else:
            pie = "-"
        passes = min(self._passes_in_a_row(), 2)
        return f"{seat_text(self.to_move)} {pie} {passes} {seat_text(self.last_mover)}"

    def _read_turn(self, fields, board_empty):
        """The turn fields (to move, pie, passes, last mover) -> base dict entries."""
        (mover, mc), (pie, pc), (passes, sc), (last, lc) = fields
        seats = {"0": 0, "1": 1, "-": None}
        if mover not in seats:
            raise error(mc, f"to move must be 0, 1 or -, got {excerpt(mover)}")
        if last not in seats:
            raise error(lc, f"last mover must be 0, 1 or -, got {excerpt(last)}")
        if passes not in ("0", "1", "2"):
            raise error(sc, f"passes must be 0, 1 or 2, got {excerpt(passes)}")
        if pie not in ("w", "a", "s", "-"):
            raise error(pc, f"pie must be w, a, s or -, got {excerpt(pie)}")
        if board_empty:
            # Every action but a pass or the swap places pieces, the swap follows a
            # placement, and an empty board always has moves, so no pass is forced.
            start_turn = ["0", "w" if self._pie else "-", "0", "-"]
            names = ("to move", "pie", "passes", "last mover")
            for name, (text, column), expected in zip(names, fields, start_turn):
                if text != expected:
                    raise error(column, f"{name} field {excerpt(text)}: the board is empty, so nothing was placed yet: "
                                        f"only the start's turn fields '{' '.join(start_turn)}' go with it")
        mover, last, passes = seats[mover], seats[last], int(passes)
        if (passes == 2) != (mover is None):
            raise error(mc, "the seat to move is '-' exactly when two passes ended the game")
        if not self._pie and pie != "-":
            raise error(pc, "the pie rule is off: the pie field must be '-'")
        if pie == "w":
            if mover != 0 or passes != 0 or last is not None:
                raise error(pc, "'w' needs seat 0 to move, no passes and no last mover")
            ply = 0
        elif pie == "a":
            if mover != 1:
                raise error(pc, "'a' needs seat 1 to move")
            ply = 1
        else:
            ply = 2 + (mover or 0)
        if pie in ("a", "s") and board_empty:
            raise error(pc, "the pie swap comes after a first placement, and the board is empty")
        if pie == "s" and last is None:
            raise error(lc, "the swap was taken, so someone has moved")
        if passes == 0 and mover is not None and last is not None and last == mover:
            raise error(lc, "without a pending pass, the last mover is the seat not to move")
        if passes == 1 and last is not None and last != mover:
            raise error(lc, "after one pass, the last mover is the seat to move")
        if not board_empty and last is None:
            raise error(lc, "the board is not empty, so someone has moved")
        return {"ply": ply, "passes": passes, "last_mover": last, "swapped": pie == "s"}


def finish_setup(game, start):
    """The last step of every ``from_position``: a game set up in a position other than
    ``start`` (a new game with the same parameters) remembers its position text as its
    set-up; one set up in the start position is simply a new game."""
    if game.position() != start.position():
        game._base["text"] = game.position()
    else:
        game._base = None
        game._reset()
    return game
