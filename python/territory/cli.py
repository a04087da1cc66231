"""The ``territory`` command: ``simulate`` random games in bulk, ``replay`` one of them,
``show`` a game record. Run ``territory --help`` or ``territory COMMAND --help``."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from territory import distributed, playouts, record
from territory.errors import RecordError

GAME_CHOICES = ("migong", "nume", "tabik")
#: The argparse destinations of the game options.
OPTION_DESTS = ("size", "pie", "border", "group_size", "n", "square", "komi", "komi_to", "komi_phase")

#: Which command-line options each game takes: option dest -> constructor parameter.
GAME_OPTIONS = {
    "tabik": {"size": "size", "pie": "pie"},
    "migong": {"pie": "pie", "border": "border", "group_size": "group_size"},
    "nume": {"n": "n", "square": "square", "komi": "komi", "komi_to": "komi_to", "komi_phase": "komi_phase"},
}


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("game options (defaults: the game's own)")
    group.add_argument("--size", type=int, help="tabik: board side, 2..16 (default 8)")
    group.add_argument("--no-pie", dest="pie", action="store_const", const=False, help="migong, tabik: no pie rule")
    group.add_argument("--border", help="migong: alternate | blue | yellow | 84 letters B/Y")
    group.add_argument("--group-size", choices=("extent", "wedges"), help="migong: what a group's size counts")
    group.add_argument("--n", type=int, help="nume: hex board parameter, 1..8 (default 4)")
    group.add_argument("--square", type=int, help="nume: k x k square board instead of hex")
    group.add_argument("--komi", help="nume: k + 0.5 (default 0.5), or 'none'")
    group.add_argument("--komi-to", choices=("black", "white"), help="nume: who receives the komi")
    group.add_argument("--komi-phase", action="store_const", const=True, help="nume: players choose komi and sides")


def _game_params(parser: argparse.ArgumentParser, args: argparse.Namespace, game: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for dest in OPTION_DESTS:
        value = getattr(args, dest)
        if value is None:
            continue
        if dest not in GAME_OPTIONS[game]:
            parser.error(f"option --{dest.replace('_', '-')} does not apply to {game}")
        if dest == "komi":
            if value == "none":
                value = None
            else:
                try:
                    value = float(value)
                except ValueError:
                    parser.error(f"--komi must be a number like 2.5 or 'none', got {value!r}")
        params[GAME_OPTIONS[game][dest]] = value
    try:
        playouts.new_game(game, **params)
    except ValueError as error:
        parser.error(f"bad {game} option: {error}")
    return params


class Progress:
    """A one-line progress bar with games per second, on stderr."""

    def __init__(self, label: str, enabled: bool) -> None:
        self.label, self.enabled, self.last = label, enabled, 0.0

    def __call__(self, done: int, total: int, seconds: float) -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        rate = done / seconds if seconds > 0 else 0.0
        sys.stderr.write(f"\r{self.label:>7} [{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} games, {rate:,.0f} games/s")
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


def cmd_simulate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    games = GAME_CHOICES if args.game == "all" else (args.game,)
    if args.game == "all" and any(getattr(args, d) is not None for d in OPTION_DESTS):
        parser.error("game options need a single game, not 'all'")
    if args.games < 0:
        parser.error(f"--games must be >= 0, got {args.games}")
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads must be >= 1, got {args.threads}")
    if not 0 <= args.seed < 2**64:
        parser.error(f"--seed must be from 0 to 2**64 - 1, got {args.seed}")
    show_progress = sys.stderr.isatty() if args.progress is None else args.progress
    params_of = {game: _game_params(parser, args, game) for game in games}
    try:
        scale_out = distributed.executor_for(args.scheduler)
    except (ImportError, ValueError) as error:
        parser.error(str(error))
    summaries = []
    with scale_out as executor:
        for game in games:
            result = playouts.random_playouts(
                game, args.games, seed=args.seed, threads=args.threads, keep_games=False,
                progress=Progress(game, show_progress), executor=executor, **params_of[game],
            )
            summary = result.summary()
            summaries.append(summary)
            print(format_summary(summary))
            print()
    if args.json:
        payload = summaries[0] if len(summaries) == 1 else summaries
        Path(args.json).write_text(json.dumps(payload, indent=2, default=float) + "\n")
        print(f"summary written to {args.json}")
    return 0


def cmd_replay(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.index < 0 or not 0 <= args.seed < 2**64:
        parser.error("--seed and --index must be non-negative")
    params = _game_params(parser, args, args.game)
    state = playouts.replay_playout(args.game, args.seed, args.index, **params)
    moves = state.history
    print(f"{args.game} game {args.index} of seed {args.seed}: {len(moves)} actions")
    for start in range(0, len(moves), 8):
        print("  " + "  ".join(f"{i + 1}. {m}" for i, m in enumerate(moves[start : start + 8], start=start)))
    print()
    print(state)
    if args.record:
        Path(args.record).write_text(state.to_record(comment=f"game {args.index} of seed {args.seed}"))
        print(f"record written to {args.record}")
    return 0


def cmd_show(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        text = Path(args.record_file).read_text()
    except OSError as error:
        parser.error(f"cannot read {args.record_file}: {error.strerror}")
    try:
        state = record.load(text)
    except RecordError as error:
        print(f"territory show: {args.record_file}: {error}", file=sys.stderr)
        return 1
    if args.move is not None:
        if not 0 <= args.move <= len(state.history):
            parser.error(f"--move must be from 0 to {len(state.history)}, got {args.move}")
        while len(state.history) > args.move:
            state.undo()
    if args.svg:
        Path(args.svg).write_text(state.svg())
        print(f"picture of the position after {len(state.history)} actions written to {args.svg}")
    else:
        print(state)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="territory", description="Fast rules engine for Migong, Nume and Tabik.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    simulate = commands.add_parser("simulate", help="play uniform random games in bulk and summarise them")
    simulate.add_argument("game", choices=GAME_CHOICES + ("all",), help="the game, or 'all' for each in turn")
    simulate.add_argument("--games", type=int, default=100_000, help="number of games (default 100000)")
    simulate.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    simulate.add_argument("--threads", type=int, help="threads (default: every core)")
    simulate.add_argument("--json", metavar="FILE", help="also write the summary as JSON")
    simulate.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                          help="progress bar on stderr (default: when stderr is a terminal)")
    distributed.add_scheduler_option(simulate)
    _add_game_options(simulate)

    replay = commands.add_parser("replay", help="replay one game of a simulate run")
    replay.add_argument("game", choices=GAME_CHOICES)
    replay.add_argument("--seed", type=int, required=True)
    replay.add_argument("--index", type=int, required=True, help="the game's index in the run (from 0)")
    replay.add_argument("--record", metavar="OUT", help="write the game record to OUT")
    _add_game_options(replay)

    show = commands.add_parser("show", help="print or draw the position of a game record")
    show.add_argument("record_file")
    show.add_argument("--svg", metavar="OUT", help="write an SVG picture instead of printing")
    show.add_argument("--move", type=int, help="show the position after this many actions")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    command = {"simulate": cmd_simulate, "replay": cmd_replay, "show": cmd_show}[args.command]
    try:
        return command(parser, args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
