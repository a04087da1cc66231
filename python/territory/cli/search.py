"""The ``territory match`` and ``territory solve`` commands, registered by ``territory.cli``
with ``register(commands)``; they follow the conventions of :mod:`territory.cli`."""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from territory import agents as agents_module
from territory import distributed
from territory.cli import common as cli
from territory.cli.common import UsageError, add_command, integer

VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


def register(commands: Any) -> None:
    """Adds ``match`` and ``solve`` to ``commands`` (argparse subparsers)."""
    parser = add_command(
        commands, "match", "play games between two agents and compare them",
        "Plays GAMES games between two agents (seats alternate unless --no-swap-seats) and\n"
        "prints each agent's win rate with a 95% interval and their Elo difference. Game i\n"
        "is seeded by (seed, i): the same seed gives the same games on any number of threads.",
        "  territory match tabik --agents uct:2000 random --games 40 --size 6\n"
        "  territory match nume --agents uct:500 uct:1000 --games 100 --json match.json\n"
        "  territory match tabik --agents uct:200 random --games 1000 --scheduler local:2\n"
        "  territory match tabik --size 6 --agents best uct:2000:c=0.7 --games 100\n",
        run_match,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    parser.add_argument("--agents", nargs=2, required=True, metavar=("AGENT0", "AGENT1"),
                        help="two agents: 'random', 'uct[:N][:c=C]' (UCT with N iterations per move, default "
                        "1000, exploration C, default 1.4, or c=tuned: the tuned value for the board), "
                        "'puct:MODEL[:N][:c=C,rollout=R,expand=K,noise=F,temp=T]' (a trained model, a .npz file or a "
                        "shipped name such as tabik-6, with N simulations per move, default 400), or 'best[:N]' "
                        "(the board's shipped model if there is one, else UCT with the tuned c) (docs/search.md)")
    parser.add_argument("--games", type=cli.games_count(2**40), default=100, help="number of games, at least 1 (default 100)")
    parser.add_argument("--no-swap-seats", dest="swap_seats", action="store_false",
                        help="agent 0 always takes seat 0 (default: seats alternate)")
    cli.add_run_options(parser)
    cli.add_json_option(parser)
    distributed.add_scheduler_option(parser)
    cli.add_game_options(parser)

    parser = add_command(
        commands, "solve", "solve a small position exactly (value and best moves)",
        "Solves the start position (or a position string, or the position at the end of a game\n"
        "record) by negamax with alpha-beta and a transposition table, and prints its value for\n"
        "the player to move with perfect play, the best moves and every move's value, moves\n"
        "separated by commas (a Nume komi move has spaces) (docs/solved.md).\n"
        "The table stays within --memory (a search that outgrows it goes on, slower);\n"
        "Ctrl-C stops the search (exit status 130).",
        "  territory solve tabik --size 3\n"
        "  territory solve nume --square 2 --komi none\n"
        "  territory solve tabik --record game.txt --max-nodes 1000000\n"
        "  territory solve tabik --size 3 --position '3/1w1/1b1 1 a 0 0'\n"
        "  territory solve tabik --size 4 --memory 2G --time-limit 600 --progress\n"
        "  territory solve tabik --size 4 --order tabik-4   # moves ordered by a trained model\n",
        run_solve,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--record", metavar="FILE",
                       help="solve the position at the end of this game record (game options, if given, must match it)")
    where.add_argument("--position", metavar="STR", help="solve this position string (docs/positions.md)")
    parser.add_argument("--max-nodes", type=integer(1), help="give up after this many positions (default: no limit)")
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS", help="give up after this many seconds (default: no limit)")
    parser.add_argument("--memory", type=memory_size, metavar="SIZE",
                        help="memory for the transposition table: bytes, or with a unit, e.g. 500M, 4G "
                        "(default: half of the available memory)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="positions searched, table memory and time on stderr every second "
                        "(default: when stderr is a terminal)")
    parser.add_argument("--order", metavar="MODEL",
                        help="try the moves of shallow positions in the order of this trained model's policy "
                        "(a shipped model's name or a file): the same values, usually fewer positions")
    parser.add_argument("--order-depth", type=integer(0, agents_module.MAX_ORDER_DEPTH), default=6, metavar="N",
                        help="with --order, the positions less than N moves deep (default: 6)")
    cli.add_game_options(parser)


UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def memory_size(text: str) -> int:
    """An argparse type: a memory size such as 4G, 500M, 1.5G or 1048576 (bytes)."""
    shown = text if len(text) <= 30 else f"{text[:20]}... ({len(text)} characters)"
    number, unit = text.strip().upper().rstrip("B"), ""
    if number[-1:] in UNITS:
        number, unit = number[:-1], number[-1]
    try:
        size = float(number) * UNITS[unit] if len(text) <= 30 else math.nan
    except ValueError:
        size = math.nan
    high = agents_module.machine_memory()
    if not agents_module.MIN_SOLVE_MEMORY <= size <= high:
        raise argparse.ArgumentTypeError(f"must be a size from 1M to this machine's memory, {high / 2**30:.1f}G "
                                         f"(bytes, or with a unit K, M, G, T), got {shown}")
    return int(size)


def seconds(text: str) -> float:
    """An argparse type: a number of seconds > 0."""
    shown = text if len(text) <= 30 else f"{text[:20]}... ({len(text)} characters)"
    try:
        value = float(text) if len(text) <= 30 else math.nan
    except ValueError:
        value = math.nan
    if not 0 < value < 1e12:
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {shown}")
    return value


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


def run_match(args: argparse.Namespace) -> int:
    params = cli.game_params(args, args.game)
    start = agents_module.start_state(args.game, params)
    try:
        pair = [agents_module.parse_agent(spec, start=start) for spec in args.agents]
    except ValueError as error:
        raise UsageError(f"--agents: {error}") from None
    cli.check_output(args.json, "--json")
    out = cli.human_stream(args.json)
    show_progress = sys.stderr.isatty() if args.progress is None else args.progress
    with _scale_out(args) as executor:
        result = agents_module.play_match(
            args.game, pair, args.games, seed=args.seed, threads=args.threads, swap_seats=args.swap_seats,
            executor=executor, progress=cli.Progress(args.game, show_progress), keep_games=False, **params,
        )
    summary = result.summary()
    print(format_match(summary), file=out)
    if args.json:
        cli.write_output(args.json, cli.json_text([summary]), "--json")
        if args.json != "-":
            print(f"summary written to {args.json}", file=out)
    return 0


def _scale_out(args: argparse.Namespace) -> Any:
    """The executor context of ``--scheduler`` (checked now: errors exit with status 2)."""
    try:
        return distributed.executor_for(args.scheduler)
    except (ImportError, ValueError) as error:
        raise UsageError(str(error)) from None


def _megabytes(size: int) -> str:
    return f"{size / 2**20:,.0f} MB" if size >= 2**20 else f"{size / 2**10:,.0f} KB"


class SolveProgress:
    """The solver's progress on stderr: one line rewritten every second on a terminal,
    a line every 10 seconds otherwise. Remembers the last figures for messages."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.tty = enabled, sys.stderr.isatty()
        self.figures: tuple[int, int, float] | None = None
        self.shown = False

    def __call__(self, nodes: int, table_bytes: int, seconds: float) -> None:
        self.figures = (nodes, table_bytes, seconds)
        if not self.enabled or (not self.tty and round(seconds) % 10 != 0):
            return
        line = f"  searched {nodes:,} positions, table {_megabytes(table_bytes)}, {seconds:,.0f} s"
        sys.stderr.write(f"\r{line}\033[K" if self.tty else line + "\n")
        sys.stderr.flush()
        self.shown = self.tty

    def clear(self) -> None:
        """Ends the rewritten line, before anything else is printed."""
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False

    def searched(self) -> str:
        if self.figures is None:
            return ""
        nodes, table_bytes, _ = self.figures
        return f", {nodes:,} positions searched, table {_megabytes(table_bytes)}"


def _position_to_solve(args: argparse.Namespace) -> Any:
    from territory.playouts import new_game

    params = cli.game_params(args, args.game)
    if args.position is not None:
        return cli.position_state(args.game, args.position, params)
    if not args.record:
        return new_game(args.game, **params)
    state = cli.read_record(args.record)
    if state.game != args.game:
        raise UsageError(f"{args.record} is a {state.game} record, not {args.game}")
    for name, value in params.items():
        if state.params.get(name) != value:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} {cli.record.format_value(value)} disagrees with {args.record}, "
                             f"whose {name} is {cli.record.format_value(state.params.get(name))} "
                             "(game options come from the record)")
    return state


def run_solve(args: argparse.Namespace) -> int:
    state = _position_to_solve(args)
    if state.is_over:
        raise UsageError("the game is over: nothing to solve")
    order = None
    if args.order is not None:
        from territory.model import Model

        try:
            order = Model.load(args.order)
            order.check_fits(state)
        except (ValueError, OSError) as error:
            raise UsageError(f"--order: {error}") from None
    progress = SolveProgress(sys.stderr.isatty() if args.progress is None else args.progress)
    began = time.perf_counter()
    try:
        solution = agents_module.solve(state, max_nodes=args.max_nodes, memory=args.memory,
                                       time_limit=args.time_limit, progress=progress, order=order,
                                       order_depth=args.order_depth)
    except agents_module.SolveLimitError as error:
        progress.clear()
        limit = (f"--time-limit {args.time_limit:g} s" if isinstance(error, agents_module.TimeLimitError)
                 else f"--max-nodes {args.max_nodes:,}")
        raise UsageError(f"not solved within {limit}: {error.nodes:,} positions searched in {error.seconds:.1f} s, "
                         f"table {_megabytes(error.table_bytes)}") from None
    except KeyboardInterrupt:
        progress.clear()
        print(f"{args.parser.prog}: interrupted after {time.perf_counter() - began:.1f} s{progress.searched()}; "
              "nothing solved", file=sys.stderr)
        return 130
    progress.clear()
    seconds = time.perf_counter() - began
    shown = ", ".join(f"{k}={v!r}" for k, v in state.params.items())
    after = ("from the given position" if args.position is not None
             else f"after {len(state.history)} actions" if state.history else "at the start")
    seat = state.to_move
    print(f"{args.game} ({shown}), {after}: seat {seat} ({state.color_of(seat)}) to move")
    print(f"  value       {solution.value:+d} ({VALUE_WORDS[solution.value]} for seat {seat} with perfect play)")
    print(f"  best moves  {', '.join(solution.best_moves)}  ({len(solution.best_moves)} of {len(solution.move_values)})")
    print(f"  positions   {solution.nodes:,} in {seconds:.2f} s, table {_megabytes(solution.table_bytes)}")
    for value in (1, 0, -1):
        moves = [m for m, v in solution.move_values.items() if v == value]
        if moves:
            print(f"  {VALUE_WORDS[value]:<6}({len(moves):>4})  {', '.join(moves)}")
    return 0
