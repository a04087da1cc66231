"""The plain-text game record shared by the three games (docs/records.md).

Example::

    # territory game record
    game = tabik
    size = 8
    pie = true
    seat0 = Alice
    result = seat 1 wins 2-3
    moves:
    1. b2-b3
    2. swap

``#`` starts a comment, blank lines are ignored. The header holds ``key = value`` lines:
``game`` (required), the game's parameters (missing ones take their defaults), optional
``seat0``/``seat1`` names and an optional ``result``, which must agree with the moves.
After ``moves:`` comes one move per line, optionally numbered ``N.``.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any

from territory.errors import IllegalMoveError, RecordError, excerpt

GAMES = ("migong", "nume", "tabik")
_NUMBERED = re.compile(r"^(\d+)\.\s*(.*)$")
_INT = re.compile(r"^-?\d+$")
_FLOAT = re.compile(r"^-?\d+\.\d+$")
#: Digits of the longest integer a record may hold (Python refuses to read numbers of
#: thousands of digits; no parameter or move number is anywhere near this long).
_MAX_DIGITS = 100


@dataclass
class Record:
    """A parsed record: what the file says, before any move is played."""

    game: str
    params: dict[str, Any]
    moves: list[str]
    seats: tuple[str | None, str | None] = (None, None)
    result: str | None = None
    #: The line each move came from, for error messages.
    move_lines: list[int] = field(default_factory=list)


def format_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text == "none":
        return None
    if _INT.match(text):
        if len(text) > _MAX_DIGITS:
            raise ValueError(f"the number {excerpt(text)} has too many digits")
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def result_text(state: Any) -> str:
    """How a state's result is written in a record."""
    if not state.is_over:
        return "unfinished"
    a, b = state.scores()
    scores = f"{format_score(a)}-{format_score(b)}"
    if state.winner is None:
        return f"draw {scores}"
    return f"seat {state.winner} wins {scores}"


def format_score(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else str(score)


def dumps(state: Any, seats: tuple[str | None, str | None] = (None, None), comment: str | None = None) -> str:
    """A record of a state: its game, parameters, result and moves."""
    lines = ["# territory game record"]
    if comment:
        lines += [f"# {line}" for line in comment.splitlines()]
    lines.append(f"game = {state.game}")
    lines += [f"{key} = {format_value(value)}" for key, value in state.params.items()]
    for seat, name in enumerate(seats):
        if name is not None:
            if not isinstance(name, str):
                raise ValueError(f"seat name must be a string or None, got {excerpt(name)}")
            # Any character str.splitlines() breaks at (\r, \v, \f, \x1c-\x1e, \x85,
            # \u2028, \u2029 as well as \n) would split the line when the record is read.
            if "#" in name or "".join(name.splitlines()) != name:
                raise ValueError(f"seat name {excerpt(name)} may not contain '#' or a line break")
            lines.append(f"seat{seat} = {name}")
    lines.append(f"result = {result_text(state)}")
    lines.append("moves:")
    lines += [f"{i}. {move}" for i, move in enumerate(state.history, start=1)]
    return "\n".join(lines) + "\n"


def parse(text: str) -> Record:
    """Reads a record's text without playing it. Raises RecordError naming the line."""
    if not isinstance(text, str):
        raise RecordError(f"a record must be a string, got {type(text).__name__}")
    header: dict[str, tuple[Any, int]] = {}
    moves: list[str] = []
    move_lines: list[int] = []
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if in_moves:
            numbered = _NUMBERED.match(line)
            if numbered:
                # Compared as text: int() of thousands of digits would fail.
                digits = numbered.group(1)
                if (digits.lstrip("0") or "0") != str(len(moves) + 1):
                    shown = digits if len(digits) <= 40 else excerpt(digits)
                    raise RecordError(f"move number {shown} out of order, expected {len(moves) + 1}", number)
                line = numbered.group(2).strip()
                if not line:
                    raise RecordError("move number without a move", number)
            moves.append(line)
            move_lines.append(number)
        elif line == "moves:":
            in_moves = True
        elif "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            if not re.fullmatch(r"[a-z_0-9]+", key):
                raise RecordError(f"bad header key {excerpt(key)}", number)
            if key in header:
                raise RecordError(f"{excerpt(key)} given twice", number)
            header[key] = (value, number)
        else:
            raise RecordError(f"expected 'key = value' or 'moves:', got {excerpt(line)}", number)
    if "game" not in header:
        raise RecordError("no 'game = ...' line: not a territory record")
    game, game_line = header.pop("game")
    if game not in GAMES:
        raise RecordError(f"unknown game {excerpt(game)}; expected one of {', '.join(GAMES)}", game_line)
    if not in_moves:
        raise RecordError("no 'moves:' line: the record is truncated")
    seats = tuple(header.pop(f"seat{i}", (None, 0))[0] for i in range(2))
    result = header.pop("result", (None, 0))[0]
    params = {}
    for key, (value, line_number) in header.items():
        try:
            params[key] = parse_value(value)
        except ValueError as error:
            raise RecordError(f"bad value of {key!r}: {error}", line_number) from None
    record = Record(game, params, moves, seats, result, move_lines)  # type: ignore[arg-type]
    record.param_lines = {key: line for key, (_, line) in header.items()}  # type: ignore[attr-defined]
    return record


def load(text: str, *, reference: bool = False) -> Any:
    """The state a record describes, with every move replayed and checked.

    ``reference=True`` builds it with ``territory.reference`` instead of the engine.
    Raises RecordError (a ValueError) naming the line and the problem; nothing
    half-loaded is returned.
    """
    record = parse(text)
    state = new_game(record, reference=reference)
    for move, line in zip(record.moves, record.move_lines):
        try:
            state.play(move)
        except IllegalMoveError as error:
            raise RecordError(f"illegal move {excerpt(move)}: {error}", line) from None
    if record.result is not None and record.result != result_text(state):
        raise RecordError(f"result says {excerpt(record.result)} but the moves give {result_text(state)!r}")
    return state


def new_game(record: Record, *, reference: bool = False) -> Any:
    module = importlib.import_module(f"territory.reference.{record.game}" if reference else "territory")
    cls = getattr(module, record.game.capitalize())
    lines: dict[str, int] = getattr(record, "param_lines", {})
    try:
        return cls(**record.params)
    except TypeError as error:
        known = set(cls().params)
        for key, line in lines.items():
            if key not in known:
                raise RecordError(f"unknown {record.game} parameter {excerpt(key)}", line) from None
        raise RecordError(f"bad parameters: {error}") from None
    except ValueError as error:
        bad_line = next((n for key, n in lines.items() if str(error).startswith(key)), None)
        raise RecordError(f"bad parameter: {error}", bad_line) from None
