"""The Python fast paths, timed: constructors, copy(), the play_random loop, legal_mask(),
and a random.choice(legal_actions()) loop for comparison.

    python benches/python_fast.py [--repeat 5] [--seconds 1] [--games tabik,nume,migong]

Every figure is the best of ``--repeat`` runs (the machine may be shared: the best run
is the least disturbed one). ``--json`` prints the figures as JSON instead of a table.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import timeit

import territory


def best_us(stmt, repeat: int, number: int) -> float:
    """Microseconds per call of ``stmt``, the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(stmt, repeat=repeat, number=number)) / number * 1e6


def loop_games_per_second(cls, seconds: float, repeat: int, step) -> float:
    """Games per second of ``while not s.is_over: step(s, rng)`` from a new state, the best
    of ``repeat`` runs of about ``seconds`` each."""
    best = 0.0
    for run in range(repeat):
        rng = random.Random(run)
        played, began = 0, time.process_time()
        while True:
            s = cls()
            while not s.is_over:
                step(s, rng)
            played += 1
            elapsed = time.process_time() - began
            if elapsed >= seconds:
                break
        best = max(best, played / elapsed)
    return best


def play_random(s, rng) -> None:
    s.play_random(rng.random())


def choice_of_actions(s, rng) -> None:
    s.apply_action(rng.choice(s.legal_actions()))


def mid_game(cls, seed: int = 1):
    """A state halfway through a seeded random game."""
    rng = random.Random(seed)
    s = cls()
    while not s.is_over:
        s.play_random(rng.random())
    length = len(s.history)
    s = cls()
    for _ in range(length // 2):
        s.play_random(rng.random())
    return s


def measure(name: str, repeat: int, seconds: float) -> dict[str, float]:
    cls = territory.GAMES[name]
    s = mid_game(cls)
    fresh = cls()
    return {
        "constructor_us": best_us(cls, repeat, 20_000),
        "copy_us": best_us(s.copy, repeat, 20_000),
        "copy_play_us": best_us(lambda: fresh.copy().play_random(0.5), repeat, 20_000),
        "legal_mask_us": best_us(s.legal_mask, repeat, 20_000),
        "play_random_games_per_s": loop_games_per_second(cls, seconds, repeat, play_random),
        "choice_games_per_s": loop_games_per_second(cls, seconds, repeat, choice_of_actions),
    }


COLUMNS = [
    ("constructor_us", "constructor us", "{:.2f}"),
    ("copy_us", "copy() us", "{:.2f}"),
    ("copy_play_us", "copy()+move us", "{:.2f}"),
    ("legal_mask_us", "legal_mask() us", "{:.2f}"),
    ("play_random_games_per_s", "play_random games/s", "{:,.0f}"),
    ("choice_games_per_s", "choice(legal_actions()) games/s", "{:,.0f}"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the best is kept")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one game-loop run")
    parser.add_argument("--games", default="tabik,nume,migong")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = {name: measure(name, args.repeat, args.seconds) for name in args.games.split(",")}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'game':<8}" + "".join(f"{title:>{len(title) + 3}}" for _, title, _ in COLUMNS))
    for name, figures in results.items():
        print(
            f"{name:<8}"
            + "".join(f"{fmt.format(figures[key]):>{len(title) + 3}}" for key, title, fmt in COLUMNS)
        )


if __name__ == "__main__":
    main()
