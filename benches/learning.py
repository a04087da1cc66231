"""Measures a trained Puct model (docs/learning.md): Elo against UCT given the same time
per move, the optimal-move rate on positions the solver settles, and the curves of a
training log; and tunes UCT's exploration constant (docs/strength.md).

    python benches/learning.py elo tabik-6 --games 400 --iterations 200
    python benches/learning.py elo puct:tabik-6:400:c=2,expand=8 --games 400 --uct-c 0.7
    python benches/learning.py sweep tabik --size 6 --c 0.3,0.5,0.7,1.0,1.4,2.0 --iterations 500 --games 100
    python benches/learning.py optimal tabik-4 --positions 500 --iterations 400
    python benches/learning.py optimal tabik-4 --positions 300 --top-move
    python benches/learning.py value tabik-4 --positions 1000
    python benches/learning.py speed tabik-6
    python benches/learning.py plot runs/tabik-6/log.jsonl docs/img/learning-tabik-6.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import territory
from territory.agents import Uct, parse_agent, tuned_uct_c
from territory.model import Model, single_threaded_blas
from territory.puct import Puct
from territory.train import (equal_time_uct_iterations, match_from_openings, optimal_move_rate, optimal_move_rates,
                             random_positions, solved_positions)


def start_of(model: Model):
    return territory.new_game(model.meta["game"], **model.meta["params"])


def run_elo(args: argparse.Namespace) -> dict:
    """PUCT (a model, or a whole ``puct:`` agent spec) against UCT with the same CPU time
    per move, UCT's ``c`` tuned for the board unless ``--uct-c`` says otherwise."""
    if args.model.lower().startswith("puct:"):
        puct = parse_agent(args.model)
        if (args.c_puct is not None or args.rollout_weight is not None or args.expansion_visits is not None
                or args.policy_temperature is not None):
            raise SystemExit("elo: give the search settings in the spec (puct:MODEL:N:c=C,...) or as options, not both")
        model = puct.model
    else:
        model = Model.load(args.model)
        puct = Puct(model, args.iterations, c_puct=args.c_puct, rollout_weight=args.rollout_weight,
                    expansion_visits=args.expansion_visits, policy_temperature=args.policy_temperature)
    start = start_of(model)
    c = tuned_uct_c(start) if args.uct_c == "tuned" else float(args.uct_c)
    uct_iterations = args.uct_iterations or equal_time_uct_iterations(puct, start, seed=args.seed)
    began = time.process_time()
    uct = Uct(iterations=uct_iterations, c=c)
    result = match_from_openings(start, [puct, uct], args.games, args.seed, args.opening_moves)
    return {"model": args.model, "game": model.meta["game"], "params": model.meta["params"],
            "puct_iterations": puct.iterations, "rollout_weight": puct.rollout_weight,
            "expansion_visits": puct.expansion_visits, "c_puct": puct.c_puct,
            "policy_temperature": puct.policy_temperature, "uct_iterations": uct_iterations,
            "uct_c": c, "opening_moves": args.opening_moves, "seed": args.seed, **result,
            "cpu_seconds": round(time.process_time() - began, 1)}


def game_params(args: argparse.Namespace) -> dict:
    """The game parameters of ``--size``, ``--n`` and ``--param KEY=VALUE`` (VALUE read as
    JSON when it can be: numbers, true, false, null; else a string)."""
    params = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--param {item!r}: expected KEY=VALUE")
        try:
            params[key] = json.loads(value)
        except ValueError:
            params[key] = value
    for key in ("size", "n"):
        if getattr(args, key) is not None:
            params[key] = getattr(args, key)
    return params


def run_sweep(args: argparse.Namespace) -> dict:
    """UCT at each exploration constant of ``--c`` against UCT at ``--reference`` (both
    with ``--iterations`` per move: the same CPU time, c does not change an iteration's
    cost), ``--games`` games each in pairs from random openings, both seats
    (``match_from_openings``): each c's Elo over the reference with its 95% interval,
    and the best c."""
    start = territory.new_game(args.game, **game_params(args))
    values = [float(v) for v in args.c.split(",")]
    reference = Uct(iterations=args.iterations, c=args.reference)
    began = time.process_time()
    rows = []
    for k, c in enumerate(values):
        if c == args.reference:
            rows.append({"c": c, "elo": 0.0, "elo_ci95": [0.0, 0.0], "reference": True})
            continue
        result = match_from_openings(start, [Uct(iterations=args.iterations, c=c), reference], args.games,
                                     args.seed, args.opening_moves)
        rows.append({"c": c, **result})
        print(f"c {c:<5g} {result['wins']} Elo {result['elo']:+.0f} ({result['elo_ci95'][0]:+.0f} .. "
              f"{result['elo_ci95'][1]:+.0f})", file=sys.stderr)
    best = max(rows, key=lambda r: r["elo"])
    return {"game": args.game, "params": dict(start.params), "iterations": args.iterations,
            "reference_c": args.reference, "games": args.games, "opening_moves": args.opening_moves,
            "seed": args.seed, "rows": rows, "best_c": best["c"],
            "cpu_seconds": round(time.process_time() - began, 1)}


def run_optimal(args: argparse.Namespace) -> dict:
    model = Model.load(args.model)
    began = time.process_time()
    if args.top_move:  # the network alone: its largest legal logit, and the mean over the symmetries'
        from solver_policy import TopMove

        plain, symmetric = optimal_move_rates([TopMove(model), TopMove(model, symmetric=True)], start_of(model),
                                              args.positions, seed=args.seed, min_moves=args.min_moves,
                                              max_nodes=args.max_nodes)
        return {"model": args.model, "agent": "top move", "seed": args.seed, **plain,
                "symmetric": {k: symmetric[k] for k in ("optimal", "rate")},
                "cpu_seconds": round(time.process_time() - began, 1)}
    puct = Puct(model, args.iterations, rollout_weight=args.rollout_weight)
    result = optimal_move_rate(puct, start_of(model), args.positions, seed=args.seed, min_moves=args.min_moves,
                               max_nodes=args.max_nodes)
    return {"model": args.model, "puct_iterations": args.iterations, "rollout_weight": puct.rollout_weight,
            "seed": args.seed, **result,
            "cpu_seconds": round(time.process_time() - began, 1)}


def run_value(args: argparse.Namespace) -> dict:
    """How often the value head's sign is the solved value's, on positions drawn as
    ``optimal`` draws them: distinct, settled by the solver, and won by one side (a
    solved value of 0 is left out)."""
    model = Model.load(args.model)
    began = time.process_time()
    counted = right = 0
    for state, solution in solved_positions(start_of(model), args.seed, args.min_moves, args.max_nodes,
                                            draws=50 * args.positions):
        if solution is not None and solution.value != 0:
            counted += 1
            right += (float(model.forward(model.inputs(state)[None])[1][0]) > 0) == (solution.value > 0)
            if counted == args.positions:
                break
    return {"model": args.model, "seed": args.seed, "positions": counted, "right": right,
            "rate": right / counted if counted else float("nan"), "cpu_seconds": round(time.process_time() - began, 1)}


def run_speed(args: argparse.Namespace) -> dict:
    """CPU microseconds per network evaluation, per PUCT simulation (with and without
    rollouts) and per UCT iteration, from the start position, side by side (one thread:
    the process's CPU time, which other work on the machine does not inflate)."""
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
            began = time.process_time()
            run()
            times.append(time.process_time() - began)
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
    p.add_argument("--policy-temperature", type=float, default=None,
                   help="the priors are softmax(logits / T) (default: the model's play setting, else 1)")
    p.add_argument("--uct-iterations", type=int, default=None)
    p.add_argument("--uct-c", default="tuned", help="UCT's exploration constant, or 'tuned' (default: the board's, "
                   "the game module's TUNED_UCT_C, territory.games)")
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
    p.add_argument("--top-move", action="store_true", help="rate the network's top move alone (no search), and the "
                   "top move of its logits summed over the board's symmetries")
    p.set_defaults(run=run_optimal)
    p = commands.add_parser("value", help="how often the value head's sign is the solved value's")
    p.add_argument("model")
    p.add_argument("--positions", type=int, default=1000)
    p.add_argument("--min-moves", type=int, default=2)
    p.add_argument("--max-nodes", type=int, default=2_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_value)
    p = commands.add_parser("speed", help="microseconds per network evaluation, PUCT simulation and UCT iteration")
    p.add_argument("model")
    p.add_argument("--iterations", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_speed)
    p = commands.add_parser("sweep", help="UCT's exploration constant: each c's Elo against a reference c")
    p.add_argument("game")
    p.add_argument("--size", type=int, default=None, help="Tabik's board size")
    p.add_argument("--n", type=int, default=None, help="Nume's board size")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="another game parameter")
    p.add_argument("--c", default="0.3,0.5,0.7,1.0,1.4,2.0", help="the values of c, separated by commas")
    p.add_argument("--reference", type=float, default=1.4, help="the c every other plays against (default 1.4)")
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--games", type=int, default=100, help="games per c (pairs of games, both seats)")
    p.add_argument("--opening-moves", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run_sweep)
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
