"""The ``territory match`` and ``territory solve`` commands (registered by ``cli.py``).

``add_parsers(commands, add_game_options)`` adds both subcommands; ``COMMANDS`` maps
their names to ``cmd(parser, args) -> exit code``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Callable

from territory import agents as agents_module
from territory.errors import RecordError

GAME_CHOICES = ("migong", "nume", "tabik")
VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


def add_parsers(commands: Any, add_game_options: Callable[[argparse.ArgumentParser], None]) -> None:
    match = commands.add_parser("match", help="play games between two agents and compare them")
    match.add_argument("game", choices=GAME_CHOICES)
    match.add_argument("--agents", nargs=2, required=True, metavar=("AGENT0", "AGENT1"),
                       help="two agents: 'random', 'uct' or 'uct:N' (N iterations per move)")
    match.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    match.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    match.add_argument("--threads", type=int, help="threads (default: every core)")
    match.add_argument("--no-swap-seats", dest="swap_seats", action="store_false",
                       help="agent 0 always takes seat 0 (default: seats alternate)")
    match.add_argument("--json", metavar="FILE", help="also write the summary as JSON")
    match.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="progress bar on stderr (default: when stderr is a terminal)")
    add_game_options(match)

    solve = commands.add_parser("solve", help="solve a small position exactly (value and best moves)")
    solve.add_argument("game", choices=GAME_CHOICES)
    solve.add_argument("--record", metavar="FILE", help="solve the position at the end of this game record")
    solve.add_argument("--max-nodes", type=int, help="give up after this many positions (default: no limit)")
    add_game_options(solve)


def _fmt_elo(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def format_match(summary: dict[str, Any]) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in summary["params"].items())
    w = summary["agent_wins"]
    lines = [
        f"{summary['game']} ({params}), seed {summary['seed']}: {summary['games']:,} games "
        f"in {summary['seconds']:.2f} s",
    ]
    width = max(len(name) for name in summary["agents"])
    for k in range(2):
        low, high = summary[f"agent{k}_win_rate_ci95"]
        lines.append(
            f"  agent {k}  {summary['agents'][k]:<{width}}   wins {w[k]:>6,}   win rate "
            f"{summary[f'agent{k}_win_rate']:.4f}  (95% CI {low:.4f} .. {high:.4f})"
        )
    low, high = summary["elo_ci95"]
    lines += [
        f"  draws     {w[2]:,}",
        f"  Elo difference (agent 0 - agent 1): {_fmt_elo(summary['elo_difference'])}"
        f"  (95% CI {_fmt_elo(low)} .. {_fmt_elo(high)})",
        f"  by seat   seat 0 wins {summary['seat0_wins']:,}   seat 1 wins {summary['seat1_wins']:,}"
        f"   mean length {summary['length']['mean']:.1f}",
    ]
    return "\n".join(lines)


def cmd_match(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from territory.cli import Progress, _game_params

    if args.games < 0:
        parser.error(f"--games must be >= 0, got {args.games}")
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads must be >= 1, got {args.threads}")
    if not 0 <= args.seed < 2**64:
        parser.error(f"--seed must be from 0 to 2**64 - 1, got {args.seed}")
    try:
        pair = [agents_module.parse_agent(spec) for spec in args.agents]
    except ValueError as error:
        parser.error(str(error))
    params = _game_params(parser, args, args.game)
    show_progress = sys.stderr.isatty() if args.progress is None else args.progress
    result = agents_module.play_match(
        args.game, pair, args.games, seed=args.seed, threads=args.threads, swap_seats=args.swap_seats,
        progress=Progress(args.game, show_progress), **params,
    )
    summary = result.summary()
    print(format_match(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2, default=float) + "\n")
        print(f"summary written to {args.json}")
    return 0


def cmd_solve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from territory import record
    from territory.cli import _game_params
    from territory.playouts import new_game

    params = _game_params(parser, args, args.game)
    if args.max_nodes is not None and args.max_nodes < 1:
        parser.error(f"--max-nodes must be >= 1, got {args.max_nodes}")
    if args.record:
        if params:
            parser.error("game options come from the record: give either --record or game options")
        try:
            state = record.load(Path(args.record).read_text())
        except OSError as error:
            parser.error(f"cannot read {args.record}: {error.strerror}")
        except RecordError as error:
            print(f"territory solve: {args.record}: {error}", file=sys.stderr)
            return 1
        if state.game != args.game:
            parser.error(f"{args.record} is a {state.game} record, not {args.game}")
    else:
        state = new_game(args.game, **params)
    if state.is_over:
        print("the game is over: nothing to solve", file=sys.stderr)
        return 1
    began = time.perf_counter()
    try:
        solution = agents_module.solve(state, max_nodes=args.max_nodes)
    except agents_module.NodeLimitError as error:
        print(f"territory solve: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - began
    shown = ", ".join(f"{k}={v!r}" for k, v in state.params.items())
    after = f"after {len(state.history)} actions" if state.history else "at the start"
    seat = state.to_move
    print(f"{args.game} ({shown}), {after}: seat {seat} ({state.color_of(seat)}) to move")
    print(f"  value       {solution.value:+d} ({VALUE_WORDS[solution.value]} for seat {seat} with perfect play)")
    print(f"  best moves  {' '.join(solution.best_moves)}  ({len(solution.best_moves)} of {len(solution.move_values)})")
    print(f"  positions   {solution.nodes:,} in {seconds:.2f} s")
    for value in (1, 0, -1):
        moves = [m for m, v in solution.move_values.items() if v == value]
        if moves:
            print(f"  {VALUE_WORDS[value]:<6}({len(moves):>4})  {' '.join(moves)}")
    return 0


COMMANDS = {"match": cmd_match, "solve": cmd_solve}
