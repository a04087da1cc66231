"""Pure-Python reference implementation of Nume (docs/RULES.md, docs/conventions.md,
docs/games/nume.md).

Written for clarity, not speed: the position is a dict ``cell index -> (color, number or
None)``, groups are found by plain flood fill, and ``undo`` replays the history.
"""

from __future__ import annotations

import math
import operator
import re

from territory.errors import IllegalMoveError, InvalidMoveError, ParameterError, excerpt
from territory._presentation import Presentation
from territory.types import Group
from territory.reference import _position

MAX_NUMBER = 2**31 - 1
MAX_KOMI_K = 2**31

# Axial (q, r) directions in the fixed order E, NE, NW, W, SW, SE (RULES.md).
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQUARE_DIRECTIONS = ((1, 0), (0, -1), (-1, 0), (0, 1))

COLORS = ("black", "white")

_CELL_RE = re.compile(r"([a-z])([1-9][0-9]*)")
MAX_ROW_NUMBER = 256  # a cell name's number is at most this (docs/conventions.md)
_PLACEMENT_RE = re.compile(r"([a-z][1-9][0-9]*)(?:=(.*))?", re.DOTALL)
_KOMI_RE = re.compile(r"komi (0|[1-9][0-9]*)\.5 (black|white)")
_SIDE_RE = re.compile(r"side (black|white)")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _other(color: str) -> str:
    return "white" if color == "black" else "black"


def _cell_name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


class Nume(_position.SameGame, Presentation):
    """Nume on a hexagonal board (parameter n) or a k x k square board."""

    game = "nume"

    # ------------------------------------------------------------------ creation
    def __init__(self, n=4, square=None, komi=0.5, komi_to="black", komi_phase=False):
        if not _is_int(n) or not 1 <= n <= 8:
            raise ParameterError(f"n must be an int from 1 to 8, got {excerpt(n)}", parameter="n")
        if square is not None and (not _is_int(square) or not 2 <= square <= 16):
            raise ParameterError(f"square must be None or an int from 2 to 16, got {excerpt(square)}", parameter="square")
        if komi is not None:
            ok = (
                isinstance(komi, float)  # an int is never k + 0.5
                and math.isfinite(komi)
                and float(komi - 0.5).is_integer()
                and 0 <= komi - 0.5 <= MAX_KOMI_K
            )
            if not ok:
                raise ParameterError(
                    "komi must be None or a number k + 0.5 with k a whole number "
                    f"0 <= k <= 2^31, got {excerpt(komi)}",
                    parameter="komi",
                )
            komi = float(komi)
        if not isinstance(komi_to, str) or komi_to not in COLORS:
            raise ParameterError(f"komi_to must be 'black' or 'white', got {excerpt(komi_to)}", parameter="komi_to")
        if not isinstance(komi_phase, bool):
            raise ParameterError(f"komi_phase must be a bool, got {excerpt(komi_phase)}", parameter="komi_phase")

        self._n = n
        self._square = square
        self._komi_param = komi
        self._komi_to_param = komi_to
        self._komi_phase = komi_phase

        # Geometry: list of (col, row) coordinates in cell-index order.
        if square is None:
            coords = []
            total = 3 * n - 1
            for x in range(2 * n + 1):
                for y in range(2 * n + 1):
                    z = total - x - y
                    if 0 <= z <= 2 * n:
                        coords.append((x, y))  # axial q = x, r = y
            coords.sort(key=lambda qr: (qr[1], qr[0]))
            directions = HEX_DIRECTIONS
        else:
            coords = [(c, r) for r in range(square) for c in range(square)]
            directions = SQUARE_DIRECTIONS
        self._coords = coords
        self._index_of = {qr: i for i, qr in enumerate(coords)}
        self._names = [_cell_name(q, r) for (q, r) in coords]
        self._index_of_name = {name: i for i, name in enumerate(self._names)}
        self._neighbours = []
        for q, r in coords:
            adj = []
            for dq, dr in directions:
                j = self._index_of.get((q + dq, r + dr))
                if j is not None:
                    adj.append(j)
            self._neighbours.append(tuple(sorted(adj)))
        self._N = len(coords)
        self._K = self._N * (self._N + 2)
        self._S = self._K + 2 * (self._N + 1)

        self._reset()

    def _reset(self):
        self._board = {}  # cell index -> (color, number or None)
        self._history = []  # canonical move strings
        self._movers = []  # seat that made each move in _history
        if self._komi_phase:
            self._phase = "komi"  # then "side", then "play"
            self._komi = None
        else:
            self._phase = "play"
            self._komi = None if self._komi_param is None else (self._komi_param, self._komi_to_param)
        self._seat_colors = ["black", "white"]
        base = getattr(self, "_base", None)
        if base is not None:  # set up by from_position
            self._board = dict(base["board"])
            self._phase = base["phase"]
            self._komi = base["komi"]
            self._seat_colors = list(base["seat_colors"])

    # ------------------------------------------------------------------ basic queries
    @property
    def params(self) -> dict:
        return {
            "n": self._n,
            "square": self._square,
            "komi": self._komi_param,
            "komi_to": self._komi_to_param,
            "komi_phase": self._komi_phase,
        }

    @property
    def komi(self):
        """``(value, color)`` of the komi in force now, or None."""
        return self._komi

    @property
    def num_actions(self) -> int:
        return self._S + 2

    @property
    def is_over(self) -> bool:
        return len(self._board) == self._N

    def _color_to_place(self) -> str:
        # Black places the first stone, then colors alternate.
        return "black" if len(self._board) % 2 == 0 else "white"

    @property
    def to_move(self):
        if self.is_over:
            return None
        if self._phase == "komi":
            return 0
        if self._phase == "side":
            return 1
        return self._seat_colors.index(self._color_to_place())

    def color_of(self, seat) -> str:
        if not _is_int(seat) or seat not in (0, 1):
            raise ParameterError(f"seat must be 0 or 1, got {excerpt(seat)}", parameter="seat")
        return self._seat_colors[seat]

    @property
    def last_mover(self):
        if self._movers:
            return self._movers[-1]
        if getattr(self, "_base", None) is None:
            return None
        # Set up from a position: the last mover follows from it (docs/positions.md).
        if self._phase == "side":
            return 0
        if self._phase == "play" and not self._board:
            return 1 if self._komi_phase else None
        if self._phase == "play":
            placed_last = "white" if self._color_to_place() == "black" else "black"
            return self._seat_colors.index(placed_last)
        return None

    @property
    def history(self) -> list:
        return list(self._history)

    # ------------------------------------------------------------------ groups and scores
    def _flood(self, start: int) -> list:
        color = self._board[start][0]
        seen = {start}
        stack = [start]
        while stack:
            c = stack.pop()
            for d in self._neighbours[c]:
                if d not in seen and d in self._board and self._board[d][0] == color:
                    seen.add(d)
                    stack.append(d)
        return sorted(seen)

    def groups(self) -> list:
        result = []
        done = set()
        for c in range(self._N):
            if c not in self._board or c in done:
                continue
            members = self._flood(c)
            done.update(members)
            size = len(members)
            numbers = tuple(self._board[m][1] for m in members if self._board[m][1] is not None)
            price = max((abs(w - size) for w in numbers), default=0)
            result.append(
                Group(
                    color=self._board[c][0],
                    size=size,
                    cells=tuple(self._names[m] for m in members),
                    numbers=numbers,
                    price=price,
                )
            )
        return result

    def scores(self) -> tuple:
        price = {"black": 0, "white": 0}
        for g in self.groups():
            price[g.color] += g.price
        result = []
        for seat in (0, 1):
            color = self._seat_colors[seat]
            score = float(price[color])
            if self._komi is not None and self._komi[1] == color:
                score += self._komi[0]
            result.append(score)
        return tuple(result)

    @property
    def winner(self):
        if not self.is_over:
            return None
        s0, s1 = self.scores()
        if s0 < s1:
            return 0
        if s1 < s0:
            return 1
        return None

    # ------------------------------------------------------------------ move parsing
    def _read(self, move):
        """What a move string names, whatever the position: ("komi", k, color),
        ("side", color) or ("place", cell, number or None). Raises InvalidMoveError if it
        is not a move of this game with these parameters at all."""
        if not isinstance(move, str):
            raise InvalidMoveError(f"a move must be a string, got {excerpt(move)}", "not_a_string", move)
        shown = excerpt(move)
        if move.startswith("komi "):
            value, space, color = move[len("komi "):].partition(" ")
            if not space or not re.fullmatch(r"(0|[1-9][0-9]*)\.5", value):
                raise InvalidMoveError(
                    f"malformed komi move {shown}: expected 'komi <k>.5 <black|white>', "
                    "e.g. 'komi 2.5 white'",
                    "komi", move,
                )
            if color not in COLORS:
                raise InvalidMoveError(f"{shown}: the colour must be 'black' or 'white'", "color_word", move)
            digits = value[:-2]
            if len(digits) > len(str(self._N)) or int(digits) > self._N:
                raise InvalidMoveError(
                    f"{shown}: komi must be k + 0.5 with 0 <= k <= {self._N} (number of cells)",
                    "komi_too_large", move,
                )
            return ("komi", int(digits), color)
        if move.startswith("side "):
            color = move[len("side "):]
            if color not in COLORS:
                raise InvalidMoveError(
                    f"malformed side move {shown}: expected 'side black' or 'side white'", "color_word", move
                )
            return ("side", color)
        name, equals, number_text = move.partition("=")
        if re.fullmatch(r"[a-z]0", name):
            raise InvalidMoveError(f"{shown}: cell {excerpt(name)} is off the board (rows are numbered from 1)", "row_zero", move)
        if not _CELL_RE.fullmatch(name) or int(name[1:5]) > MAX_ROW_NUMBER:
            raise InvalidMoveError(
                f"malformed move {shown}: expected a cell like 'c3', a numbered placement "
                "like 'c3=5'" + (", or a komi-phase move" if self._komi_phase else ""),
                "syntax", move,
            )
        number = self._parse_number(move, number_text) if equals else None
        cell = self._index_of_name.get(name)
        if cell is None:
            raise InvalidMoveError(f"{shown}: unknown cell {excerpt(name)}", "off_board", move)
        return ("place", cell, number)

    def _parse(self, move):
        """Read and fully check a move; return what ``_read`` returns. Raises
        InvalidMoveError or IllegalMoveError; never mutates."""
        parsed = self._read(move)
        shown = excerpt(move)
        if self.is_over:
            raise IllegalMoveError(f"the game is over (board full); cannot play {shown}", "board_full", move)
        # Each phase takes one kind of move; another is refused with the phase's kind.
        expected = {"komi": "komi", "side": "side"}.get(self._phase, "place")
        if parsed[0] != expected:
            if self._phase == "komi":
                raise IllegalMoveError(
                    f"{shown}: seat 0 must first choose the komi ('komi <k>.5 <color>')", "komi_first", move
                )
            if self._phase == "side":
                raise IllegalMoveError(
                    f"{shown}: seat 1 must first choose a side ('side black' or 'side white')", "side_first", move
                )
            why = "there is no komi phase in this game" if not self._komi_phase else "the komi phase is over"
            raise IllegalMoveError(f"{shown}: {why}", "not_komi_phase", move)
        if parsed[0] != "place":
            return parsed
        _, cell, number = parsed
        name = self._names[cell]
        if cell in self._board:
            raise IllegalMoveError(f"{shown}: cell {name} is occupied", "occupied", move)
        color = self._color_to_place()
        new_group = not any(
            d in self._board and self._board[d][0] == color for d in self._neighbours[cell]
        )
        if new_group and number is None:
            raise IllegalMoveError(
                f"{shown}: this stone creates a new group and must carry a number, "
                f"e.g. '{name}=0'",
                "number_required", move,
            )
        if not new_group and number is not None:
            raise IllegalMoveError(
                f"{shown}: this stone joins an existing {color} group and must not carry "
                f"a number; play '{name}'",
                "number_forbidden", move,
            )
        return parsed

    @staticmethod
    def _parse_number(move: str, text: str) -> int:
        shown = excerpt(move)
        if re.fullmatch(r"0|[1-9][0-9]*", text):
            # Compare lengths first: int() of thousands of digits would fail.
            if len(text) > len(str(MAX_NUMBER)) or int(text) > MAX_NUMBER:
                raise InvalidMoveError(
                    f"{shown}: the number must be at most 2^31 - 1 = {MAX_NUMBER}", "number_too_large", move
                )
            return int(text)
        if re.fullmatch(r"[0-9]+", text):
            why = "the number must be written without leading zeros"
        elif re.fullmatch(r"-[0-9]+", text):
            why = "the number must be a whole number >= 0, not negative"
        elif text == "":
            why = "missing number after '='"
        else:
            why = f"the number must be a whole number from 0 to {MAX_NUMBER}"
        raise InvalidMoveError(f"{shown}: {why}", "number", move)

    def _canonical(self, parsed) -> str:
        if parsed[0] == "komi":
            return f"komi {parsed[1]}.5 {parsed[2]}"
        if parsed[0] == "side":
            return f"side {parsed[1]}"
        _, cell, number = parsed
        name = self._names[cell]
        return name if number is None else f"{name}={number}"

    def _apply(self, parsed):
        """Mutate the state by an already-checked move."""
        mover = self.to_move
        if parsed[0] == "komi":
            self._komi = (parsed[1] + 0.5, parsed[2])
            self._phase = "side"
        elif parsed[0] == "side":
            seat1 = parsed[1]
            self._seat_colors = [_other(seat1), seat1]
            self._phase = "play"
        else:
            _, cell, number = parsed
            self._board[cell] = (self._color_to_place(), number)
        self._history.append(self._canonical(parsed))
        self._movers.append(mover)

    # ------------------------------------------------------------------ playing
    def play(self, move) -> None:
        parsed = self._parse(move)
        self._apply(parsed)

    def undo(self) -> None:
        if not self._history:
            raise IndexError("undo: no move to take back")
        moves = self._history[:-1]
        self._reset()
        for m in moves:
            self._apply(self._parse(m))

    def copy(self) -> "Nume":
        other = Nume(**self.params)
        other._base = getattr(self, "_base", None)
        other._board = dict(self._board)
        other._history = list(self._history)
        other._movers = list(self._movers)
        other._phase = self._phase
        other._komi = self._komi
        other._seat_colors = list(self._seat_colors)
        return other

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list:
        if self.is_over:
            return []
        N = self._N
        if self._phase == "komi":
            return list(range(self._K, self._K + 2 * (N + 1)))
        if self._phase == "side":
            return [self._S, self._S + 1]
        color = self._color_to_place()
        actions = []
        for c in range(N):
            if c in self._board:
                continue
            if any(d in self._board and self._board[d][0] == color for d in self._neighbours[c]):
                actions.append(c)
            else:
                actions.extend(N + c * (N + 1) + w for w in range(N + 1))
        return sorted(actions)

    def legal_moves(self) -> list:
        return [self.action_to_move(a) for a in self.legal_actions()]

    def action_to_move(self, action) -> str:
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise InvalidMoveError(
                f"action must be an int from 0 to {self.num_actions - 1}, got {excerpt(action)}",
                "action_out_of_range", action,
            )
        action = operator.index(action)  # numpy integers too
        if not 0 <= action < self.num_actions:
            raise InvalidMoveError(
                f"action must be an int from 0 to {self.num_actions - 1}, got {excerpt(action)}",
                "action_out_of_range", action,
            )
        N = self._N
        if action < N:
            return self._names[action]
        if action < self._K:
            cell, w = divmod(action - N, N + 1)
            return f"{self._names[cell]}={w}"
        if action < self._S:
            k, c = divmod(action - self._K, 2)
            return f"komi {k}.5 {COLORS[c]}"
        return f"side {COLORS[action - self._S]}"

    def move_to_action(self, move) -> int:
        parsed = self._read(move)
        N = self._N
        if parsed[0] == "komi":
            return self._K + 2 * parsed[1] + COLORS.index(parsed[2])
        if parsed[0] == "side":
            return self._S + COLORS.index(parsed[1])
        _, cell, w = parsed
        if w is None:
            return cell
        if w > N:
            raise IllegalMoveError(f"{excerpt(move)} has no action: numbers above {N} have none", "no_action_number", move)
        return N + cell * (N + 1) + w

    def apply_action(self, action) -> None:
        move = self.action_to_move(action)
        self.play(move)

    def geometry(self) -> tuple:
        """The board's shape and its cells in index order as (name, x, y): (column,
        row) on the square board, axial (q, r) on the hex board."""
        shape = "hex" if self._square is None else "square"
        return (shape, [(name, q, r) for name, (q, r) in zip(self._names, self._coords)])

    def move_cells(self, move) -> list:
        """The cell a placement puts its stone on; none for komi-phase moves. Raises
        IllegalMoveError for text that is not a move of this board."""
        if not isinstance(move, str):
            raise IllegalMoveError(f"a move must be a string, got {move!r}")
        if _KOMI_RE.fullmatch(move) or _SIDE_RE.fullmatch(move):
            return []
        m = _PLACEMENT_RE.fullmatch(move)
        if m is None or m.group(1) not in self._index_of_name:
            raise IllegalMoveError(f"{move!r} is not a move on this board")
        if m.group(2) is not None:
            self._parse_number(move, m.group(2))
        return [m.group(1)]

    # ------------------------------------------------------------------ snapshot, equality
    def board(self) -> dict:
        return {
            "stones": {
                self._names[c]: self._board[c] for c in range(self._N) if c in self._board
            }
        }

    # ------------------------------------------------------------------ positions
    def _rows(self):
        rows = {}
        for i, (q, r) in enumerate(self._coords):
            rows.setdefault(r, []).append(i)
        ordered = [rows[r] for r in sorted(rows)]
        return ordered[::-1] if self._square is not None else ordered

    def position(self) -> str:
        """The position as one line (docs/positions.md)."""

        def piece(cell):
            if cell not in self._board:
                return None
            color, number = self._board[cell]
            return color[0] + ("" if number is None else f"({number})")

        phase = {"komi": "k", "side": "s", "play": "-"}[self._phase]
        if self._komi is None:
            komi = "-"
        else:
            value, color = self._komi
            komi = f"{int(value - 0.5)}.5{color[0]}"
        colours = "bw" if self._seat_colors[0] == "black" else "wb"
        mover = _position.seat_text(self.to_move)
        return f"{_position.write_board(self._rows(), piece)} {mover} {phase} {komi} {colours}"

    @classmethod
    def from_position(cls, text, **params):
        """A state set up at a position string (docs/positions.md), history empty."""
        game = cls(**params)
        fields = _position.split_fields(text, ["board", "to move", "phase", "komi", "colours"])
        number_re = re.compile(r"\((0|[1-9][0-9]*)\)")

        def read_piece(rest):
            if rest[0] not in "bw":
                raise ValueError(f"unexpected {rest[0]!r}: expected b, w or a number of empty cells")
            color = "black" if rest[0] == "b" else "white"
            if rest[1:2] != "(":
                return (color, None), 1
            match = number_re.match(rest, 1)
            if match is None or int(match.group(1)) > MAX_NUMBER:
                raise ValueError("a stone's number is a whole number from 0 to 2^31 - 1 in parentheses")
            return (color, int(match.group(1))), match.end()

        found = _position.read_board(fields[0], game._rows(), read_piece)
        board = {cell: value for cell, (value, _) in found.items()}
        for cell in sorted(board):
            color, number = board[cell]
            column = found[cell][1]
            if number is not None:
                for other in game._neighbours[cell]:
                    if other < cell and board.get(other, (None, None))[0] == color and board[other][1] is not None:
                        raise _position.error(column, "two numbered stones of one colour side by side")
        game._board = board
        for cell in sorted(board):
            if not any(board[c][1] is not None for c in game._flood(cell)):
                raise _position.error(found[cell][1], "a group without a numbered stone")
        blacks = sum(1 for color, _ in board.values() if color == "black")
        whites = len(board) - blacks
        if blacks not in (whites, whites + 1):
            raise _position.error(fields[0][1], "black stones must equal white stones or exceed them by one")
        (mover, mc), (phase, pc), (komi, kc), (colours, cc) = fields[1:]
        if phase not in ("k", "s", "-"):
            raise _position.error(pc, f"phase must be k, s or -, got {excerpt(phase)}")
        phase = {"k": "komi", "s": "side", "-": "play"}[phase]
        if phase != "play" and not (game._komi_phase and not board):
            raise _position.error(pc, "the komi phase needs komi_phase=True and an empty board")
        if komi == "-":
            komi_value = None
        else:
            match = re.fullmatch(r"(0|[1-9][0-9]*)\.5([bw])", komi)
            if match is None:
                raise _position.error(kc, f"komi must be '-' or like '2.5b', got {excerpt(komi)}")
            komi_value = (int(match.group(1)) + 0.5, "black" if match.group(2) == "b" else "white")
        if phase == "komi" and komi_value is not None:
            raise _position.error(kc, "no komi is chosen yet in phase k")
        if phase != "komi" and game._komi_phase:
            if komi_value is None or komi_value[0] > game._N + 0.5:
                raise _position.error(kc, f"the komi phase chooses a komi up to {game._N}.5")
        if not game._komi_phase:
            expected = None if game._komi_param is None else (game._komi_param, game._komi_to_param)
            if komi_value != expected:
                raise _position.error(kc, "the komi must be the game's komi parameter")
        if colours not in ("bw", "wb"):
            raise _position.error(cc, f"colours must be bw or wb, got {excerpt(colours)}")
        if colours == "wb" and not (game._komi_phase and phase == "play"):
            raise _position.error(cc, "seat 1 plays Black only after choosing it in the komi phase")
        game._base = {
            "board": board,
            "phase": phase,
            "komi": komi_value,
            "seat_colors": ["black", "white"] if colours == "bw" else ["white", "black"],
            "text": None,
        }
        game._reset()
        if mover != _position.seat_text(game.to_move):
            raise _position.error(mc, f"the seat to move here is {_position.seat_text(game.to_move)}")
        return _position.finish_setup(game, cls(**params))
