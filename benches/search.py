"""Search speed: UCT iterations per second on one thread, beside random playouts per
second on one thread (an iteration is one playout plus the walk down the tree and the
undo back up), and the speedup of root parallelism on two threads.

    python benches/search.py [--iterations 20000] [--games 5000]

Build the extension with release settings for real numbers (`maturin develop --release`);
`--profile quick` numbers are somewhat lower. The machine's other load matters for the
two-thread speedup: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import time

import territory
from territory import Uct

PARAMS = {"tabik": {"size": 8}, "migong": {}, "nume": {"n": 4}}


def best_of(repeats: int, run) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=5_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<8}{'playouts/s (1 thr)':>20}{'UCT iter/s (1 thr)':>20}{'iter/playout':>14}"
          f"{'UCT iter/s (2 thr)':>20}{'speedup':>9}")
    for game, params in PARAMS.items():
        state = territory.random_playouts.__globals__["new_game"](game, **params)
        n, it = args.games // (4 if game == "migong" else 1), args.iterations // (4 if game == "migong" else 1)
        playouts = n / best_of(args.repeats, lambda: territory.random_playouts(
            game, n, seed=1, threads=1, keep_games=False, **params))
        one = it / best_of(args.repeats, lambda: Uct(iterations=it, threads=1).analyse(state))
        two = it / best_of(args.repeats, lambda: Uct(iterations=it, threads=2).analyse(state))
        print(f"{game:<8}{playouts:>20,.0f}{one:>20,.0f}{playouts / one:>14.2f}{two:>20,.0f}{two / one:>9.2f}")


if __name__ == "__main__":
    main()
