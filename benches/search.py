"""Search speed: UCT iterations per second on one thread, beside random playouts per
second on one thread (an iteration is one playout plus the walk down the tree and the
undo back up), also from a mid-game root (after `MID` seeded random moves: the search
copies its root back after each iteration), and root parallelism on two threads.

    python benches/search.py [--iterations 40000] [--games 10000] [--repeats 3]

Rates are given per second of CPU time (process user + system time, so they hold on a
busy machine) and per second of wall time. For two threads: the wall-clock speedup over
one thread (meaningful only on an idle machine with two free cores) and the CPU time per
iteration relative to one thread (1.00 means the two trees together cost no more than
one: on two idle cores the speedup is then 2x).

Build the extension with release settings for final numbers (`maturin develop
--release`); `--profile quick` numbers are somewhat lower.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from typing import Callable

import territory
from territory import Uct
from territory.playouts import new_game

PARAMS = {"tabik": {"size": 8}, "migong": {}, "nume": {"n": 4}}
# Random moves before the mid-game root.
MID = {"tabik": 20, "migong": 10, "nume": 20}


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def best_of(repeats: int, run: Callable[[], object]) -> tuple[float, float]:
    """The least (CPU seconds, wall seconds) of `repeats` runs."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        c, w = cpu(), time.perf_counter()
        run()
        best = min(best, (cpu() - c, time.perf_counter() - w))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40_000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<8}{'playouts/s':>12}{'UCT iter/s':>12}{'iter cost':>11}{'mid iter/s':>12}"
          f"{'   (wall: playouts/s':>21}{'iter/s)':>10}{'2 thr speedup':>15}{'2 thr cpu/iter':>16}")
    for game, params in PARAMS.items():
        state = new_game(game, **params)
        scale = 4 if game == "migong" else 1
        n, it = args.games // scale, args.iterations // scale
        pc, pw = best_of(args.repeats, lambda: territory.random_playouts(
            game, n, seed=1, threads=1, keep_games=False, **params))
        c1, w1 = best_of(args.repeats, lambda: Uct(iterations=it, threads=1).analyse(state))
        mid, rng = state.copy(), random.Random(7)
        for _ in range(MID[game]):
            mid.play(rng.choice(mid.legal_moves()))
        cm, _ = best_of(args.repeats, lambda: Uct(iterations=it, threads=1).analyse(mid))
        c2, w2 = best_of(args.repeats, lambda: Uct(iterations=it, threads=2).analyse(state))
        print(f"{game:<8}{n / pc:>12,.0f}{it / c1:>12,.0f}{c1 / it / (pc / n):>10.2f}x{it / cm:>12,.0f}"
              f"{n / pw:>21,.0f}{it / w1:>10,.0f}{w1 / w2:>14.2f}x{c2 / c1:>15.2f}x")


if __name__ == "__main__":
    main()
