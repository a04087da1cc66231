"""Bulk random playouts: games per second for each game with 1 thread and with every
thread, and the same for a plain Python loop over the reference, in one run.

    python benches/bulk.py [--games 200000] [--reference-seconds 3]
    python benches/bulk.py --memory 10000000 --only tabik   # RSS over a long run

With --memory N it plays N games of each selected game with keep_games=False and prints
the resident memory before, during and after, to show that it does not grow per game.
"""

from __future__ import annotations

import argparse
import resource
import time

import territory
from territory.playouts import cpu_count

from python_api import GAMES, games_per_second

PARAMS = {"tabik": {"size": 8}, "migong": {}, "nume": {"n": 4}}
TARGETS = {"tabik": 100_000, "migong": 20_000, "nume": 100_000}


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rate(game: str, games: int, threads: int | None) -> float:
    territory.random_playouts(game, min(games, 2000), seed=99, threads=threads, keep_games=False)  # warm up
    began = time.perf_counter()
    territory.random_playouts(game, games, seed=1, threads=threads, keep_games=False, **PARAMS[game])
    return games / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per measurement")
    parser.add_argument("--reference-seconds", type=float, default=3.0)
    parser.add_argument("--only", default="tabik,migong,nume")
    parser.add_argument("--memory", type=int, default=0, metavar="N", help="measure RSS over N games instead")
    args = parser.parse_args()
    games = args.only.split(",")
    if args.memory:
        for game in games:
            marks = []
            def progress(done, total, seconds, marks=marks):
                if not marks or done - marks[-1][0] >= total // 10:
                    marks.append((done, rss_mib()))
            before = rss_mib()
            territory.random_playouts(game, args.memory, seed=1, keep_games=False, progress=progress, **PARAMS[game])
            print(f"{game}: RSS {before:.1f} MiB before; " + ", ".join(f"{d:,}: {m:.1f}" for d, m in marks) + f"; after {rss_mib():.1f} MiB")
        return
    cores = cpu_count()
    print(f"{'game':<8}{'1 thread':>12}{f'{cores} threads':>12}{'speedup':>9}{'reference':>12}{'target/core':>13}")
    for game in games:
        n = args.games
        one = rate(game, n, 1)
        every = rate(game, n, None)
        reference = games_per_second(GAMES[game][1], PARAMS[game], args.reference_seconds)[0]
        ok = "ok" if one >= TARGETS[game] else "BELOW"
        print(f"{game:<8}{one:>12,.0f}{every:>12,.0f}{every / one:>8.2f}x{reference:>12,.2f}{TARGETS[game]:>10,} {ok}")
    print("games per second; reference = plain Python loop over territory.reference, one thread")


if __name__ == "__main__":
    main()
