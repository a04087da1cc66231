"""The design-evaluation commands of ``territory``: ``evaluate`` (Ludii's metrics),
``komi`` (Nume's fair komi) and ``openings`` (first moves and the pie rule).
``register(commands)`` adds them to the main parser's subcommands; they follow the
conventions of :mod:`territory.cli`."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from territory import distributed
from territory.cli import common as cli
from territory.cli.common import UsageError, add_command, integer
from territory.agents import parse_agent
from territory.playouts import new_game
from territory.evaluate import (
    DEFAULT_KOMI, DEFAULT_OPENING_SAMPLE, MAX_DEFAULT_OPENINGS, evaluate, fair_komi, openings,
)
from territory.evaluate.plots import _pyplot

AGENT_HELP = ("random | uct[:N][:c=C] (UCT with N iterations per move, exploration C or c=tuned) | "
              "puct:MODEL[:N][:c=C,rollout=R,expand=K,noise=F,temp=T] (a trained model, a .npz file "
              "or a shipped name such as tabik-6, with N simulations per move, default 400; played with root "
              "noise, so that the games differ) | best[:N] (docs/search.md, \"Agent specs\")")


def _common(parser: argparse.ArgumentParser, games_default: int, games_help: str, *, several_agents: bool = False) -> None:
    if several_agents:
        parser.add_argument("--agent", action="append", help=AGENT_HELP + "; repeat for several strengths (default random)")
    else:
        parser.add_argument("--agent", default="random", help=AGENT_HELP + " (default random)")
    parser.add_argument("--games", type=cli.games_count(2**40), default=games_default, help=games_help)
    cli.add_run_options(parser)
    parser.add_argument("--json", metavar="FILE", help=f"also write the result as JSON to FILE ('-': stdout): a list of one object, format {cli.JSON_FORMAT}")
    parser.add_argument("--plot", metavar="FILE", help="draw the result to FILE (.png or .svg; needs territory-games[plot])")
    distributed.add_scheduler_option(parser)


def register(commands: Any) -> None:
    """Adds ``evaluate``, ``komi`` and ``openings`` to ``commands`` (argparse subparsers)."""
    parser = add_command(
        commands, "evaluate", "measure a game's design with Ludii's metrics (self-play games)",
        "Plays GAMES self-play games with the agent and computes Ludii's design metrics\n"
        "(docs/metrics.md), each with a 95% interval.",
        "  territory evaluate tabik --games 1000\n"
        "  territory evaluate nume --agent uct:200 --games 100 --json nume.json --plot nume.png\n",
        run_evaluate,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    _common(parser, 1000, "number of self-play games (default 1000)")
    parser.add_argument("--skill-trace", action="store_true", help="also compute SkillTrace (UCT k against 2k)")
    cli.add_game_options(parser)

    parser = add_command(
        commands, "komi", "Nume's fair komi: Black's win rate over a komi sweep and a logistic fit",
        "Plays GAMES games at each komi value (positive: to Black, negative: to White), fits\n"
        "Black's win rate as a logistic function of komi and prints where it crosses 0.5.",
        "  territory komi --games 2000\n"
        "  territory komi --agent random --agent uct:200 --games 200 --plot komi.png\n",
        run_komi,
    )
    _common(parser, 2000, "games per komi value (default 2000)", several_agents=True)
    parser.add_argument("--komi-min", type=float, default=DEFAULT_KOMI[0], help=f"lowest komi (default {DEFAULT_KOMI[0]}; negative: to White)")
    parser.add_argument("--komi-max", type=float, default=DEFAULT_KOMI[-1], help=f"highest komi (default {DEFAULT_KOMI[-1]})")
    parser.add_argument("--komi-step", type=integer(1), default=1, help="step between komi values, a whole number (default 1)")
    cli.add_game_options(parser, game="nume", names=("n", "square"))

    parser = add_command(
        commands, "openings", "seat 0's win rate after each first move, playing on and after a pie swap",
        "For each first move, plays GAMES games where seat 1 plays on and GAMES where it\n"
        "swaps (pie rule), and prints seat 0's win rate in each case.",
        "  territory openings tabik --size 6 --games 200\n"
        "  territory openings migong --moves g2:BBBBBB,h7:BYBYBY --plot openings.png\n",
        run_openings,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    _common(parser, 200, "games per first move and branch (default 200)")
    parser.add_argument(
        "--moves",
        help=f"comma-separated first moves (default: all of them, or an evenly spaced sample of {DEFAULT_OPENING_SAMPLE} "
        f"when there are more than {MAX_DEFAULT_OPENINGS:,}: Migong, and Nume's larger boards, the default n=4 with "
        "3,660 first moves among them)",
    )
    parser.add_argument("--top", type=integer(0), default=20, help="print the best and worst TOP first moves (default 20; 0: all)")
    cli.add_game_options(parser)


def _prepare(args: argparse.Namespace) -> bool:
    """Checks the outputs before any work; whether to show a progress bar."""
    cli.check_output(args.json, "--json")
    if args.plot is not None:
        if not args.plot.lower().endswith((".png", ".svg")):
            raise UsageError(f"--plot must end in .png or .svg, got {args.plot!r}")
        cli.check_output(args.plot, "--plot")
        try:  # found out now, not after the games
            _pyplot()
        except ImportError as error:
            raise UsageError(f"--plot {args.plot}: {error}") from None
    return sys.stderr.isatty() if args.progress is None else bool(args.progress)


def _agent(spec: str, game: str, params: dict[str, Any]) -> Any:
    try:
        return parse_agent(spec, start=new_game(game, **params))
    except ValueError as error:
        raise UsageError(f"--agent: {error}") from None


def _scale_out(args: argparse.Namespace) -> Any:
    """The executor context of ``--scheduler`` (checked now: errors exit with status 2)."""
    try:
        return distributed.executor_for(args.scheduler)
    except (ImportError, ValueError) as error:
        raise UsageError(str(error)) from None


def _finish(result: Any, args: argparse.Namespace, text: str | None = None) -> int:
    out = cli.human_stream(args.json)
    print(result if text is None else text, file=out)
    if args.json:
        cli.write_output(args.json, cli.json_text([result.to_dict()]), "--json")
        if args.json != "-":
            print(f"result written to {args.json}", file=out)
    if args.plot:
        try:
            result.plot(args.plot)
        except ImportError as error:
            raise UsageError(str(error)) from None
        print(f"plot written to {args.plot}", file=out)
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    show = _prepare(args)
    params = cli.game_params(args, args.game)
    agent = _agent(args.agent, args.game, params)
    try:
        with _scale_out(args) as executor:
            result = evaluate(args.game, agent, args.games, args.seed, executor=executor, threads=args.threads,
                              skill_trace=args.skill_trace, progress=cli.Progress(args.game, show), **params)
    except (ValueError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    return _finish(result, args)


def run_komi(args: argparse.Namespace) -> int:
    show = _prepare(args)
    for option, value in (("--komi-min", args.komi_min), ("--komi-max", args.komi_max)):
        if not (math.isfinite(value) and (value - 0.5).is_integer()):
            raise UsageError(f"{option} must be a number k + 0.5 (k a whole number), like -20.5 or 3.5, got {value}")
    values = []
    komi = args.komi_min
    while komi <= args.komi_max + 1e-9:
        values.append(komi)
        komi += args.komi_step
    if len(values) < 2:
        raise UsageError(
            f"--komi-min {args.komi_min}, --komi-max {args.komi_max} and --komi-step {args.komi_step} give "
            f"{len(values)} komi value{'' if len(values) == 1 else 's'}: the fit needs at least two"
        )
    params = cli.game_params(args, "nume")
    agents = [_agent(a, "nume", params) for a in (args.agent or ["random"])]
    try:
        with _scale_out(args) as executor:
            result = fair_komi(agents, args.games, args.seed, executor=executor, komi_values=values, threads=args.threads,
                               progress=cli.Progress("nume", show), **params)
    except (ValueError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    return _finish(result, args)


def run_openings(args: argparse.Namespace) -> int:
    show = _prepare(args)
    params = cli.game_params(args, args.game)
    agent = _agent(args.agent, args.game, params)
    moves = None if args.moves is None else [m.strip() for m in args.moves.split(",") if m.strip()]
    try:
        with _scale_out(args) as executor:
            result = openings(args.game, agent, args.games, args.seed, executor=executor, threads=args.threads, moves=moves,
                              progress=cli.Progress(args.game, show), **params)
    except (ValueError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    text = None
    if args.top and len(result.moves) > 2 * args.top:
        lines = str(result).splitlines()
        head, rows = lines[:2], lines[2:]
        text = "\n".join(head + rows[: args.top] + [f"  ... {len(rows) - 2 * args.top} more ..."] + rows[-args.top:])
    return _finish(result, args, text)
