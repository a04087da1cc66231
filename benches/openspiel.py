"""The cost of OpenSpiel's API over the territory engine: one random-game loop, run on
the OpenSpiel adapter (territory.openspiel), on OpenSpiel's own C++ Hex, and on the
native territory API, side by side.

    python benches/openspiel.py [--seconds 3] [--games tabik,nume,migong]
    python benches/openspiel.py --mcts [--simulations 2000]

The loop is the same everywhere: ask the legal actions, pick one with ``random``, apply
it, until the game ends. Hex (11 x 11, 121 actions, ~60-120 moves a game) is the
reference point of a game implemented inside OpenSpiel in C++. ``--mcts`` times
OpenSpiel's C++ ``MCTSBot`` (random rollouts) choosing the first move instead, on Hex
6 x 6 and on Tabik 6 x 6 through the adapter (36 and 121 actions at the start: a board
of similar size). Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import territory
import territory.openspiel  # noqa: F401  (registers the games)


def spiel_loop(game, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Games per second and actions per second of a random-game loop on an OpenSpiel game."""
    rng = random.Random(seed)
    games = actions = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        state.returns()
        games += 1
    elapsed = time.process_time() - began
    return games / elapsed, actions / elapsed


def native_loop(name: str, seconds: float, seed: int = 0) -> tuple[float, float]:
    """The same loop on the native territory API."""
    rng = random.Random(seed)
    games = actions = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = territory.new_game(name)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        state.returns()
        games += 1
    elapsed = time.process_time() - began
    return games / elapsed, actions / elapsed


def mcts_rate(spec: str, simulations: int, seed: int = 0) -> float:
    """Simulations per second of OpenSpiel's C++ MCTSBot choosing the first move of
    ``spec``. ``step_with_policy``: ``step`` segfaults on a Python game (OpenSpiel's bug)."""
    game = pyspiel.load_game(spec)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)  # must outlive the bot
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, simulations, 10**9, False, seed, False)
    began = time.process_time()
    bot.step_with_policy(game.new_initial_state())
    rate = simulations / (time.process_time() - began)
    del bot, evaluator
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per loop")
    parser.add_argument("--games", default=",".join(territory.GAMES))
    parser.add_argument("--mcts", action="store_true", help="time OpenSpiel's C++ MCTSBot instead")
    parser.add_argument("--simulations", type=int, default=2000, help="with --mcts: simulations of the one search")
    args = parser.parse_args()
    if args.mcts:
        hex_rate = mcts_rate("hex(board_size=6)", args.simulations)
        tabik_rate = mcts_rate("territory_tabik(size=6)", args.simulations)
        print(f"MCTSBot, {args.simulations:,} simulations from the start: hex 6x6 (C++) {hex_rate:,.0f}/s, "
              f"territory_tabik 6x6 (adapter) {tabik_rate:,.0f}/s: {hex_rate / tabik_rate:.1f}x fewer")
        return
    print(f"{'loop':<34}{'games/s':>12}{'actions/s':>14}{'us/action':>12}")

    def row(label: str, result: tuple[float, float]) -> float:
        games, actions = result
        print(f"{label:<34}{games:>12,.1f}{actions:>14,.0f}{1e6 / actions:>12.2f}")
        return actions

    row("OpenSpiel hex (C++, 11x11)", spiel_loop(pyspiel.load_game("hex"), args.seconds))
    for name in args.games.split(","):
        spiel = row(f"OpenSpiel territory_{name} (adapter)", spiel_loop(pyspiel.load_game(f"territory_{name}"), args.seconds))
        native = row(f"native territory {name}", native_loop(name, args.seconds))
        print(f"{'':<34}adapter overhead: {1e6 / spiel - 1e6 / native:.2f} us/action ({native / spiel:.1f}x)")


if __name__ == "__main__":
    main()
