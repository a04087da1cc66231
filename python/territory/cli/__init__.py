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
import os
import sys
from typing import Any, Sequence

from territory import distributed, playouts, record
from territory._core import __version__
from territory.registry import GAMES
from territory_cli import interrupted
from territory.cli.common import (  # noqa: F401 (the helpers, also as territory.cli.X)
    ArgumentParser,
    GAME_CHOICES,
    GAME_CLASSES,
    HelpFormatter,
    JSON_FORMAT,
    Progress,
    SEED,
    UsageError,
    _fmt,
    _option_text,
    _param_value,
    add_command,
    add_game_options,
    add_json_option,
    add_run_options,
    check_output,
    format_summary,
    game_defaults,
    game_parameters,
    game_params,
    games_count,
    given_game_options,
    human_stream,
    integer,
    json_safe,
    json_text,
    picture_format,
    position_state,
    read_record,
    write_output,
)


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
    from territory.cli import evaluate as cli_evaluate  # evaluate, komi, openings

    cli_evaluate.register(commands)
    from territory.cli import search as cli_search  # match, solve

    cli_search.register(commands)
    from territory.cli import crosscheck as cli_crosscheck  # perft, vectors, crosscheck

    cli_crosscheck.register(commands)
    from territory.cli import serve as cli_serve  # serve

    cli_serve.register(commands)
    from territory.cli import train as cli_train  # train

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
