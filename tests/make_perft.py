"""Writes tests/data/<game>.perft: perft counts computed by the engine and by the
reference, which must agree (see tests/perft.py for the format).

    python tests/make_perft.py [--budget SECONDS] [GAME ...]

For each option set it records the start, seat 1's first turn, the position after the
pie swap (where there is one) and positions along a seeded random game of the engine
(``territory.replay_playout``), and gives each position every depth from 1 to 4 whose
count the reference can confirm within the budget (an estimate: the depth-(d-1) count
times the time of one reference move generation there).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import territory  # noqa: E402
import territory.reference  # noqa: E402

import games as test_games  # noqa: E402
from perft import Entry, perft, position, write  # noqa: E402

REFERENCE = territory.reference.GAMES
NATIVE = territory.GAMES
#: most positions at depth d - 1 for a depth d (keeps `cargo test` fast in debug builds)
NODE_LIMIT = 30_000

#: The option sets of each game: its test data's ``PERFT`` (tests/games/<game>.py).
CONFIGS = {name: data.PERFT for name, data in test_games.modules().items()}


def config_id(game: str, params: dict) -> str:
    parts = [game]
    for key, value in params.items():
        if key == "border" and len(str(value)) == 84:
            value = "explicit"
        parts.append(f"{key}{'' if value is True else value}" if value is not False else f"no{key}")
    return "-".join(str(p) for p in parts).replace("size", "").replace("square", "sq")


def positions(game: str, params: dict) -> list[tuple[str, list[str]]]:
    history = territory.replay_playout(game, 2026, 0, **params).history
    full = NATIVE[game](**params).params
    n = len(history)
    plies = {"start": 0, "first": 1, "quarter": n // 4, "middle": n // 2, "late": n - 8,
             "end": n - 4, "last": n - 2}
    found = [(name, history[:ply]) for name, ply in plies.items() if 0 <= ply < n]
    if full.get("pie", False) and n > 1:
        found.insert(2, ("swapped", history[:1] + ["swap"]))
    if params.get("komi_phase"):
        found.insert(2, ("side", history[:2]))
    seen, unique = set(), []
    for name, moves in found:
        if tuple(moves) not in seen:
            seen.add(tuple(moves))
            unique.append((name, moves))
    return unique


def make(game: str, budget: float) -> None:
    entries = []
    started = time.time()
    for params in CONFIGS[game]:
        full = NATIVE[game](**params).params
        for name, moves in positions(game, params):
            entry = Entry(game, f"{config_id(game, params)}-{name}", full, list(moves))
            native, ref = position(NATIVE[game], entry), position(REFERENCE[game], entry)
            if native.is_over:
                continue
            t = time.time()
            ref.legal_actions()
            unit = time.time() - t + 1e-5
            counts = {0: 1}
            for depth in range(1, 5):
                if depth > 1 and (counts[depth - 1] > NODE_LIMIT
                                  or counts[depth - 1] * unit > budget):
                    break
                counts[depth] = perft(native, depth)
            del counts[0]
            t = time.time()
            for depth, count in counts.items():
                by_reference = perft(ref, depth)
                assert by_reference == count, (entry.id, depth, count, by_reference)
            entry.counts = counts
            entries.append(entry)
            print(f"{entry.id}: {counts} (reference {time.time() - t:.1f} s)", flush=True)
    header = (
        f"Perft counts for {game}, computed by the engine and by the reference (they agree).\n"
        "Made by tests/make_perft.py; the format is described in tests/perft.py."
    )
    write(game, entries, header)
    print(f"{game}: {len(entries)} entries in {time.time() - started:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(CONFIGS))
    parser.add_argument("--budget", type=float, default=10.0,
                        help="seconds of reference time allowed per depth of a position")
    args = parser.parse_args()
    for game in args.games:
        make(game, args.budget)


if __name__ == "__main__":
    main()
