"""What every subcommand of the ``territory`` command shares (the conventions of
``territory.cli``): option groups, parameter parsing, checked outputs, JSON, progress.
The commands (``territory.cli`` and its submodules) import this module, never the
other way round."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence, TextIO

from territory import record
from territory import svg as svg_module
from territory._core import MAX_THREADS
from territory.registry import GAMES
from territory.errors import RecordError

#: Version of the JSON written by ``--json``: the ``"format"`` key of every entry.
JSON_FORMAT = 1

#: The games the command line knows: the engine's registry.
GAME_CLASSES: dict[str, Any] = dict(GAMES)
GAME_CHOICES = tuple(GAME_CLASSES)


def game_parameters() -> dict[str, list[dict[str, Any]]]:
    """Each game's parameters as the engine describes them (``Class.parameters()``: name,
    kind, default, what is allowed, help): the one place the command line learns them."""
    return {game: cls.parameters() for game, cls in GAME_CLASSES.items()}


def game_defaults() -> dict[str, dict[str, Any]]:
    """Each game's parameters with their defaults."""
    return {game: {p["name"]: p["default"] for p in params} for game, params in game_parameters().items()}


class UsageError(Exception):
    """A bad argument or an unusable file: exit 2 with this one-line message."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples' line breaks."""


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line, ``territory CMD: error: ...``, exit
    2, without the usage block (``--help`` shows it). Subcommands inherit it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


# --- shared options -----------------------------------------------------------------------


def integer(low: int, high: int | None = None, what: str = "") -> Callable[[str], int]:
    """An argparse type: an int from ``low`` to ``high`` (inclusive), with a clear message."""
    limit = f"from {low} to {high}" if high is not None else f">= {low}"

    def parse(text: str) -> int:
        shown = text if len(text) <= 30 else f"{text[:20]}... ({len(text)} characters)"
        try:
            value = int(text) if len(text) <= 30 else None
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be an integer {limit}{what}, got {shown}")
        return value

    parse.__name__ = "integer"
    return parse


SEED = integer(0, 2**64 - 1, " (2**64 - 1)")


def games_count(most: int) -> Callable[[str], int]:
    """The ``--games`` of every command: at least 1 (a run of no games has nothing to
    report), at most ``most``."""
    return integer(1, most)


def add_command(
    commands: Any, name: str, summary: str, description: str, examples: str, run: Callable[[argparse.Namespace], int]
) -> argparse.ArgumentParser:
    """A subcommand with its one-line summary, a description and examples for ``--help``."""
    parser = commands.add_parser(
        name, help=summary, description=description, epilog="examples:\n" + examples, formatter_class=HelpFormatter
    )
    parser.set_defaults(run=run, parser=parser)
    # A value such as "-5G" or "-1e3" is a (bad) value, to be refused by its option's
    # check, not an unknown option: no option starts with a digit.
    parser._negative_number_matcher = re.compile(r"^-\.?\d")
    return parser


def position_state(game: str, text: str, params: dict[str, Any]) -> Any:
    """The state of the position string ``text`` (docs/positions.md) of ``game`` with
    ``params``; a bad one is a UsageError naming --position."""
    try:
        return GAME_CLASSES[game].from_position(text, **params)
    except ValueError as error:
        raise UsageError(f"--position: {error}") from None


def add_game_options(
    parser: argparse.ArgumentParser, *, game: str | None = None, names: Sequence[str] | None = None
) -> None:
    """One option per game parameter (``--komi-to`` for ``komi_to``), built from the
    engine's description of each game's parameters (meaning, what is allowed, default);
    only ``game``'s and only the parameters in ``names`` when given."""
    takers: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for each, params in game_parameters().items():
        for param in params:
            if (game is None or each == game) and (names is None or param["name"] in names):
                takers.setdefault(param["name"], []).append((each, param))
    group = parser.add_argument_group("game options (each applies to the games named; defaults: the game's own)")
    for name, games in takers.items():
        flag = "--" + name.replace("_", "-")
        flag_only = all(param["kind"] == "bool" for _, param in games)
        meanings = dict.fromkeys(
            param["help"] if flag_only else f"{param['help']}; {param['allowed']}" for _, param in games
        )
        games_text = ", ".join(f"{taker}: default {_option_text(param['default'])}" for taker, param in games)
        help_text = f"{'; '.join(meanings)} ({games_text})".replace("%", "%%")
        if flag_only:
            group.add_argument(flag, dest=f"param_{name}", action=argparse.BooleanOptionalAction, default=None, help=help_text)
        else:
            group.add_argument(flag, dest=f"param_{name}", metavar="VALUE", type=_param_value, default=None, help=help_text)


def add_run_options(parser: argparse.ArgumentParser, *, progress: bool = True) -> None:
    """``--seed``, ``--threads`` and (optionally) ``--progress``."""
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the run, 0 .. 2**64 - 1 (default 0)")
    parser.add_argument(
        "--threads", type=integer(1, MAX_THREADS), default=None, help=f"threads, 1..{MAX_THREADS} (default: every core)"
    )
    if progress:
        parser.add_argument(
            "--progress", action=argparse.BooleanOptionalAction, default=None,
            help="a progress bar on stderr (default: when stderr is a terminal)",
        )


def add_json_option(parser: argparse.ArgumentParser, entries: str = "one object, the summary") -> None:
    parser.add_argument(
        "--json", metavar="FILE",
        help=f"also write the result as JSON to FILE ('-': stdout): a list of {entries}, format {JSON_FORMAT}",
    )


def game_params(args: argparse.Namespace, game: str) -> dict[str, Any]:
    """The game options given on the command line for ``game``, checked one by one (so
    that a bad value names its option) and together."""
    cls = GAME_CLASSES[game]
    accepted = game_defaults()[game]
    params: dict[str, Any] = {}
    for key, value in vars(args).items():
        if not key.startswith("param_") or value is None:
            continue
        name = key[len("param_"):]
        flag = "--" + name.replace("_", "-")
        if name not in accepted:
            raise UsageError(f"option {flag} does not apply to {game}")
        value = None if value == "none" else value
        try:
            cls(**{name: value})
        except (TypeError, ValueError) as error:
            raise UsageError(f"{flag}: {error}") from None
        params[name] = value
    try:
        cls(**params)
    except (TypeError, ValueError) as error:
        raise UsageError(f"bad {game} options: {error}") from None
    return params


def given_game_options(args: argparse.Namespace) -> list[str]:
    return ["--" + key[len("param_"):].replace("_", "-") for key, value in vars(args).items() if key.startswith("param_") and value is not None]


def _param_value(text: str) -> Any:
    if text.lower() == "none":  # `none` as in records, `None` as the help shows defaults
        return "none"  # (None itself means "not given")
    return record.parse_value(text) if len(text) <= 30 else text


def _option_text(value: Any) -> str:
    return record.format_value(value)


# --- output files -------------------------------------------------------------------------


def check_output(path: str | None, option: str) -> None:
    """Fails now, before any work, if ``path`` cannot be written (``-`` is stdout)."""
    if path is None or path == "-":
        return
    target = Path(path)
    parent = target.parent
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a directory")
    if not parent.is_dir():
        raise UsageError(f"{option} {path}: directory {str(parent)!r} does not exist")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise UsageError(f"{option} {path}: not writable")
        return
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as error:
        raise UsageError(f"{option} {path}: cannot write in {str(parent)!r}: {error.strerror or error}") from None


def write_output(path: str, text: str | bytes, option: str) -> None:
    """Writes text (UTF-8) or bytes to ``path`` (``-``: stdout)."""
    if path == "-":
        if isinstance(text, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(text)
        else:
            sys.stdout.write(text)
        return
    try:
        if isinstance(text, bytes):
            Path(path).write_bytes(text)
        else:
            Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{option} {path}: cannot write: {error.strerror or error}") from None


def human_stream(*outputs: str | None) -> TextIO:
    """Where the human-readable text goes: stderr when an output goes to stdout."""
    return sys.stderr if "-" in outputs else sys.stdout


def json_safe(value: Any) -> Any:
    """``value`` with tuples as lists, NaN (a value that does not exist) as None and the
    infinities as the strings ``"inf"`` and ``"-inf"`` (docs/command-line.md)."""
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if hasattr(value, "item"):  # a numpy scalar
        return json_safe(value.item())
    return value


def json_text(entries: list[dict[str, Any]]) -> str:
    """The ``--json`` document: a list of entries, each with the format version first."""
    payload = [{"format": JSON_FORMAT, **json_safe(entry)} for entry in entries]
    return json.dumps(payload, indent=2, allow_nan=False) + "\n"


# --- simulate -----------------------------------------------------------------------------


class Progress:
    """A one-line progress bar with games per second, on stderr."""

    #: Whether a bar is on the last line of stderr, unfinished (to end before a message).
    line_open = False

    def __init__(self, label: str, enabled: bool, unit: str = "games") -> None:
        self.label, self.enabled, self.unit, self.last = label, enabled, unit, 0.0

    def __call__(self, done: int, total: int, seconds: float) -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        rate = done / seconds if seconds > 0 else 0.0
        sys.stderr.write(f"\r{self.label:>7} [{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} {self.unit}, {rate:,.0f} {self.unit}/s")
        Progress.line_open = done < total
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _fmt(value: float, digits: int = 2) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "-"
    return f"{value:,.{digits}f}"


def format_summary(summary: dict[str, Any]) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in summary["params"].items())
    low, high = summary["seat0_win_rate_ci95"]
    length = summary["length"]
    lines = [
        f"{summary['game']} ({params}), seed {summary['seed']}: {summary['games']:,} random games "
        f"in {_fmt(summary['seconds'])} s ({_fmt(summary['games_per_second'], 0)} games/s)",
        f"  seat 0 win rate   {_fmt(summary['seat0_win_rate'], 4)}  (95% CI {_fmt(low, 4)} .. {_fmt(high, 4)})",
        f"  wins              seat 0: {summary['seat0_wins']:,}   seat 1: {summary['seat1_wins']:,}   draws: {summary['draws']:,}",
        f"  pie swap taken    {_fmt(summary['swap_rate'] * 100, 1)} %      passes per game {_fmt(summary['passes_mean'])}",
        "",
        f"  {'':<12}{'mean':>9}{'std':>8}{'min':>7}{'q5':>7}{'q25':>7}{'q50':>7}{'q75':>7}{'q95':>7}{'max':>7}",
    ]
    rows = [("length", length)] + [(f"score {seat[-1]}", stats) for seat, stats in summary["scores"].items()]
    for name, stats in rows:
        cells = [_fmt(stats["mean"]), _fmt(stats["std"])] + [
            _fmt(stats.get(key, math.nan), 1) for key in ("min", "q5", "q25", "q50", "q75", "q95", "max")
        ]
        lines.append(f"  {name:<12}{cells[0]:>9}{cells[1]:>8}" + "".join(f"{c:>7}" for c in cells[2:]))
    return "\n".join(lines)

def read_record(path: str) -> Any:
    """The state a record file describes (``-``: standard input); a UsageError naming the
    file and the problem."""
    source = sys.stdin.buffer if path == "-" else Path(path)
    try:
        return record.load(source)
    except RecordError as error:
        raise UsageError(f"{'standard input' if path == '-' else path}: {error}") from None


def picture_format(path: str | None, option: str) -> str | None:
    """``"svg"`` or ``"png"`` from a picture path's ending (``-``: SVG on stdout); a
    UsageError for any other ending, and for PNG without its optional rasteriser."""
    if path is None:
        return None
    kind = "svg" if path == "-" else Path(path).suffix.lower().lstrip(".")
    if kind not in ("svg", "png"):
        raise UsageError(f"{option} {path}: the file name must end in .svg or .png (or be '-' for SVG on stdout)")
    if kind == "png":
        try:  # found out now, not after reading the record
            svg_module.rasteriser()
        except ImportError as error:
            raise UsageError(f"{option} {path}: {error}") from None
    return kind
