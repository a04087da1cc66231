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

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Optional, Tuple, Union

from territory import registry
from territory.errors import IllegalMoveError, RecordError, excerpt
from territory.types import GameState

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


def result_text(state: GameState) -> str:
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


#: The players' names in a record: (seat 0, seat 1), each a str or None.
Seats = Tuple[Optional[str], Optional[str]]


def dumps(state: GameState, seats: tuple[str | None, str | None] = (None, None), comment: str | None = None) -> str:
    """A record of a state: its game, parameters, result and moves.

    ``seats``: the players' names, a pair (seat 0, seat 1) of str or None; ``comment``:
    text written as ``#`` lines at the top.
    """
    if not isinstance(seats, (tuple, list)) or len(seats) != 2 or not all(n is None or isinstance(n, str) for n in seats):
        raise TypeError(f"seats must be a pair (seat 0, seat 1) of names (str or None), got {seats!r}")
    if comment is not None and not isinstance(comment, str):
        raise TypeError(f"comment must be a str or None, got {comment!r}")
    lines = ["# territory game record"]
    if comment:
        lines += [f"# {line}" for line in comment.splitlines()]
    lines.append(f"game = {state.game}")
    lines += [f"{key} = {format_value(value)}" for key, value in state.params.items()]
    start = start_position(state)
    if start is not None:
        lines.append(f"start = {start}")
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


def start_position(state: Any) -> str | None:
    """The position a state was set up from (docs/positions.md), or None when it started
    at the start position."""
    first = state.copy()
    while first.history:
        first.undo()
    position: str = first.position()
    return None if position == type(state)(**state.params).position() else position


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
    if game not in registry.GAMES:
        raise RecordError(f"unknown game {excerpt(game)}; expected one of {', '.join(registry.GAMES)}", game_line)
    if not in_moves:
        raise RecordError("no 'moves:' line: the record is truncated")
    seats = tuple(header.pop(f"seat{i}", (None, 0))[0] for i in range(2))
    result = header.pop("result", (None, 0))[0]
    start = header.pop("start", None)
    params = {}
    for key, (value, line_number) in header.items():
        try:
            params[key] = parse_value(value)
        except ValueError as error:
            raise RecordError(f"bad value of {key!r}: {error}", line_number) from None
    record = Record(game, params, moves, seats, result, move_lines)  # type: ignore[arg-type]
    record.start = start  # type: ignore[attr-defined]
    record.param_lines = {key: line for key, (_, line) in header.items()}  # type: ignore[attr-defined]
    return record


#: What ``load`` and ``positions`` read: a record's text, a file name or an open file.
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


#: The longest record read (bytes, or characters from a text stream): far above any
#: game's (at most a few hundred moves, kilobytes), and a bound on the memory a file
#: such as /dev/zero can take.
MAX_RECORD_BYTES = 2**24

#: Read this much at a time, so that Ctrl-C stops a long read between two chunks.
_CHUNK = 2**20


def _read_capped(stream: Any) -> Any:
    """The whole of ``stream`` (bytes or str, as its ``read`` gives), read in chunks; a
    RecordError beyond ``MAX_RECORD_BYTES``."""
    chunks: list[Any] = []
    size = 0
    while size <= MAX_RECORD_BYTES:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return chunks[0][:0].join(chunks) if chunks else chunk
        if not isinstance(chunk, (str, bytes)):
            return chunk
        chunks.append(chunk)
        size += len(chunk)
    raise RecordError(f"the file is longer than {MAX_RECORD_BYTES:,} bytes, the most a record may be: not a record")


def read_source(source: Source) -> str:
    """A record's text from ``source``: a ``str`` holding a line break is the text itself
    (every record has at least two lines: ``game = ...`` and ``moves:``), and so is
    ``""``; any other ``str`` and an ``os.PathLike`` name a file; an object with ``read()`` is an open file
    (text or binary). Files are read as UTF-8, at most ``MAX_RECORD_BYTES``. Raises
    RecordError if it cannot be read or is longer."""
    if isinstance(source, str) and (not source or "\n" in source or "\r" in source):
        return source
    data: Any
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as stream:
                data = _read_capped(stream)
        except RecordError:
            raise
        except (OSError, ValueError) as error:  # ValueError: a NUL in the name
            why = getattr(error, "strerror", None) or error
            hint = " (a str without a line break is a file name)" if isinstance(source, str) else ""
            raise RecordError(f"cannot read {excerpt(str(source))}: {why}{hint}") from None
    elif callable(getattr(source, "read", None)):
        data = _read_capped(source)
        if isinstance(data, str):
            return data
    else:
        raise RecordError(f"a record is its text, a file name or an open file, got {excerpt(source)}")
    if not isinstance(data, bytes):
        raise RecordError(f"reading the file gave {type(data).__name__}, not text or bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"not a UTF-8 text file (byte {data[error.start]:#04x} at offset {error.start})") from None


def load(source: Source, *, reference: bool = False) -> GameState:
    """The state a record describes, with every move replayed and checked.

    ``source``: the record's text, a file name or an open file (see ``read_source``:
    a ``str`` with a line break is text, any other ``str`` a file name).
    ``reference=True`` builds it with ``territory.reference`` instead of the engine.
    Raises RecordError (a ValueError) naming the line and the problem; nothing
    half-loaded is returned.
    """
    record = parse(read_source(source))
    state = new_game(record, reference=reference)
    for move, line in zip(record.moves, record.move_lines):
        try:
            state.play(move)
        except IllegalMoveError as error:
            raise RecordError(f"illegal move {excerpt(move)}: {error}", line) from None
    if record.result is not None and record.result != result_text(state):
        raise RecordError(f"result says {excerpt(record.result)} but the moves give {result_text(state)!r}")
    return state


def positions(source: Source, *, reference: bool = False) -> list[GameState]:
    """Every position of a record, as independent states: ``positions(r)[0]`` is the
    start (or the set-up position), ``positions(r)[i]`` the state after the first i
    moves, the last one ``load(r)``. ``source`` as for ``load``; the whole record is
    checked first, so an error comes before any state."""
    state: Any = load(source, reference=reference)
    states = [state.copy()]
    while state.history:
        state.undo()
        states.append(state.copy())
    return states[::-1]


def new_game(record: Record, *, reference: bool = False) -> GameState:
    """The start state of a record's game and parameters (``territory.new_game``)."""
    if reference:
        from territory.reference import GAMES as games
    else:
        games = registry.GAMES
    lines: dict[str, int] = getattr(record, "param_lines", {})
    start = getattr(record, "start", None)
    try:
        state: GameState = registry.build(games, record.game, record.params)
    except (TypeError, ValueError) as error:
        message = str(error)
        for key, line in lines.items():
            if message.startswith(f"unknown {record.game} parameter {excerpt(key)}"):
                raise RecordError(message.split(";")[0], line) from None
        bad_line = next((n for key, n in lines.items() if message.startswith(key)), None)
        raise RecordError(f"bad parameter: {error}", bad_line) from None
    if start is not None:
        try:
            state = type(state).from_position(start[0], **record.params)  # type: ignore[attr-defined]
        except ValueError as error:
            raise RecordError(f"bad start position: {error}", start[1]) from None
    return state
