"""Measures a trained Puct model (docs/learning.md): Elo against UCT given the same time
per move, the optimal-move rate on positions the solver settles, and the curves of a
training log.

    python benches/learning.py elo tabik-6 --games 400 --iterations 200
    python benches/learning.py optimal tabik-4 --positions 500 --iterations 400
    python benches/learning.py speed tabik-6
    python benches/learning.py plot runs/tabik-6/log.jsonl docs/img/learning-tabik-6.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import territory
from territory.agents import Uct
from territory.model import Model, single_threaded_blas
from territory.puct import Puct
from territory.train import equal_time_uct_iterations, match_from_openings, optimal_move_rate, random_positions


def start_of(model: Model):
    return territory.new_game(model.meta["game"], **model.meta["params"])


def run_elo(args: argparse.Namespace) -> dict:
    model = Model.load(args.model)
    start = start_of(model)
    puct = Puct(model, args.iterations, c_puct=args.c_puct, rollout_weight=args.rollout_weight,
                expansion_visits=args.expansion_visits)
    uct_iterations = args.uct_iterations or equal_time_uct_iterations(puct, start, seed=args.seed)
    began = time.perf_counter()
    result = match_from_openings(start, [puct, Uct(iterations=uct_iterations)], args.games, args.seed, args.opening_moves)
    return {"model": args.model, "game": model.meta["game"], "params": model.meta["params"],
            "puct_iterations": args.iterations, "rollout_weight": puct.rollout_weight,
            "expansion_visits": puct.expansion_visits, "c_puct": puct.c_puct, "uct_iterations": uct_iterations,
            "opening_moves": args.opening_moves, "seed": args.seed, **result,
            "seconds": round(time.perf_counter() - began, 1)}


def run_optimal(args: argparse.Namespace) -> dict:
    model = Model.load(args.model)
    puct = Puct(model, args.iterations, rollout_weight=args.rollout_weight)
    began = time.perf_counter()
    result = optimal_move_rate(puct, start_of(model), args.positions, seed=args.seed, min_moves=args.min_moves,
                               max_nodes=args.max_nodes)
    return {"model": args.model, "puct_iterations": args.iterations, "rollout_weight": puct.rollout_weight,
            "seed": args.seed, **result,
            "seconds": round(time.perf_counter() - began, 1)}


def run_speed(args: argparse.Namespace) -> dict:
    """Microseconds per network evaluation, per PUCT simulation (with and without
    rollouts) and per UCT iteration, from the start position, side by side."""
    import numpy as np

    model = Model.load(args.model)
    start = start_of(model)
    network = model.network()
    positions = random_positions(start, 1000, args.seed, max_moves=20)
    batch = np.array([model.inputs(state) for state in positions], np.float32)

    def best_of(run, count):
        run()
        times = []
        for _ in range(3):
            began = time.perf_counter()
            run()
            times.append(time.perf_counter() - began)
        return round(min(times) / count * 1e6, 2)

    n = args.iterations
    return {
        "model": args.model, "hidden": network.hidden, "inputs": network.inputs, "actions": network.actions,
        "network_evaluation_us": best_of(lambda: network.evaluate(batch), len(batch)),
        "puct_simulation_us": best_of(lambda: network.analyse(start, n), n),
        "puct_simulation_with_rollouts_us": best_of(lambda: network.analyse(start, n, rollout_weight=0.5), n),
        "puct_simulation_expansion_8_us": best_of(
            lambda: network.analyse(start, n, rollout_weight=0.5, expansion_visits=8), n),
        "uct_iteration_us": best_of(lambda: Uct(iterations=n).analyse(start), n),
    }


def run_plot(args: argparse.Namespace) -> dict:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = [json.loads(line) for line in open(args.log)]
    rounds = [r for r in records if r["event"] == "round"]
    checks = [r for r in records if r["event"] == "checkpoint" and "vs_uct" in r]
    fig, (loss, elo) = plt.subplots(1, 2, figsize=(11, 4))
    minutes = [r["seconds"] / 60 for r in rounds]
    loss.plot(minutes, [r["policy_loss"] for r in rounds], label="policy (cross-entropy)")
    loss.plot(minutes, [r["value_loss"] for r in rounds], label="value (squared error)")
    for key, label in (("margin_loss", "margin (squared error / cells)"), ("ownership_loss", "ownership (squared error)")):
        if any(r.get(key) for r in rounds):  # a model with that head (docs/learning.md)
            loss.plot(minutes, [r.get(key, 0.0) for r in rounds], label=label)
    loss.set_xlabel("minutes of training")
    loss.set_ylabel("loss")
    loss.legend()
    loss.set_title(args.title or args.log)
    for key, label in (("vs_uct", "against UCT, same time per move"), ("vs_previous", "against the previous checkpoint")):
        xs = [r["seconds"] / 60 for r in checks]
        score = [(r[key]["wins"][0] + 0.5 * r[key]["wins"][2]) / max(1, sum(r[key]["wins"])) for r in checks]
        elo.plot(xs, score, marker="o", label=label)
    elo.axhline(0.5, color="grey", lw=0.5)
    elo.set_ylim(0, 1)
    elo.set_xlabel("minutes of training")
    elo.set_ylabel("score of the checkpoint")
    elo.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=80)
    return {"written": args.out, "rounds": len(rounds), "checkpoints": len(checks)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(required=True)
    p = commands.add_parser("elo", help="Puct against UCT with the same time per move")
    p.add_argument("model")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--rollout-weight", type=float, default=None)
    p.add_argument("--expansion-visits", type=int, default=None)
    p.add_argument("--c-puct", type=float, default=None)
    p.add_argument("--uct-iterations", type=int, default=None)
    p.add_argument("--opening-moves", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_elo)
    p = commands.add_parser("optimal", help="the optimal-move rate on solved positions")
    p.add_argument("model")
    p.add_argument("--positions", type=int, default=500)
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--rollout-weight", type=float, default=None)
    p.add_argument("--min-moves", type=int, default=2)
    p.add_argument("--max-nodes", type=int, default=2_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_optimal)
    p = commands.add_parser("speed", help="microseconds per network evaluation, PUCT simulation and UCT iteration")
    p.add_argument("model")
    p.add_argument("--iterations", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_speed)
    p = commands.add_parser("plot", help="loss and score curves of a training log")
    p.add_argument("log")
    p.add_argument("out")
    p.add_argument("--title", default=None)
    p.set_defaults(run=run_plot)
    args = parser.parse_args()
    with single_threaded_blas():
        result = args.run(args)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
