"""Plain pure-Python reference implementation of Tabik.

Written from docs/RULES.md (rules, move strings) and docs/conventions.md with
docs/games/tabik.md (cell and action numbering, orderings, parameter validation,
board() snapshot) alone. It is meant
to be obviously correct, not fast: the position is kept in plain dicts and sets,
everything derived (legal moves, groups, scores) is recomputed from scratch on demand,
and undo() rebuilds the state by replaying the history from the start.

Geometry (k x k board):
- square (c, r), 0-based column c (letter a, b, ...) and row r (number 1, 2, ...),
  cell index r * k + c;
- horizontal edge between (c, r) and (c + 1, r): index r * (k - 1) + c;
- vertical edge between (c, r) and (c, r + 1): index k * (k - 1) + r * k + c;
- an edge's first square is (c, r), its second the other one.

Actions (E = 2k(k - 1) edges):
- 2e      placement, black on the first square, white on the second ("<first>-<second>")
- 2e + 1  placement, black on the second square, white on the first ("<second>-<first>")
- 2E + e  stone swap across edge e ("<first>x<second>")
- 3E      pie swap ("swap")
- 3E + 1  "pass"
"""

from __future__ import annotations

import operator
import re

from territory.errors import IllegalMoveError, InvalidMoveError, ParameterError, excerpt
from territory._presentation import Presentation
from territory.types import Group
from territory.reference import _position

BLACK = "black"
WHITE = "white"

_SQUARE_RE = re.compile(r"([a-z])([0-9]+)")
_MOVE_RE = re.compile(r"([a-z][0-9]+)([-x])([a-z][0-9]+)")
MAX_ROW_NUMBER = 256  # a square name's number is at most this (docs/conventions.md)


class Tabik(_position.SetUpTurns, Presentation):
    """A Tabik game state (reference implementation)."""

    game = "tabik"

    # ------------------------------------------------------------------ creation

    def __init__(self, size=8, pie=True):
        if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 16:
            raise ParameterError(f"size must be an int from 2 to 16, got {excerpt(size)}", parameter="size")
        if not isinstance(pie, bool):
            raise ParameterError(f"pie must be a bool (True or False), got {excerpt(pie)}", parameter="pie")
        self._size = int(size)
        self._pie = pie
        self._reset()

    def _reset(self):
        """Put the state back at the start position (parameters unchanged)."""
        self._stones = {}  # cell index -> "black" | "white"
        self._rods = set()  # edge indices that carry a rod
        self._swapped = False  # True after a pie swap: seat 0 plays white
        self._history = []  # canonical move strings
        self._actions = []  # the same moves as action numbers
        if self._base is not None:  # set up by from_position
            self._stones = dict(self._base["stones"])
            self._rods = set(self._base["rods"])
            self._swapped = self._base["swapped"]

    @property
    def params(self):
        return {"size": self._size, "pie": self._pie}

    # ------------------------------------------------------------------ geometry

    @property
    def _num_edges(self):
        k = self._size
        return 2 * k * (k - 1)

    def _cell_name(self, cell):
        k = self._size
        c, r = cell % k, cell // k
        return f"{chr(ord('a') + c)}{r + 1}"

    def _edge_squares(self, e):
        """(first, second) cell indices of edge e."""
        k = self._size
        horizontal = k * (k - 1)
        if e < horizontal:
            r, c = divmod(e, k - 1)
            first = r * k + c
            return first, first + 1
        r, c = divmod(e - horizontal, k)
        first = r * k + c
        return first, first + k

    def _edge_between(self, a, b):
        """Edge index between cells a and b, or None if they are not adjacent."""
        k = self._size
        lo, hi = min(a, b), max(a, b)
        (c1, r1), (c2, r2) = (lo % k, lo // k), (hi % k, hi // k)
        if r1 == r2 and c2 == c1 + 1:
            return r1 * (k - 1) + c1
        if c1 == c2 and r2 == r1 + 1:
            return k * (k - 1) + r1 * k + c1
        return None

    def _neighbours(self, cell):
        k = self._size
        c, r = cell % k, cell // k
        result = []
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nc, nr = c + dc, r + dr
            if 0 <= nc < k and 0 <= nr < k:
                result.append(nr * k + nc)
        return result

    def _parse_square(self, text, move):
        """Cell index of a square name; raises InvalidMoveError if malformed or off the board."""
        m = _SQUARE_RE.fullmatch(text)
        if m is None or (len(m.group(2)) > 1 and m.group(2)[0] == "0") or int(m.group(2)[:4]) > MAX_ROW_NUMBER:
            raise InvalidMoveError(f"malformed move {excerpt(move)}: {excerpt(text)} is not a square name", "syntax", move)
        k = self._size
        c = ord(m.group(1)) - ord("a")
        # More than two digits: a row far beyond any board (and int() of thousands of
        # digits would fail).
        r = int(m.group(2)) - 1 if len(m.group(2)) <= 2 else k
        if r == -1:  # row 0, as in 'a0': off every board
            raise InvalidMoveError(f"invalid move {excerpt(move)}: square {excerpt(text)} is off the board (rows are numbered from 1)", "row_zero", move)
        if not (0 <= c < k and 0 <= r < k):
            raise InvalidMoveError(
                f"invalid move {excerpt(move)}: square {excerpt(text)} is off the {k} x {k} board",
                "off_board", move,
            )
        return r * k + c

    # ------------------------------------------------------------------ actions

    @property
    def num_actions(self):
        return 3 * self._num_edges + 2

    def _check_action_range(self, a):
        if isinstance(a, bool):
            raise InvalidMoveError(f"action must be an int, got {excerpt(a)}", "action_out_of_range", a)
        try:
            a = operator.index(a)
        except TypeError:
            raise InvalidMoveError(f"action must be an int, got {excerpt(a)}", "action_out_of_range", a) from None
        if not 0 <= a < self.num_actions:
            raise InvalidMoveError(
                f"action {excerpt(a)} is out of range: actions are 0 to {self.num_actions - 1}",
                "action_out_of_range", a,
            )
        return a

    def action_to_move(self, a):
        a = self._check_action_range(a)
        E = self._num_edges
        if a == 3 * E:
            return "swap"
        if a == 3 * E + 1:
            return "pass"
        if a >= 2 * E:
            first, second = self._edge_squares(a - 2 * E)
            return f"{self._cell_name(first)}x{self._cell_name(second)}"
        first, second = self._edge_squares(a // 2)
        if a % 2 == 0:
            black, white = first, second
        else:
            black, white = second, first
        return f"{self._cell_name(black)}-{self._cell_name(white)}"

    def move_to_action(self, m):
        """Action number of a move string (either order of a stone swap is accepted)."""
        try:
            return self._action(m)
        except IllegalMoveError as error:  # two squares that are not neighbours: no action
            if isinstance(error, InvalidMoveError):
                raise
            raise IllegalMoveError(f"{error}: it has no action number", "no_action_number", m) from None

    def _action(self, m):
        """Action number of a move string; IllegalMoveError for squares not adjacent."""
        if not isinstance(m, str):
            raise InvalidMoveError(f"a move must be a string, got {excerpt(m)}", "not_a_string", m)
        E = self._num_edges
        if m == "swap":
            return 3 * E
        if m == "pass":
            return 3 * E + 1
        match = _MOVE_RE.fullmatch(m)
        if match is None:
            raise InvalidMoveError(
                f"malformed move {excerpt(m)}: expected '<square>-<square>', "
                f"'<square>x<square>', 'swap' or 'pass'",
                "syntax", m,
            )
        a = self._parse_square(match.group(1), m)
        b = self._parse_square(match.group(3), m)
        e = self._edge_between(a, b)
        if e is None:
            raise IllegalMoveError(
                f"illegal move {excerpt(m)}: squares {match.group(1)} and {match.group(3)} "
                f"are not orthogonally adjacent",
                "not_adjacent", m,
            )
        if match.group(2) == "x":
            return 2 * E + e
        first, _second = self._edge_squares(e)
        # a is the black square
        return 2 * e if a == first else 2 * e + 1

    def _why_illegal(self, a):
        """None if action a (in range) is legal now, else the reason: (kind, text)."""
        if self.is_over:
            return "game_over", "the game is over"
        E = self._num_edges
        if a == 3 * E + 1:
            if self._has_non_pass_action():
                return "pass_not_allowed", "pass is only allowed when no other move exists"
            return None
        if a == 3 * E:
            if not self._pie:
                return "pie_rule_off", "swap is not allowed: the pie rule is off"
            if self._ply() != 1:
                return "swap_not_now", "swap is only allowed as seat 1's first action"
            return None
        if a >= 2 * E:
            e = a - 2 * E
            first, second = self._edge_squares(e)
            f_name, s_name = self._cell_name(first), self._cell_name(second)
            if first not in self._stones or second not in self._stones:
                empty = [n for cell, n in ((first, f_name), (second, s_name))
                         if cell not in self._stones]
                return "no_stone_to_swap", f"cannot swap: square {' and '.join(empty)} is empty"
            if self._stones[first] == self._stones[second]:
                return ("same_colour", f"cannot swap: {f_name} and {s_name} are both "
                        f"{self._stones[first]} (stones must differ in colour)")
            if e in self._rods:
                return "rod", f"cannot swap: a rod lies between {f_name} and {s_name}"
            return None
        e = a // 2
        first, second = self._edge_squares(e)
        occupied = [self._cell_name(cell) for cell in (first, second) if cell in self._stones]
        if occupied:
            return "occupied", f"square {' and '.join(occupied)} is occupied"
        if e in self._rods:  # cannot happen (rods only lie between stones); kept as a guard
            return "rod", "a rod already lies on that edge"
        return None

    def _has_non_pass_action(self):
        E = self._num_edges
        return any(self._why_illegal(a) is None for a in range(3 * E + 1))

    def legal_actions(self):
        if self.is_over:
            return []
        return [a for a in range(self.num_actions) if self._why_illegal(a) is None]

    def legal_moves(self):
        return [self.action_to_move(a) for a in self.legal_actions()]

    # ------------------------------------------------------------------ playing

    def _do(self, a):
        """Apply a legal action (no checks)."""
        E = self._num_edges
        if a == 3 * E:
            self._swapped = not self._swapped
        elif a == 3 * E + 1:
            pass
        elif a >= 2 * E:
            e = a - 2 * E
            first, second = self._edge_squares(e)
            self._stones[first], self._stones[second] = self._stones[second], self._stones[first]
            self._rods.add(e)
        else:
            e = a // 2
            first, second = self._edge_squares(e)
            black, white = (first, second) if a % 2 == 0 else (second, first)
            self._stones[black] = BLACK
            self._stones[white] = WHITE
            self._rods.add(e)
        self._history.append(self.action_to_move(a))
        self._actions.append(a)

    def play(self, move):
        try:
            a = self._action(move)
        except IllegalMoveError as error:
            if self.is_over and type(error) is IllegalMoveError:
                raise IllegalMoveError(f"illegal move {excerpt(move)}: the game is over", "game_over", move) from None
            raise
        if self.is_over:
            raise IllegalMoveError(f"illegal move {excerpt(move)}: the game is over", "game_over", move)
        reason = self._why_illegal(a)
        if reason is not None:
            kind, text = reason
            raise IllegalMoveError(f"illegal move {excerpt(move)}: {text}", kind, move)
        self._do(a)

    def apply_action(self, a):
        a = self._check_action_range(a)
        reason = self._why_illegal(a)
        if reason is not None:
            kind, text = reason
            move = self.action_to_move(a)
            raise IllegalMoveError(f"illegal action {a} ({move!r}): {text}", kind, move)
        self._do(a)

    def undo(self):
        if not self._actions:
            raise IndexError("undo: no action to take back")
        actions = self._actions[:-1]
        self._reset()
        for a in actions:
            self._do(a)

    # ------------------------------------------------------------------ queries

    @property
    def history(self):
        return list(self._history)


    def color_of(self, seat):
        if isinstance(seat, bool) or seat not in (0, 1):
            raise ParameterError(f"seat must be 0 or 1, got {excerpt(seat)}", parameter="seat")
        first = WHITE if self._swapped else BLACK
        second = BLACK if self._swapped else WHITE
        return first if seat == 0 else second


    def groups(self):
        seen = set()
        result = []
        for cell in sorted(self._stones):
            if cell in seen:
                continue
            color = self._stones[cell]
            members = {cell}
            stack = [cell]
            while stack:
                x = stack.pop()
                for y in self._neighbours(x):
                    if y not in members and self._stones.get(y) == color:
                        members.add(y)
                        stack.append(y)
            seen |= members
            result.append(Group(
                color=color,
                size=len(members),
                cells=tuple(self._cell_name(c) for c in sorted(members)),
            ))
        return result

    def _color_scores(self):
        counts = {BLACK: {}, WHITE: {}}
        for g in self.groups():
            counts[g.color][g.size] = counts[g.color].get(g.size, 0) + 1
        scores = {}
        for color, other in ((BLACK, WHITE), (WHITE, BLACK)):
            held = [s for s, n in counts[color].items() if n > counts[other].get(s, 0)]
            scores[color] = max(held) if held else 0
        return scores

    def scores(self):
        by_color = self._color_scores()
        return (by_color[self.color_of(0)], by_color[self.color_of(1)])

    @property
    def winner(self):
        if not self.is_over:
            return None
        s0, s1 = self.scores()
        if s0 > s1:
            return 0
        if s1 > s0:
            return 1
        # Equal scores can only be 0 - 0: whoever made the last move loses.
        last = self.last_mover
        if last is None:  # unreachable for size >= 2 (the first action is never a pass)
            return None
        return 1 - last

    def board(self):
        stones = {self._cell_name(c): self._stones[c] for c in sorted(self._stones)}
        rods = []
        for e in sorted(self._rods):
            first, second = self._edge_squares(e)
            rods.append((self._cell_name(first), self._cell_name(second)))
        return {"stones": stones, "rods": rods}

    def geometry(self):
        """The board's shape and its squares in index order as (name, column, row)."""
        k = self._size
        return ("square", [(self._cell_name(i), i % k, i // k) for i in range(k * k)])

    def move_cells(self, move):
        """The squares a move places on or swaps, in the order of its canonical text
        (black then white, or first then second); none for swap and pass."""
        canonical = self.action_to_move(self.move_to_action(move))
        match = _MOVE_RE.fullmatch(canonical)
        return [] if match is None else [match.group(1), match.group(3)]

    # ------------------------------------------------------------------ copying, equality

    def copy(self):
        other = Tabik(self._size, self._pie)
        other._base = self._base
        other._reset()
        for a in self._actions:
            other._do(a)
        return other

    # ------------------------------------------------------------------ positions

    def _rows(self):
        k = self._size
        return [[r * k + c for c in range(k)] for r in reversed(range(k))]

    def _east_edge(self, cell):
        k = self._size
        return cell // k * (k - 1) + cell % k

    def _north_edge(self, cell):
        k = self._size
        return k * (k - 1) + cell

    def position(self):
        """The position as one line (docs/positions.md)."""
        k = self._size

        def piece(cell):
            if cell not in self._stones:
                return None
            text = "b" if self._stones[cell] == BLACK else "w"
            if cell % k < k - 1 and self._east_edge(cell) in self._rods:
                text += ">"
            if cell + k < k * k and self._north_edge(cell) in self._rods:
                text += "^"
            return text

        return _position.write_board(self._rows(), piece) + " " + self._turn_text()

    @classmethod
    def from_position(cls, text, **params):
        """A state set up at a position string (docs/positions.md), history empty."""
        game = cls(**params)
        fields = _position.split_fields(text, ["board", "to move", "pie", "passes", "last mover"])
        k = game._size

        def read_piece(rest):
            if rest[0] not in "bw":
                raise ValueError(f"unexpected {rest[0]!r}: expected b, w or a number of empty squares")
            length = 1
            east = rest[length:length + 1] == ">"
            length += east
            north = rest[length:length + 1] == "^"
            length += north
            return (BLACK if rest[0] == "b" else WHITE, east, north), length

        found = _position.read_board(fields[0], game._rows(), read_piece)
        stones = {cell: color for cell, ((color, _, _), _) in found.items()}
        rods = set()
        touched = set()
        for cell, ((_, east, north), column) in sorted(found.items()):
            for has, ok, other, edge in (
                (east, cell % k < k - 1, cell + 1, game._east_edge(cell)),
                (north, cell + k < k * k, cell + k, game._north_edge(cell)),
            ):
                if not has:
                    continue
                if not ok:
                    raise _position.error(column, f"a rod beside {game._cell_name(cell)} would lie off the board")
                if other not in stones:
                    raise _position.error(
                        column, f"a rod touches the empty square {game._cell_name(other)}: rods lie between stones"
                    )
                rods.add(edge)
                touched |= {cell, other}
        for cell, (_, column) in sorted(found.items()):
            if cell not in touched:
                raise _position.error(column, f"the stone on {game._cell_name(cell)} touches no rod")
        blacks = sum(1 for c in stones.values() if c == BLACK)
        if blacks * 2 != len(stones):
            raise _position.error(fields[0][1], "the numbers of black and white stones differ")
        base = game._read_turn(fields[1:], not stones)
        base.update(stones=stones, rods=rods, text=None)
        game._base = base
        game._reset()
        passes, base["passes"] = base["passes"], 0  # the moves of the board, as if nobody had passed
        if passes and any(game._why_illegal(a) is None for a in range(3 * game._num_edges)):
            raise _position.error(fields[3][1], "a pass is only legal without other moves, and moves are available")
        base["passes"] = passes
        return _position.finish_setup(game, cls(**params))

