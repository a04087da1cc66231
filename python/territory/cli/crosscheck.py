"""The cross-check kit's commands, ``territory perft``, ``territory vectors`` and
``territory crosscheck`` (docs/crosscheck.md), registered by ``territory.cli`` with
``register(commands)``; they follow the conventions of :mod:`territory.cli`."""

from __future__ import annotations

import argparse
import io
import sys
import time
from typing import Any

from territory.cli import common as cli
from territory.cli.common import UsageError, add_command, integer
from territory.registry import new_game


def register(commands: Any) -> None:
    """Adds ``perft``, ``vectors`` and ``crosscheck`` to ``commands`` (argparse subparsers)."""
    parser = add_command(
        commands, "perft", "count the move sequences of each depth (perft)",
        "Counts the action sequences of each length 1..D from the start (or from --position):\n"
        "the leaves of the game tree at that depth, as chess engines count them (passes, the\n"
        "pie swap and Nume's komi-phase moves are moves; a game that ends sooner adds nothing).\n"
        "--divide also prints the count of depth D below each first move. The engine counts,\n"
        "on one core.",
        "  territory perft tabik --depth 3 --size 4\n"
        "  territory perft nume --depth 2 --divide --n 2\n"
        "  territory perft tabik --depth 2 --size 4 --position 'POSITION STRING'\n",
        run_perft,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    parser.add_argument("--depth", type=integer(0, 1000), required=True, help="the deepest depth to count")
    parser.add_argument("--divide", action="store_true", help="also the count of depth D below each first move")
    parser.add_argument("--position", metavar="STR", help="count from this position string (docs/positions.md)")
    add_progress_option(parser)
    cli.add_json_option(parser)
    cli.add_game_options(parser)

    parser = add_command(
        commands, "vectors", "write test vectors of the rules' edge cases",
        "Writes a JSON-lines file of positions that exercise the rules' edge cases (passes,\n"
        "pie swaps, ties broken by the last mover, border and corner moves, komi, the\n"
        "smallest boards, ...), each with its moves from the start, legal moves, scores,\n"
        "winner and key (format: docs/crosscheck.md). Without game options: the default\n"
        "parameters and each parameter's corner values (the files shipped in the package);\n"
        "with game options: those parameters only.",
        "  territory vectors tabik --out tabik.jsonl\n"
        "  territory vectors nume --n 2 --komi none --out -\n",
        run_vectors,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    parser.add_argument("--out", metavar="FILE", required=True,
                        help="the vectors file to write ('-': stdout; a name ending in .gz: gzip-compressed)")
    parser.add_argument("--seed", type=cli.SEED, default=0, help="seed of the random games searched (default 0)")
    add_progress_option(parser)
    cli.add_game_options(parser)

    parser = add_command(
        commands, "crosscheck", "compare another implementation of a game with this engine",
        "Runs COMMAND and talks to it over a line-based JSON protocol on its standard input\n"
        "and output (docs/crosscheck.md): replays the test vectors, then seeded random games\n"
        "(pie swaps taken half the time), comparing legal moves, scores and results after\n"
        "every move. At the first disagreement it shrinks the move sequence to the shortest\n"
        "that still disagrees, prints it with both answers and exits with code 1. An engine\n"
        "that cannot start, exits, stalls (--timeout per reply) or answers nonsense ends the\n"
        "run with code 2 and a message naming the request.",
        "  territory crosscheck tabik --engine 'python -m territory.crosscheck.adapter'\n"
        "  territory crosscheck nume --engine './my-nume --protocol' --games 200 --seed 7\n"
        "  territory crosscheck tabik --engine 'node tabik.js' --size 4 --json -\n",
        run_crosscheck,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    parser.add_argument("--engine", metavar="COMMAND", required=True, help="the command that runs the other implementation")
    parser.add_argument("--games", type=integer(0, 10**9), default=100, help="random games after the vectors (default 100)")
    parser.add_argument("--seed", type=cli.SEED, default=0, help="seed of the random games (default 0)")
    parser.add_argument("--timeout", type=_seconds, default=10.0, help="seconds to wait for each reply (default 10)")
    parser.add_argument(
        "--vectors", metavar="FILE",
        help="replay this vectors file (default: the shipped vectors, or new ones for the game options given)",
    )
    add_progress_option(parser)
    cli.add_json_option(parser)
    cli.add_game_options(parser)


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text) if len(text) <= 30 else None
    except ValueError:
        value = None
    if value is None or not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and at most 86400, got {text[:30]}")
    return value


def _show_progress(args: argparse.Namespace) -> bool:
    return sys.stderr.isatty() if args.progress is None else bool(args.progress)


# --- perft --------------------------------------------------------------------------------


def run_perft(args: argparse.Namespace) -> int:
    params = cli.game_params(args, args.game)
    cli.check_output(args.json, "--json")
    out = cli.human_stream(args.json)
    if args.position is not None:
        state = cli.position_state(args.game, args.position, params)
    else:
        state = new_game(args.game, **params)
    progress = cli.Progress("perft", _show_progress(args), unit="first moves")
    shown = ", ".join(f"{k}={v!r}" for k, v in state.params.items())
    print(f"{args.game} ({shown}), from {'the given position' if args.position else 'the start'}", file=out)
    counts: dict[int, int] = {}
    divide: dict[str, int] = {}
    began = time.perf_counter()
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        if depth == args.depth and (args.divide or depth >= 5):
            # The last depth, one first move at a time: a progress bar, and the division.
            moves = state.legal_moves()
            for done, move in enumerate(moves, start=1):
                child = state.copy()
                child.play(move)
                divide[move] = child.perft(depth - 1)
                progress(done, len(moves), time.perf_counter() - start)
            counts[depth] = sum(divide.values())
        else:
            counts[depth] = state.perft(depth)
        seconds = time.perf_counter() - start
        rate = f"  ({counts[depth] / seconds:,.0f} leaves/s)" if seconds > 0.01 else ""
        print(f"  perft {depth:>2}  {counts[depth]:>16,}  {seconds:8.2f} s{rate}", file=out, flush=True)
    if args.divide:
        print(f"\n  depth {args.depth} below each first move:", file=out)
        for move, count in divide.items():
            print(f"    {move:<16} {count:,}", file=out)
        print(f"    {'total':<16} {sum(divide.values()):,} ({len(divide)} moves)", file=out)
    if args.json:
        entry = {
            "command": "perft", "game": args.game, "params": state.params, "position": state.position(),
            "counts": {str(d): n for d, n in counts.items()}, "seconds": time.perf_counter() - began,
        }
        if args.divide:
            entry["divide"] = divide
        cli.write_output(args.json, cli.json_text([entry]), "--json")
    return 0


# --- vectors ------------------------------------------------------------------------------


def run_vectors(args: argparse.Namespace) -> int:
    from territory.crosscheck import vectors

    params = cli.game_params(args, args.game)
    cli.check_output(args.out, "--out")
    out = cli.human_stream(args.out)
    sets = [dict(new_game(args.game, **params).params)] if params else vectors.parameter_sets(args.game)
    made = vectors.make_vectors(args.game, sets, seed=args.seed, progress=cli.Progress(args.game, _show_progress(args)))
    text = io.StringIO()
    vectors.write(text, args.game, made)
    if args.out.endswith(".gz"):
        try:
            with open(args.out, "wb") as stream:
                stream.write(vectors.compressed(text.getvalue()))
        except OSError as error:
            raise UsageError(f"--out {args.out}: cannot write: {error.strerror or error}") from None
    else:
        cli.write_output(args.out, text.getvalue(), "--out")
    tags = sorted({t for v in made for t in v["tags"]})
    print(f"{len(made)} {args.game} vectors over {len(sets)} parameter sets"
          f"{'' if args.out == '-' else f' written to {args.out}'}; tags: {', '.join(tags)}", file=out)
    return 0


# --- crosscheck ---------------------------------------------------------------------------


def run_crosscheck(args: argparse.Namespace) -> int:
    from territory.crosscheck import driver, vectors
    from territory.crosscheck.protocol import Engine, EngineError

    params = cli.game_params(args, args.game)
    cli.check_output(args.json, "--json")
    out = cli.human_stream(args.json)
    if args.vectors:
        try:
            with open(args.vectors, encoding="utf-8") as stream:
                replayed = vectors.read(stream, args.game)[1]
        except OSError as error:
            raise UsageError(f"--vectors {args.vectors}: cannot read: {error.strerror or error}") from None
        except (ValueError, UnicodeDecodeError) as error:
            raise UsageError(f"--vectors {args.vectors}: {error}") from None
    elif params:
        replayed = vectors.make_vectors(args.game, [dict(new_game(args.game, **params).params)], games_per_set=10)
    else:
        replayed = vectors.shipped(args.game)
    sets = [dict(new_game(args.game, **params).params)] if params else vectors.parameter_sets(args.game)
    progress = cli.Progress(args.game, _show_progress(args), unit="sequences")
    try:
        with Engine(args.engine, timeout=args.timeout) as engine:
            report = driver.run(engine, args.game, replayed, sets, args.games, seed=args.seed, progress=progress)
    except (EngineError, driver.StaleVectorError) as error:
        raise UsageError(str(error)) from None
    print(format_report(report), file=out)
    if args.json:
        cli.write_output(args.json, cli.json_text([{"command": "crosscheck", "seed": args.seed, **report.to_json()}]), "--json")
    return 0 if report.disagreement is None else 1


def format_report(report: Any) -> str:
    head = (f"{report.game}: {report.vectors} vectors and {report.games} random games replayed, "
            f"{report.steps:,} steps compared ({report.requests:,} requests) in {report.seconds:.1f} s")
    if report.disagreement is None:
        return f"{head}: 0 disagreements"
    return "\n".join([
        f"{head}: a disagreement",
        f"first seen in {report.where} after {report.found_after} moves; the shortest sequence found "
        f"({report.replays} replay{'' if report.replays == 1 else 's'}) has {len(report.disagreement.moves)}:",
        report.disagreement.describe(),
    ])
