"""Scale-out overhead: games per second of random_playouts run locally on T threads
against the same run on a Dask LocalCluster of W worker processes (1 thread each), and
on a ProcessPoolExecutor, on this machine. Needs ``pip install ".[dask]"``.

    python benches/scale_out.py [--game tabik] [--games 1000000] [--workers 1,2,4]
                                  [--repeat 3] [--keep-games]

Each rate is the best of --repeat runs (the machine may be shared); cluster start-up is
not counted (it is printed apart), and every cluster is warmed up with a short run first.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import logging
import time

import territory


def best_rate(games: int, repeat: int, **kwargs) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        territory.random_playouts(ARGS.game, games, seed=1, keep_games=ARGS.keep_games, **kwargs)
        best = min(best, time.perf_counter() - began)
    return games / best


def main() -> None:
    from distributed import Client, LocalCluster

    workers = [int(w) for w in ARGS.workers.split(",")]
    rows = []
    territory.random_playouts(ARGS.game, 20_000, seed=9)  # warm up
    for count in workers:
        local = best_rate(ARGS.games, ARGS.repeat, threads=count)
        began = time.perf_counter()
        with LocalCluster(n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            startup = time.perf_counter() - began
            executor = client.get_executor()
            territory.random_playouts(ARGS.game, 20_000, seed=9, executor=executor)  # warm up the workers
            dask = best_rate(ARGS.games, ARGS.repeat, executor=executor)
        with cf.ProcessPoolExecutor(count) as pool:
            territory.random_playouts(ARGS.game, 20_000, seed=9, executor=pool)
            processes = best_rate(ARGS.games, ARGS.repeat, executor=pool)
        rows.append((count, local, dask, processes, startup))
        print(f"{count} done", flush=True)
    print(f"\n{ARGS.game}, {ARGS.games:,} games, keep_games={ARGS.keep_games}, best of {ARGS.repeat}; games/s")
    print(f"{'workers':>8}{'local (threads)':>17}{'Dask LocalCluster':>19}{'overhead':>10}{'ProcessPool':>13}{'overhead':>10}{'cluster start':>15}")
    for count, local, dask, processes, startup in rows:
        print(f"{count:>8}{local:>17,.0f}{dask:>19,.0f}{local / dask - 1:>+10.1%}{processes:>13,.0f}"
              f"{local / processes - 1:>+10.1%}{startup:>13.1f} s")
    print("overhead: how much longer the run takes than the local run on as many threads")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tabik")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep-games", action="store_true", help="send every game's arrays back, not tallies")
    ARGS = parser.parse_args()
    main()
