"""Plain pure-Python reference implementation of Migong.

Written from docs/RULES.md, docs/conventions.md and docs/games/migong.md alone. It is deliberately simple and
slow: the position is a dict from cell to piece string, groups come from a plain flood
fill over (cell, wedge) nodes, and ``undo`` replays the history from the start.
"""

from __future__ import annotations

import operator
import re

from territory.errors import IllegalMoveError, InvalidMoveError, ParameterError, excerpt
from territory._presentation import Presentation
from territory.types import Group
from territory.reference import _position

# --- geometry ---------------------------------------------------------------------------

RADIUS = 6
CENTER = (0, 0)

# Direction index i: E, NE, NW, W, SW, SE (pointy-topped hexes, axial (q, r)).
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


def _in_hexhex(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def _is_cell(cell: tuple[int, int]) -> bool:
    return cell != CENTER and _in_hexhex(*cell)


def _cell_name(cell: tuple[int, int]) -> str:
    q, r = cell
    return chr(ord("a") + q + RADIUS) + str(r + RADIUS + 1)


def _neighbour(cell: tuple[int, int], direction: int) -> tuple[int, int]:
    dq, dr = DIRECTIONS[direction]
    return (cell[0] + dq, cell[1] + dr)


# Cells sorted by r, then by q (docs/games/migong.md): index 0 is g1, index 125 is g13.
CELLS = sorted(
    ((q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1)
     if _is_cell((q, r))),
    key=lambda c: (c[1], c[0]),
)
CELL_INDEX = {cell: i for i, cell in enumerate(CELLS)}
CELL_NAMES = [_cell_name(cell) for cell in CELLS]
CELL_BY_NAME = {name: cell for name, cell in zip(CELL_NAMES, CELLS)}
CENTER_NAME = _cell_name(CENTER)  # "g7"

# Border edges in the explicit-border order: cells in index order, directions 0..5, every
# direction whose neighbour is off the board or is the central border.
BORDER_EDGES = [
    (cell, d) for cell in CELLS for d in range(6) if not _is_cell(_neighbour(cell, d))
]
NUM_BORDER_EDGES = len(BORDER_EDGES)  # 84

# --- pieces and actions -----------------------------------------------------------------


def pattern_to_piece(p: int) -> str:
    """Pattern id (bit i set = wedge i is yellow) to piece string."""
    return "".join("Y" if (p >> i) & 1 else "B" for i in range(6))


def piece_to_pattern(piece: str) -> int:
    return sum(1 << i for i, letter in enumerate(piece) if letter == "Y")


ALL_PIECES = [pattern_to_piece(p) for p in range(64)]
COLOR_LETTER = {"blue": "B", "yellow": "Y"}
LETTER_COLOR = {"B": "blue", "Y": "yellow"}

SWAP_ACTION = len(CELLS) * 64  # 8064
PASS_ACTION = SWAP_ACTION + 1  # 8065
NUM_ACTIONS = PASS_ACTION + 1  # 8066

NAMED_BORDERS = ("alternate", "blue", "yellow")
GROUP_SIZES = ("extent", "wedges")

_CELL_RE = re.compile(r"[a-z][1-9][0-9]*")
MAX_ROW_NUMBER = 256  # a cell name's number is at most this (docs/conventions.md)
_PIECE_RE = re.compile(r"[BY]{6}")


def _border_colors(border: str) -> dict[tuple[tuple[int, int], int], str]:
    """Map (cell, direction) of every border edge to "B" or "Y"."""
    colors = {}
    for k, (cell, d) in enumerate(BORDER_EDGES):
        if border == "alternate":
            # Edges facing E, NW, SW are Blue; facing NE, W, SE are Yellow.
            colors[(cell, d)] = "B" if d % 2 == 0 else "Y"
        elif border == "blue":
            colors[(cell, d)] = "B"
        elif border == "yellow":
            colors[(cell, d)] = "Y"
        else:
            colors[(cell, d)] = border[k]
    return colors


class Migong(_position.SetUpTurns, Presentation):
    """Migong, simply: a dict cell -> piece string, replayed from the history on undo."""

    game = "migong"
    num_actions = NUM_ACTIONS

    def __init__(self, pie=True, border="alternate", group_size="extent"):
        if not isinstance(pie, bool):
            raise ParameterError(f"pie must be a bool (True or False), got {excerpt(pie)}", parameter="pie")
        if not isinstance(border, str) or not (
            border in NAMED_BORDERS
            or (len(border) == NUM_BORDER_EDGES and set(border) <= {"B", "Y"})
        ):
            raise ParameterError(
                "border must be 'alternate', 'blue', 'yellow' or an explicit string of "
                f"{NUM_BORDER_EDGES} characters 'B'/'Y' (one per border edge), got {excerpt(border, 100)}",
                parameter="border",
            )
        if not isinstance(group_size, str) or group_size not in GROUP_SIZES:
            raise ParameterError(f"group_size must be 'extent' or 'wedges', got {excerpt(group_size)}", parameter="group_size")
        self._pie = pie
        self._border = border
        self._group_size = group_size
        self._border_color = _border_colors(border)
        self._reset()

    # --- internal state -----------------------------------------------------------------

    def _reset(self) -> None:
        self._history: list[str] = []
        self._pieces: dict[tuple[int, int], str] = {}
        # Pieces used from each colour's set (keyed by the set's colour letter).
        self._used: dict[str, set[str]] = {"B": set(), "Y": set()}
        self._swapped = False
        # The colour letter of the set each placed piece came from.
        self._owner: dict[tuple[int, int], str] = {}
        if self._base is not None:  # set up by from_position
            self._pieces = dict(self._base["pieces"])
            self._owner = dict(self._base["owner"])
            for cell, letter in self._owner.items():
                self._used[letter].add(self._pieces[cell])
            self._swapped = self._base["swapped"]

    def _mover_letter(self) -> str:
        return COLOR_LETTER[self.color_of(self._ply() % 2)]

    def _swap_allowed(self) -> bool:
        # Seat 1's first turn is the turn after exactly one action (Blue's first move).
        return self._pie and not self.is_over and self._ply() == 1

    def _mismatch(self, cell: tuple[int, int], piece: str) -> str | None:
        """Why piece does not fit on cell, or None when every wedge matches."""
        name = CELL_NAMES[CELL_INDEX[cell]]
        for i in range(6):
            nb = _neighbour(cell, i)
            if _is_cell(nb):
                other = self._pieces.get(nb)
                if other is not None and other[(i + 3) % 6] != piece[i]:
                    return (
                        f"{piece} does not fit on {name}: its wedge {i} ({DIRECTION_NAMES[i]}) "
                        f"is {piece[i]} but the piece {other} on {_cell_name(nb)} shows "
                        f"{other[(i + 3) % 6]} there"
                    )
            else:
                edge = self._border_color[(cell, i)]
                if edge != piece[i]:
                    what = "the central border" if nb == CENTER else "the board edge"
                    return (
                        f"{piece} does not fit on {name}: its wedge {i} ({DIRECTION_NAMES[i]}) "
                        f"is {piece[i]} but {what} there is {edge}"
                    )
        return None

    def _placements(self) -> list[tuple[tuple[int, int], str]]:
        """All legal placements of the mover, in action order."""
        if self.is_over:
            return []
        letter = self._mover_letter()
        result = []
        for cell in CELLS:
            if cell in self._pieces:
                continue
            for piece in ALL_PIECES:
                if letter not in piece or piece in self._used[letter]:
                    continue
                if self._mismatch(cell, piece) is None:
                    result.append((cell, piece))
        return result

    def _has_placement(self) -> bool:
        return bool(self._placements())

    @staticmethod
    def _parse(move) -> str | tuple[tuple[int, int], str]:
        """Parse a move string: "swap", "pass" or (cell, piece). Raises InvalidMoveError
        if it is not a Migong move at all, whatever the position."""
        if not isinstance(move, str):
            raise InvalidMoveError(f"a move must be a string, got {excerpt(move)}", "not_a_string", move)
        if move in ("swap", "pass"):
            return move
        if ":" not in move:
            raise InvalidMoveError(
                f"malformed move {excerpt(move)}: expected '<cell>:<piece>' such as 'h7:BYBYBY', "
                "or 'swap' or 'pass'",
                "syntax", move,
            )
        cell_name, piece = move.split(":", 1)
        if re.fullmatch(r"[a-z]0", cell_name):
            raise InvalidMoveError(f"cell {excerpt(cell_name)} in {excerpt(move)} is off the board (rows are numbered from 1)", "row_zero", move)
        if not _CELL_RE.fullmatch(cell_name) or int(cell_name[1:5]) > MAX_ROW_NUMBER:
            raise InvalidMoveError(
                f"malformed cell name {excerpt(cell_name)} in {excerpt(move)}: expected a letter "
                "a-m and a number 1-13, such as 'h7'",
                "cell_name", move,
            )
        if cell_name == CENTER_NAME:
            raise InvalidMoveError(f"{CENTER_NAME} is the central border, not a playable cell", "central_border", move)
        if cell_name not in CELL_BY_NAME:
            raise InvalidMoveError(
                f"unknown cell {excerpt(cell_name)} in {excerpt(move)}: it is not on the board", "off_board", move
            )
        if not _PIECE_RE.fullmatch(piece):
            raise InvalidMoveError(
                f"malformed piece {excerpt(piece)} in {excerpt(move)}: expected six letters B or Y "
                "(wedges E, NE, NW, W, SW, SE)",
                "piece", move,
            )
        return (CELL_BY_NAME[cell_name], piece)

    def _check(self, move) -> str | tuple[tuple[int, int], str]:
        """Parse and check a move against the current position without changing anything."""
        parsed = self._parse(move)
        if self.is_over:
            raise IllegalMoveError(f"the game is over; no move is possible (got {excerpt(move)})", "game_over", move)
        if parsed == "swap":
            if not self._pie:
                raise IllegalMoveError("swap is not allowed: the pie rule is off", "pie_rule_off", move)
            if not self._swap_allowed():
                raise IllegalMoveError("swap is only allowed on seat 1's first turn", "swap_not_now", move)
            return parsed
        if parsed == "pass":
            if self._swap_allowed():
                raise IllegalMoveError("pass is not allowed: swap is available", "pass_not_allowed", move)
            if self._has_placement():
                raise IllegalMoveError("pass is not allowed while a placement is available", "pass_not_allowed", move)
            return parsed
        cell, piece = parsed
        name = CELL_NAMES[CELL_INDEX[cell]]
        if cell in self._pieces:
            raise IllegalMoveError(f"cell {name} is already occupied by {self._pieces[cell]}", "occupied", move)
        letter = self._mover_letter()
        color = LETTER_COLOR[letter]
        if letter not in piece:
            raise IllegalMoveError(
                f"piece {piece} is not in {color}'s set (every {color} piece has a {letter} wedge)",
                "not_in_set", move,
            )
        if piece in self._used[letter]:
            raise IllegalMoveError(f"piece {piece} of {color}'s set has already been used", "already_used", move)
        reason = self._mismatch(cell, piece)
        if reason is not None:
            raise IllegalMoveError(reason, "does_not_fit", move)
        return parsed

    def _do(self, move: str, parsed) -> None:
        """Apply an already checked move."""
        if parsed == "swap":
            self._swapped = True
        elif parsed != "pass":
            cell, piece = parsed
            self._used[self._mover_letter()].add(piece)
            self._owner[cell] = self._mover_letter()
            self._pieces[cell] = piece
        self._history.append(move)

    # --- parameters and turn ------------------------------------------------------------

    @property
    def params(self) -> dict:
        return {"pie": self._pie, "border": self._border, "group_size": self._group_size}


    def color_of(self, seat: int) -> str:
        if isinstance(seat, bool) or seat not in (0, 1):
            raise ParameterError(f"seat must be 0 or 1, got {excerpt(seat)}", parameter="seat")
        blue_seat = 1 if self._swapped else 0
        return "blue" if seat == blue_seat else "yellow"

    @property
    def history(self) -> list[str]:
        return list(self._history)


    # --- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        return [self.action_to_move(a) for a in self.legal_actions()]

    def legal_actions(self) -> list[int]:
        if self.is_over:
            return []
        actions = [
            CELL_INDEX[cell] * 64 + piece_to_pattern(piece) for cell, piece in self._placements()
        ]
        if self._swap_allowed():
            actions.append(SWAP_ACTION)
        if not actions:
            actions.append(PASS_ACTION)
        return sorted(actions)

    def play(self, move: str) -> None:
        parsed = self._check(move)
        self._do(move, parsed)

    def undo(self) -> None:
        if not self._history:
            raise IndexError("undo: no action to take back")
        moves = self._history[:-1]
        self._reset()
        for move in moves:
            self._do(move, self._parse(move))

    def copy(self) -> "Migong":
        other = Migong(self._pie, self._border, self._group_size)
        other._base = self._base
        other._reset()
        for move in self._history:
            other._do(move, other._parse(move))
        return other

    # --- actions ------------------------------------------------------------------------

    @staticmethod
    def _check_action(a) -> int:
        if isinstance(a, bool):
            raise InvalidMoveError(f"an action must be an int, got {excerpt(a)}", "action_out_of_range", a)
        try:
            a = operator.index(a)
        except TypeError:
            raise InvalidMoveError(f"an action must be an int, got {excerpt(a)}", "action_out_of_range", a) from None
        if not 0 <= a < NUM_ACTIONS:
            raise InvalidMoveError(f"action {excerpt(a)} is out of range 0..{NUM_ACTIONS - 1}", "action_out_of_range", a)
        return a

    def action_to_move(self, a: int) -> str:
        a = self._check_action(a)
        if a == SWAP_ACTION:
            return "swap"
        if a == PASS_ACTION:
            return "pass"
        return f"{CELL_NAMES[a // 64]}:{pattern_to_piece(a % 64)}"

    def move_to_action(self, move: str) -> int:
        parsed = self._parse(move)
        if parsed == "swap":
            return SWAP_ACTION
        if parsed == "pass":
            return PASS_ACTION
        cell, piece = parsed
        return CELL_INDEX[cell] * 64 + piece_to_pattern(piece)

    def apply_action(self, a: int) -> None:
        self.play(self.action_to_move(a))

    # --- groups and scores --------------------------------------------------------------

    def groups(self) -> list[Group]:
        seen: set[tuple[tuple[int, int], int]] = set()
        result = []
        for cell in CELLS:  # wedge ids cell_index * 6 + wedge, ascending
            if cell not in self._pieces:
                continue
            for w in range(6):
                if (cell, w) in seen:
                    continue
                letter = self._pieces[cell][w]
                members = []
                stack = [(cell, w)]
                seen.add((cell, w))
                while stack:
                    c, i = stack.pop()
                    members.append((c, i))
                    steps = [(c, (i - 1) % 6), (c, (i + 1) % 6)]
                    nb = _neighbour(c, i)
                    if nb in self._pieces:
                        steps.append((nb, (i + 3) % 6))
                    for node in steps:
                        if node not in seen and self._pieces[node[0]][node[1]] == letter:
                            seen.add(node)
                            stack.append(node)
                cells = sorted({c for c, _ in members}, key=CELL_INDEX.__getitem__)
                result.append(
                    Group(
                        color=LETTER_COLOR[letter],
                        size=len(cells),
                        cells=tuple(CELL_NAMES[CELL_INDEX[c]] for c in cells),
                        wedges=len(members),
                    )
                )
        return result

    def _color_scores(self) -> dict[str, int]:
        counts: dict[str, dict[int, int]] = {"blue": {}, "yellow": {}}
        for g in self.groups():
            size = g.size if self._group_size == "extent" else g.wedges
            counts[g.color][size] = counts[g.color].get(size, 0) + 1
        scores = {}
        for color, other in (("blue", "yellow"), ("yellow", "blue")):
            held = [s for s, n in counts[color].items() if n > counts[other].get(s, 0)]
            scores[color] = max(held, default=0)
        return scores

    def scores(self) -> tuple[int, int]:
        by_color = self._color_scores()
        return (by_color[self.color_of(0)], by_color[self.color_of(1)])

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        s0, s1 = self.scores()
        if s0 != s1:
            return 0 if s0 > s1 else 1
        # Tied (only possible at 0): the seat that made the last move loses.
        last = self.last_mover
        return None if last is None else 1 - last

    # --- snapshot and equality ----------------------------------------------------------

    def board(self) -> dict:
        return {
            "pieces": {
                CELL_NAMES[CELL_INDEX[cell]]: self._pieces[cell]
                for cell in CELLS
                if cell in self._pieces
            }
        }

    def border_colors(self) -> str:
        """The colour letter of each border edge, in the explicit-border order."""
        return "".join(self._border_color[edge] for edge in BORDER_EDGES)

    def geometry(self) -> tuple[str, list[tuple[str, int, int]]]:
        """The board's shape and its cells in index order as (name, q, r)."""
        return ("hex", [(name, q, r) for name, (q, r) in zip(CELL_NAMES, CELLS)])

    def border_edges(self) -> list[tuple[str, int]]:
        """The border edges as (cell name, direction), in the explicit-border order."""
        return [(CELL_NAMES[CELL_INDEX[cell]], d) for cell, d in BORDER_EDGES]

    def move_cells(self, move: str) -> list[str]:
        """The names of the cells a move places on (none for swap and pass)."""
        parsed = self._parse(move)
        return [] if isinstance(parsed, str) else [CELL_NAMES[CELL_INDEX[parsed[0]]]]

    def remaining(self, color: str) -> list[str]:
        if color not in COLOR_LETTER:
            raise ParameterError(f"color must be 'blue' or 'yellow', got {excerpt(color)}", parameter="color")
        letter = COLOR_LETTER[color]
        return sorted(p for p in ALL_PIECES if letter in p and p not in self._used[letter])

    # --- positions ----------------------------------------------------------------------

    @staticmethod
    def _rows():
        rows = []
        for r in range(-RADIUS, RADIUS + 1):
            row = [(q, r) for q in range(-RADIUS, RADIUS + 1) if _in_hexhex(q, r)]
            rows.append([None if cell == CENTER else cell for cell in row])
        return rows

    def position(self) -> str:
        """The position as one line (docs/positions.md)."""

        def piece(cell):
            if cell not in self._pieces:
                return None
            text = self._pieces[cell]
            return text if self._owner[cell] == "B" else text.lower()

        return _position.write_board(self._rows(), piece) + " " + self._turn_text()

    @classmethod
    def from_position(cls, text, **params):
        """A state set up at a position string (docs/positions.md), history empty."""
        game = cls(**params)
        fields = _position.split_fields(text, ["board", "to move", "pie", "passes", "last mover"])

        def read_piece(rest):
            word = rest[:6]
            if len(word) == 6 and set(word) <= {"B", "Y"}:
                return (word, "B"), 6
            if len(word) == 6 and set(word) <= {"b", "y"}:
                return (word.upper(), "Y"), 6
            raise ValueError(f"{word!r} is not a piece: six letters B/Y or b/y, or a number of empty cells")

        found = _position.read_board(fields[0], cls._rows(), read_piece)
        order = sorted(found, key=lambda cell: CELL_INDEX[cell])
        game._pieces = {}
        used = {"B": {}, "Y": {}}
        for cell in order:
            (piece, letter), column = found[cell]
            name = _cell_name(cell)
            if letter not in piece:
                raise _position.error(column, f"{piece} on {name} is not in its owner's set")
            if piece in used[letter]:
                raise _position.error(column, f"{piece} on {name} was placed twice by the same colour "
                                      f"(also on {_cell_name(used[letter][piece])})")
            used[letter][piece] = cell
            reason = game._mismatch(cell, piece)
            if reason is not None:
                raise _position.error(column, reason)
            game._pieces[cell] = piece
        base = game._read_turn(fields[1:], not found)
        base.update(
            pieces={cell: found[cell][0][0] for cell in order},
            owner={cell: found[cell][0][1] for cell in order},
            text=None,
        )
        game._base = base
        game._reset()
        passers = {0: [], 1: [1 - (game.to_move or 0)], 2: [0, 1]}[base["passes"]]
        for seat in passers:
            letter = COLOR_LETTER[game.color_of(seat)]
            for cell in CELLS:
                if cell in game._pieces:
                    continue
                if any(letter in p and p not in game._used[letter] and game._mismatch(cell, p) is None
                       for p in ALL_PIECES):
                    raise _position.error(fields[3][1], f"seat {seat} passed but had a placement")
        return _position.finish_setup(game, cls(**params))
