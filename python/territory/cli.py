"""The ``territory`` command: ``simulate`` random games in bulk, ``replay`` one of them,
``show`` a game record. Run ``territory --help`` or ``territory COMMAND --help``.

Conventions every subcommand follows (and the helpers below give a new one for free):

- Bad arguments, unreadable inputs and unwritable outputs exit with code 2 and one line
  naming the problem, never a traceback; output paths are checked before any work starts.
- An output path ``-`` means standard output; the human-readable text then goes to
  standard error, so that standard output holds only the requested output.
- ``--json`` always writes a JSON list with one summary object per game, each with
  ``"format": JSON_FORMAT`` (bumped when a key changes meaning or disappears). Values
  that do not exist (e.g. any mean of a run of 0 games) are ``null``, never NaN.
- A closed pipe (``territory show game.txt | head -5``) ends the command quietly.

Adding a subcommand: write ``add_NAME(commands)``, which calls ``add_command`` with a
description, an example and the function that runs it (``run(args) -> int``; raise
``UsageError`` for a bad argument), and call it from ``build_parser``. The shared option
groups are ``add_game_options``, ``add_run_options`` and ``add_json_option``.
"""

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

from territory import __version__, distributed, playouts, record
from territory import svg as svg_module
from territory._core import MAX_THREADS
from territory.registry import GAMES
from territory.errors import RecordError
from territory_cli import interrupted

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


def run_simulate(args: argparse.Namespace) -> int:
    games = GAME_CHOICES if args.game == "all" else (args.game,)
    if args.game == "all" and given_game_options(args):
        raise UsageError(f"game options ({', '.join(given_game_options(args))}) need a single game, not 'all'")
    params = {game: game_params(args, game) for game in games}
    check_output(args.json, "--json")
    out = human_stream(args.json)
    show_progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        scale_out = distributed.executor_for(args.scheduler)
    except (ImportError, ValueError) as error:
        raise UsageError(str(error)) from None
    summaries = []
    with scale_out as executor:
        for game in games:
            result = playouts.random_playouts(
                game, args.games, seed=args.seed, threads=args.threads, keep_games=False,
                progress=Progress(game, show_progress), executor=executor, **params[game],
            )
            summary = result.summary()
            summaries.append(summary)
            print(format_summary(summary) + "\n", file=out, flush=True)
    if args.json:
        write_output(args.json, json_text(summaries), "--json")
        if args.json != "-":
            print(f"summary written to {args.json}", file=out)
    return 0


def add_simulate(commands: Any) -> None:
    parser = add_command(
        commands, "simulate", "play uniform random games in bulk and summarise them",
        "Plays GAMES uniform random games in Rust on every core and prints seat 0's win rate\n"
        "(95% interval), wins, draws, pie swaps, passes and the distributions of game length\n"
        "and scores. The same --seed gives the same games on any number of threads.",
        "  territory simulate all\n"
        "  territory simulate tabik --games 10000 --size 6 --seed 3\n"
        "  territory simulate nume --games 1000000 --komi 2.5 --komi-to white --json nume.json\n"
        "  territory simulate migong --games 1000 --json - | python -m json.tool\n",
        run_simulate,
    )
    parser.add_argument("game", choices=GAME_CHOICES + ("all",), help="the game, or 'all' for each game in turn")
    parser.add_argument("--games", type=games_count(2**64 - 1), default=100_000, help="number of games, at least 1 (default 100000)")
    add_run_options(parser)
    add_json_option(parser, "one summary per game simulated (each game with 'all')")
    distributed.add_scheduler_option(parser)
    add_game_options(parser)


# --- replay -------------------------------------------------------------------------------


def run_replay(args: argparse.Namespace) -> int:
    params = game_params(args, args.game)
    check_output(args.record, "--record")
    out = human_stream(args.record)
    state = playouts.replay_playout(args.game, args.seed, args.index, **params)
    moves = state.history
    print(f"{args.game} game {args.index} of seed {args.seed}: {len(moves)} moves", file=out)
    for start in range(0, len(moves), 8):
        print("  " + "  ".join(f"{i + 1}. {m}" for i, m in enumerate(moves[start : start + 8], start=start)), file=out)
    print(file=out)
    print(state, file=out)
    if args.record:
        write_output(args.record, state.to_record(comment=f"game {args.index} of seed {args.seed}"), "--record")
        if args.record != "-":
            print(f"record written to {args.record}", file=out)
    return 0


def add_replay(commands: Any) -> None:
    parser = add_command(
        commands, "replay", "replay one game of a simulate run",
        "Replays game INDEX of the run `territory simulate GAME --seed SEED` (with the same\n"
        "game options) and prints its moves and final position; --record saves it as a game\n"
        "record (docs/records.md) that `territory show` and territory.load() read.",
        "  territory replay migong --index 17\n"
        "  territory replay tabik --seed 3 --index 0 --size 6 --record game.txt\n",
        run_replay,
    )
    parser.add_argument("game", choices=GAME_CHOICES, help="the game of the run")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the run, as given to simulate (default 0)")
    parser.add_argument("--index", type=integer(0, 2**64 - 1), required=True, help="the game's index in the run, from 0")
    parser.add_argument("--record", metavar="FILE", help="also write the game record to FILE ('-': stdout)")
    add_game_options(parser)


# --- show ---------------------------------------------------------------------------------


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


def run_show(args: argparse.Namespace) -> int:
    check_output(args.svg, "--svg")
    kind = picture_format(args.svg, "--svg")
    state = read_record(args.record_file)
    if args.moves is not None:
        if args.moves > len(state.history):
            raise UsageError(f"--moves must be from 0 to {len(state.history)} (the record's moves), got {args.moves}")
        while len(state.history) > args.moves:
            state.undo()
    if args.svg:
        write_output(args.svg, state.png() if kind == "png" else state.svg(), "--svg")
        if args.svg != "-":
            print(f"picture of the position after {len(state.history)} moves written to {args.svg}")
    else:
        print(state)
    return 0


def add_show(commands: Any) -> None:
    parser = add_command(
        commands, "show", "print or draw the position of a game record",
        "Reads a game record (docs/records.md), checks every move, and prints the final\n"
        "position as a text diagram, or the position after the first K moves.",
        "  territory show game.txt\n"
        "  territory show game.txt --moves 10\n"
        "  territory show game.txt --moves 10 --svg position.svg\n"
        "  territory show game.txt --svg position.png        # PNG: pip install \"territory-games[png]\"\n"
        "  territory replay tabik --index 3 --record - | territory show -\n",
        run_show,
    )
    parser.add_argument(
        "record_file", metavar="RECORD", help="a game record file, as written by replay --record or to_record() ('-': stdin)"
    )
    parser.add_argument(
        "--svg", metavar="FILE",
        help="write a picture to FILE instead of printing: SVG for FILE.svg or '-' (stdout), PNG for FILE.png",
    )
    parser.add_argument(
        "--moves", metavar="K", type=integer(0), default=None,
        help="show the position after the first K moves of the record (passes and swaps count; default: all)",
    )
    parser.add_argument("--move", dest="moves", type=integer(0), help=argparse.SUPPRESS)  # the old name


# --- the command --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="territory", formatter_class=HelpFormatter,
        description="Fast, exact rules engine for the territory games Migong, Nume and Tabik.",
        epilog="Run `territory COMMAND --help` for a command's options and examples.\n"
        "Bad arguments exit with code 2 and a message naming the problem.",
    )
    parser.add_argument("--version", action="version", version=f"territory {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_simulate(commands)
    add_replay(commands)
    add_show(commands)
    from territory import cli_evaluate  # evaluate, komi, openings

    cli_evaluate.register(commands)
    from territory import cli_search  # match, solve

    cli_search.register(commands)
    from territory import cli_crosscheck  # perft, vectors, crosscheck

    cli_crosscheck.register(commands)
    from territory import cli_serve  # serve

    cli_serve.register(commands)
    from territory import cli_train  # train

    cli_train.register(commands)
    return parser


def warn_about_threads(threads: int | None) -> None:
    """One line on stderr when ``--threads`` asks for more threads than there are cores
    (they share the cores and the run slows down: 1024 threads ran 36x slower than 2)."""
    cores = playouts.cpu_count()
    if threads is not None and threads > cores:
        print(f"territory: warning: --threads {threads} is more than the {cores} cores here; "
              "runs are slower than with one thread per core", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the subcommand that was given them, not by `territory`
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    warn_about_threads(getattr(args, "threads", None))
    try:
        code = args.run(args)
        sys.stdout.flush()
        return code
    except (UsageError, ValueError) as error:
        # The library's ValueErrors are its messages about bad input (a model for
        # another game, a run too large for memory): one line too.
        print(f"{args.parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        if Progress.line_open:
            sys.stderr.write("\n")
        return interrupted()
    except BrokenPipeError:
        # The reader went away (`territory ... | head`): stop quietly. Point stdout at
        # /dev/null so that the interpreter's last flush does not complain either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # like a process ended by SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
