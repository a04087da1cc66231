"""Every bulk call of the library, small: the calls the fork-safety and interrupt tests
run in parents, forked children and process pools (tests/test_fork_safety.py).

    python tests/bulk_calls.py MODE   # MODE: os.fork, fork, pool-fork, pool-spawn, pool-forkserver

runs every call in this process, then again in a child made by MODE, and checks that
the child gives the same results; it prints each call's name as it starts, so a call
that hangs is named by the output the test shows on its timeout.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import sys
from typing import Any, Callable

import numpy as np

import territory
from territory import _core
from territory.evaluate import trace_games


def _playouts() -> Any:
    return territory.random_playouts("tabik", 300, seed=1, size=5).winner.tolist()


def _match_random() -> Any:
    return territory.play_match("tabik", ["random", "random"], 200, seed=1, size=6).agent_wins


def _match_uct() -> Any:
    return territory.play_match("tabik", ["uct:40", "random"], 6, seed=2, size=4).agent_wins


def _evaluate_random() -> Any:
    return territory.evaluate("tabik", games=100, seed=1, size=4).to_dict()["metrics"]["DurationMoves"]


def _evaluate_uct() -> Any:
    return territory.evaluate("tabik", "uct:30", games=4, seed=1, size=4).to_dict()["metrics"]["DurationMoves"]


def _uct_analyse() -> Any:
    return territory.Uct(300, seed=3, threads=2).analyse(territory.Tabik(size=4)).visits


def _vecenv() -> Any:
    env = territory.VecEnv("tabik", 512, seed=1, threads=2, size=4)
    env.reset()
    total = 0.0
    for _ in range(20):
        _, rewards, _, _ = env.step(env.sample_actions())
        total += float(rewards.sum())
    return total


def _traces() -> Any:
    start = territory.Tabik(size=4)
    random = _core.trace_random(start, 1, 0, 200, None)["moves"].tolist()
    games = [territory.replay_playout("tabik", 1, i, size=4) for i in range(5)]
    given = trace_games(start, [[g.move_to_action(m) for m in g.history] for g in games], threads=2)
    return random, given["moves"].tolist()


CALLS: dict[str, Callable[[], Any]] = {
    "random_playouts": _playouts,
    "play_match random": _match_random,
    "play_match uct": _match_uct,
    "evaluate random": _evaluate_random,
    "evaluate uct": _evaluate_uct,
    "Uct.analyse threads=2": _uct_analyse,
    "VecEnv.step threads=2": _vecenv,
    "traces": _traces,
}


def call(name: str) -> Any:
    """The result of call ``name`` (a module-level function: picklable for a pool)."""
    return CALLS[name]()


def _plain(value: Any) -> Any:
    return np.asarray(value).tolist() if isinstance(value, np.ndarray) else value


def in_child(mode: str, names: list[str]) -> list[Any]:
    """The calls' results computed in a child process made by ``mode``."""
    if mode == "os.fork":
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            results = []
            for name in names:
                print(f"child: {name}", flush=True)
                results.append(call(name))
            os.write(write, repr(results).encode())
            os._exit(0)
        os.close(write)
        data = b""
        while chunk := os.read(read, 1 << 16):
            data += chunk
        assert os.waitpid(pid, 0)[1] == 0
        return eval(data.decode(), {"inf": float("inf"), "nan": float("nan")})
    if mode == "fork":
        context = multiprocessing.get_context("fork")
        with context.Pool(1) as pool:
            return [pool.apply(call, (name,)) for name in names]
    method = mode.removeprefix("pool-")
    context = multiprocessing.get_context(method)
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as executor:
        futures = [executor.submit(call, name) for name in names]
        return [f.result() for f in futures]


def main(mode: str) -> None:
    names = list(CALLS)
    parent = []
    for name in names:
        print(f"parent: {name}", flush=True)
        parent.append(call(name))
    child = in_child(mode, names)
    for name, a, b in zip(names, parent, child):
        assert repr(_plain(a)) == repr(_plain(b)), (name, a, b)
    print("ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
