"""Random games played move by move through the public Python API, on the native engine
and on the pure-Python reference, side by side in one run.

    python benches/python_api.py [--seconds 3] [--games tabik,migong,nume]

For each game it plays uniform random games (random.choice over legal_moves(), then
play()) for about the given time on each implementation and prints games per second and
the engine/reference ratio.
"""

from __future__ import annotations

import argparse
import random
import time

import territory
from territory import reference

#: Every game: (engine class, reference class, parameters: the defaults).
GAMES = {name: (cls, reference.GAMES[name], {}) for name, cls in territory.GAMES.items()}


def games_per_second(cls, params: dict, seconds: float, seed: int = 0) -> tuple[float, int]:
    rng = random.Random(seed)
    played, began = 0, time.process_time()
    while True:
        state = cls(**params)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        played += 1
        elapsed = time.process_time() - began
        if elapsed >= seconds:
            return played / elapsed, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per implementation and game")
    parser.add_argument("--games", default="tabik,migong,nume")
    args = parser.parse_args()
    print(f"{'game':<8}{'engine games/s':>16}{'reference games/s':>20}{'ratio':>10}")
    for name in args.games.split(","):
        native, reference, params = GAMES[name]
        fast, _ = games_per_second(native, params, args.seconds)
        slow, n = games_per_second(reference, params, args.seconds)
        print(f"{name:<8}{fast:>16,.1f}{slow:>20,.3f}{fast / slow:>10,.0f}x   (reference: {n} game(s))")


if __name__ == "__main__":
    main()
