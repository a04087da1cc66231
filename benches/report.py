"""Prints the README's benchmark table, in Markdown, measured on this machine.

    python benches/report.py [--games tabik,nume,migong] [--repeat 3] [--no-build]

Run it from the repository root with the extension built in release mode
(`maturin develop --release`). It builds the engine example
(`cargo build --release -p territory --example random_games`) unless `--no-build`, and
needs `valgrind` for the instruction counts (the column shows "-" without it). Every
timed figure is the best of `--repeat` runs: on a shared machine the best run is the
least disturbed one. Instruction counts do not depend on the load.

Columns, and what produces each:
- engine games/s, 1 and 2 threads: `territory.random_playouts(game, N, threads=T)`
  (as `benches/bulk.py`), default parameters, pie and passes included;
- ns/move: `target/release/examples/random_games GAME N` (one thread, inside Rust):
  10^9 / (games/s x actions/game);
- instructions/game: `valgrind --tool=callgrind target/release/examples/random_games
  GAME N [SIZE]`, the difference between N and 2N games divided by N (start-up cancels);
  the main table has the defaults, a second table each game's smallest, default and
  largest board (`BOARDS`);
- constructor us, legal_mask us (mid-game position), play_random games/s
  (`while not s.is_over: s.play_random(rng.random())`): `benches/python_fast.py`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import territory  # noqa: E402
from python_fast import best_us, loop_games_per_second, mid_game, play_random  # noqa: E402

EXAMPLE = os.path.join("target", "release", "examples", "random_games")
#: Games per engine run (timed) and per callgrind run (N; 2N is run too).
ENGINE_GAMES = {"tabik": 200_000, "nume": 200_000, "migong": 50_000}
CALLGRIND_GAMES = {"tabik": 2_000, "nume": 2_000, "migong": 500}
#: Per game, its smallest, default and largest board as the example's SIZE argument
#: (Tabik's side, Nume's n; Migong has one board), with the games per callgrind run.
BOARDS = {
    "tabik": [("2x2", "2", 5_000), ("8x8", None, 2_000), ("16x16", "16", 500)],
    "nume": [("n=1", "1", 5_000), ("n=4", None, 2_000), ("n=8", "8", 500)],
    "migong": [("126 cells", None, 500)],
}


def engine_games_per_second(game: str, threads: int, repeat: int) -> float:
    games = ENGINE_GAMES[game]
    territory.random_playouts(game, 2_000, seed=99, threads=threads, keep_games=False)  # warm up
    best = 0.0
    for run in range(repeat):
        began = time.perf_counter()
        territory.random_playouts(game, games, seed=run, threads=threads, keep_games=False)
        best = max(best, games / (time.perf_counter() - began))
    return best


def ns_per_move(game: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        out = subprocess.run([EXAMPLE, game, str(ENGINE_GAMES[game])], check=True, capture_output=True, text=True).stdout
        rate, actions = re.search(r"([\d.]+) games/s, ([\d.]+) actions/game", out).groups()
        best = min(best, 1e9 / (float(rate) * float(actions)))
    return best


def instructions(game: str, games: int, size: str | None = None) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", EXAMPLE, game, str(games)]
        + ([size] if size else []),
        check=True, capture_output=True, text=True,
    )
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def instructions_per_game(game: str, size: str | None = None, n: int | None = None) -> float | None:
    if shutil.which("valgrind") is None:
        return None
    n = n or CALLGRIND_GAMES[game]
    return (instructions(game, 2 * n, size) - instructions(game, n, size)) / n


def python_figures(game: str, repeat: int) -> dict[str, float]:
    cls = territory.GAMES[game]
    s = mid_game(cls)
    return {
        "constructor": best_us(cls, repeat, 20_000),
        "legal_mask": best_us(s.legal_mask, repeat, 20_000),
        "play_random": loop_games_per_second(cls, 1.0, repeat, play_random),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="tabik,nume,migong")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timed figure; the best is kept")
    parser.add_argument("--no-build", action="store_true", help="use the example binary as it is")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "-p", "territory", "--example", "random_games"], check=True)
    print("| game | engine games/s, 1 thread | 2 threads | ns/move | instructions/game "
          "| constructor us | play_random loop games/s | legal_mask us |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for game in args.games.split(","):
        one = engine_games_per_second(game, 1, args.repeat)
        two = engine_games_per_second(game, 2, args.repeat)
        per_move = ns_per_move(game, args.repeat)
        per_game = instructions_per_game(game)
        py = python_figures(game, args.repeat)
        print(
            f"| {game} | {one:,.0f} | {two:,.0f} ({two / one:.2f}x) | {per_move:.0f} | "
            f"{'-' if per_game is None else f'{per_game:,.0f}'} | {py['constructor']:.2f} | "
            f"{py['play_random']:,.0f} | {py['legal_mask']:.2f} |"
        )
    print(f"\n{os.cpu_count()} CPUs; `python benches/report.py` (default parameters, best of {args.repeat}).")
    if shutil.which("valgrind") is None:
        return
    print("\n| game | board | instructions/game |")
    print("|---|---|---:|")
    for game in args.games.split(","):
        for board, size, n in BOARDS[game]:
            print(f"| {game} | {board} | {instructions_per_game(game, size, n):,.0f} |")
    print("\nInstructions per random game under callgrind (smallest, default and largest board).")


if __name__ == "__main__":
    main()
