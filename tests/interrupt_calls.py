"""Long calls interrupted by a real SIGINT (tests/test_interrupts.py).

    python tests/interrupt_calls.py NAME [DELAY]

runs call NAME, sends this process SIGINT after DELAY seconds (default 0.5) from a
timer thread (``interrupting.sigint_later``), and prints one JSON line: whether
KeyboardInterrupt was raised, the seconds from the signal to it, and whether the library
still works afterwards.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import territory
from interrupting import sigint_later
from territory import _core
from territory.model import Model


def _vecenv_loop() -> None:
    env = territory.VecEnv("migong", 64, threads=2)
    env.reset()
    while True:
        env.step(env.sample_actions())


CALLS: dict[str, Callable[[], Any]] = {
    "random_playouts": lambda: territory.random_playouts("migong", 10**12, keep_games=False),
    "run_playouts (one call)": lambda: _core.run_playouts(territory.Migong(), 0, 0, 10**6, None),
    "play_match uct": lambda: territory.play_match("tabik", ["uct:100000", "uct:100000"], 100, size=8),
    "play_match random": lambda: territory.play_match("migong", ["random", "random"], 10**12, keep_games=False),
    "Uct.analyse": lambda: territory.Uct(10**7).analyse(territory.Tabik()),
    "Uct.analyse threads=2": lambda: territory.Uct(10**7, threads=2).analyse(territory.Migong()),
    "Puct.analyse": lambda: territory.Puct("tabik-6", 10**7).analyse(territory.Tabik(size=6)),
    "Puct.choose with finish and progress": lambda: territory.Puct("tabik-6", 10**7).choose(
        territory.Tabik(size=6), finish=territory.Stop(), progress=lambda *_: None),
    "VecEnv.step loop": _vecenv_loop,
    "evaluate random": lambda: territory.evaluate("migong", games=10**8),
    "evaluate uct": lambda: territory.evaluate("tabik", "uct:20000", games=1000),
    "trace_random (one call)": lambda: _core.trace_random(territory.Migong(), 0, 0, 10**6, None),
    "Migong.perft": lambda: territory.Migong().perft(3),
    "evaluate puct": lambda: territory.evaluate("tabik", "puct:tabik-6:400", games=10**5, size=6),
    # Games of a few milliseconds, then solves from their ends that never give up.
    "Network.self_play solving": lambda: Model.load("tabik-6").network().self_play(
        territory.Tabik(size=6), 8, 20, threads=2, solve_nodes=2**64 - 1),
}


def main(name: str, delay: float) -> None:
    since_signal = sigint_later(delay)
    report: dict[str, Any] = {"call": name, "interrupted": False}
    try:
        CALLS[name]()
    except KeyboardInterrupt:
        report["interrupted"] = True
        report["seconds"] = since_signal()
    report["works_after"] = territory.random_playouts("tabik", 50, seed=1, size=4).games == 50
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.5)
