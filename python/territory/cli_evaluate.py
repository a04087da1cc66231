"""The design-evaluation commands of ``territory``: ``evaluate`` (Ludii's metrics),
``komi`` (Nume's fair komi) and ``openings`` (first moves and the pie rule).
``register(commands)`` adds them to the main parser's subcommands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from territory import cli
from territory.evaluate import DEFAULT_KOMI, evaluate, fair_komi, openings, parse_agent


def _common(parser: argparse.ArgumentParser, games_default: int, games_help: str, *, several_agents: bool = False) -> None:
    if several_agents:
        parser.add_argument("--agent", action="append", help="random | uct:N; repeat for several strengths (default random)")
    else:
        parser.add_argument("--agent", default="random", help="random | uct:N (UCT with N iterations per move); default random")
    parser.add_argument("--games", type=int, default=games_default, help=games_help)
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--threads", type=int, help="threads (default: every core)")
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    parser.add_argument("--plot", metavar="FILE", help="draw the result to FILE (.png or .svg; needs matplotlib)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar on stderr (default: when stderr is a terminal)")


def register(commands: Any) -> None:
    """Adds ``evaluate``, ``komi`` and ``openings`` to ``commands`` (argparse subparsers)."""
    p = commands.add_parser("evaluate", help="measure a game's design with Ludii's metrics (self-play games)")
    p.add_argument("game", choices=cli.GAME_CHOICES)
    _common(p, 1000, "number of self-play games (default 1000)")
    p.add_argument("--skill-trace", action="store_true", help="also compute SkillTrace (UCT k vs 2k; needs the search module)")
    cli._add_game_options(p)
    p.set_defaults(handler=cmd_evaluate)

    p = commands.add_parser("komi", help="Nume's fair komi: Black's win rate over a komi sweep and a logistic fit")
    _common(p, 2000, "games per komi value (default 2000)", several_agents=True)
    p.add_argument("--komi-min", type=float, default=DEFAULT_KOMI[0], help=f"lowest komi (default {DEFAULT_KOMI[0]}; negative: to White)")
    p.add_argument("--komi-max", type=float, default=DEFAULT_KOMI[-1], help=f"highest komi (default {DEFAULT_KOMI[-1]})")
    p.add_argument("--komi-step", type=int, default=1, help="step between komi values, a whole number (default 1)")
    group = p.add_argument_group("nume options")
    group.add_argument("--n", type=int, help="hex board parameter, 1..8 (default 4)")
    group.add_argument("--square", type=int, help="k x k square board instead of hex")
    p.set_defaults(handler=cmd_komi)

    p = commands.add_parser("openings", help="seat 0's win rate after each first move, playing on and after a pie swap")
    p.add_argument("game", choices=cli.GAME_CHOICES)
    _common(p, 200, "games per first move and branch (default 200)")
    p.add_argument("--moves", help="comma-separated first moves (default: all; for Migong an evenly spaced sample of 252)")
    p.add_argument("--top", type=int, default=20, help="print the best and worst TOP first moves (default 20; 0: all)")
    cli._add_game_options(p)
    p.set_defaults(handler=cmd_openings)


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> bool:
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads must be >= 1, got {args.threads}")
    if not 0 <= args.seed < 2**64:
        parser.error(f"--seed must be from 0 to 2**64 - 1, got {args.seed}")
    for path in (args.plot,):
        if path is not None and Path(path).suffix.lower() not in (".png", ".svg"):
            parser.error(f"--plot must end in .png or .svg, got {path!r}")
    return sys.stderr.isatty() if args.progress is None else bool(args.progress)


def _agent(parser: argparse.ArgumentParser, spec: str) -> Any:
    try:
        return parse_agent(spec)
    except ValueError as error:
        parser.error(str(error))


def _finish(result: Any, args: argparse.Namespace, text: str | None = None) -> int:
    print(result if text is None else text)
    if args.json:
        Path(args.json).write_text(result.to_json() + "\n")
        print(f"result written to {args.json}")
    if args.plot:
        try:
            result.plot(args.plot)
        except ImportError as error:
            print(f"territory: {error}", file=sys.stderr)
            return 1
        print(f"plot written to {args.plot}")
    return 0


def cmd_evaluate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    show = _check(parser, args)
    params = cli._game_params(parser, args, args.game)
    agent = _agent(parser, args.agent)
    try:
        result = evaluate(args.game, agent, args.games, args.seed, threads=args.threads, skill_trace=args.skill_trace,
                          progress=cli.Progress(args.game, show), **params)
    except RuntimeError as error:
        parser.error(str(error))
    return _finish(result, args)


def cmd_komi(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    show = _check(parser, args)
    agents = [_agent(parser, a) for a in (args.agent or ["random"])]
    if args.komi_step < 1:
        parser.error(f"--komi-step must be a whole number >= 1, got {args.komi_step}")
    values = []
    komi = args.komi_min
    while komi <= args.komi_max + 1e-9:
        values.append(komi)
        komi += args.komi_step
    params = {k: getattr(args, k) for k in ("n", "square") if getattr(args, k) is not None}
    try:
        result = fair_komi(agents, args.games, args.seed, komi_values=values, threads=args.threads,
                           progress=cli.Progress("nume", show), **params)
    except (ValueError, RuntimeError) as error:
        parser.error(str(error))
    return _finish(result, args)


def cmd_openings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    show = _check(parser, args)
    params = cli._game_params(parser, args, args.game)
    agent = _agent(parser, args.agent)
    moves = None if args.moves is None else [m.strip() for m in args.moves.split(",") if m.strip()]
    try:
        result = openings(args.game, agent, args.games, args.seed, threads=args.threads, moves=moves,
                          progress=cli.Progress(args.game, show), **params)
    except (ValueError, RuntimeError) as error:
        parser.error(str(error))
    text = None
    if args.top and len(result.moves) > 2 * args.top:
        lines = str(result).splitlines()
        head, rows = lines[:2], lines[2:]
        text = "\n".join(head + rows[: args.top] + [f"  ... {len(rows) - 2 * args.top} more ..."] + rows[-args.top:])
    return _finish(result, args, text)
