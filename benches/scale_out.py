"""Scale-out overhead: games per second of random_playouts run locally on T threads
against the same run on a Dask LocalCluster of W worker processes (1 thread each), and
on a ProcessPoolExecutor, on this machine. Needs ``pip install ".[dask]"``.

    python benches/scale_out.py [--game tabik] [--games 1000000] [--workers 1,2,4]
                                  [--repeat 3] [--keep-games]

Each rate is the best of --repeat interleaved runs (the machine may be shared), printed
with the CPU seconds that run used (this process and the workers): on a busy machine the
wall clock follows the load, the CPU seconds show the work. Cluster start-up is not
counted (it is printed apart); every cluster is warmed up with a short run first.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import logging
import os
import time

import psutil

import territory


def measure(pids: list[int], **kwargs) -> tuple[float, float]:
    """Wall-clock seconds of a run, and the CPU seconds it used in this process and in
    the worker processes ``pids``."""
    processes = [psutil.Process()] + [psutil.Process(pid) for pid in pids]
    cpu = [sum(p.cpu_times()[:2]) for p in processes]
    began = time.perf_counter()
    territory.random_playouts(ARGS.game, ARGS.games, seed=1, keep_games=ARGS.keep_games, **kwargs)
    wall = time.perf_counter() - began
    return wall, sum(sum(p.cpu_times()[:2]) for p in processes) - sum(cpu)


def main() -> None:
    from distributed import Client, LocalCluster

    workers = [int(w) for w in ARGS.workers.split(",")]
    rows = []
    territory.random_playouts(ARGS.game, 20_000, seed=9)  # warm up
    for count in workers:
        began = time.perf_counter()
        with LocalCluster(n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client, \
                cf.ProcessPoolExecutor(count) as pool:
            startup = time.perf_counter() - began
            executor = client.get_executor()
            for warm_up in (executor, pool):
                territory.random_playouts(ARGS.game, 20_000, seed=9, executor=warm_up)
            dask_pids = list(client.run(os.getpid).values())
            pool_pids = list(pool._processes)
            # Interleaved, so that a change in the machine's load hits all three alike.
            runs = [(measure([], threads=count), measure(dask_pids, executor=executor),
                     measure(pool_pids, executor=pool)) for _ in range(ARGS.repeat)]
        # Best wall-clock rate of each, and its CPU seconds per million games.
        best = [min(column) for column in zip(*runs)]
        rows.append((count, startup, [(ARGS.games / wall, cpu * 1e6 / ARGS.games) for wall, cpu in best]))
        print(f"{count} done", flush=True)
    print(f"\n{ARGS.game}, {ARGS.games:,} games, keep_games={ARGS.keep_games}, best of {ARGS.repeat}; "
          "games/s (CPU seconds per million games)")
    print(f"{'workers':>8}{'local (threads)':>22}{'Dask LocalCluster':>22}{'overhead':>10}{'ProcessPool':>22}{'overhead':>10}"
          f"{'cluster start':>15}")
    for count, startup, ((local, local_cpu), (dask, dask_cpu), (processes, pool_cpu)) in rows:
        print(f"{count:>8}{local:>14,.0f} ({local_cpu:4.1f})"
              f"{dask:>14,.0f} ({dask_cpu:4.1f}){local / dask - 1:>+10.1%}"
              f"{processes:>14,.0f} ({pool_cpu:4.1f}){local / processes - 1:>+10.1%}{startup:>13.1f} s")
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
