"""Network evaluations per CPU second: the engine's network (Rust, what PUCT searches
call) against JAX's forward pass of the same weights on the same positions
(docs/learning.md). Needs the train extra (JAX).

    python benches/network_speed.py                       # every shipped model, one with both extra heads, one with a trunk
    python benches/network_speed.py tabik-8 "tabik-8 trunk 32x2"    # the MLP and a convolutional trunk, same board
    python benches/network_speed.py tabik-6 --batch 256 --json out.json
    python benches/network_speed.py --plot docs/img/network-speed.png --jax-one-thread

For each model, on ``--positions`` positions from random games: the engine one position
a call as a search evaluates its leaves (``Network.evaluate`` on the whole array: one
Python call, the positions evaluated one after the other in Rust), the engine with every
head (``evaluate_heads``), JAX's jitted forward pass one position a call (what a search
would pay to ask JAX for each leaf) and on batches of ``--batch`` positions (the best
case for JAX: no search evaluates leaves that way unless it waits for many). Times are
the process's CPU time (XLA's threads included), best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Callable

import numpy as np

import territory
from territory.model import Model, shipped_models
from territory.train import random_positions


def cpu_seconds(run: Callable[[], Any], repeats: int) -> float:
    run()  # warm: compiled code, caches
    best = float("inf")
    for _ in range(repeats):
        began = time.process_time()
        run()
        best = min(best, time.process_time() - began)
    return max(best, 1e-9)


def measure(name: str, model: Model, positions: int, batch: int, repeats: int, seed: int) -> dict[str, Any]:
    from territory import network_jax

    start = territory.new_game(model.meta["game"], **model.meta["params"])
    states = random_positions(start, positions, seed, max_moves=20)
    inputs = np.stack([model.inputs(s) for s in states]).astype(np.float32)
    network, module = model.network(), network_jax.to_jax(model)
    singles = [inputs[k:k + 1] for k in range(len(inputs))]
    batches = [inputs[k:k + batch] for k in range(0, len(inputs), batch)]
    rates = {
        "engine": len(inputs) / cpu_seconds(lambda: network.evaluate(inputs), repeats),
        "engine_all_heads": len(inputs) / cpu_seconds(lambda: network.evaluate_heads(inputs), repeats),
        "jax_one_a_call": len(inputs) / cpu_seconds(lambda: [network_jax.forward(module, x) for x in singles], repeats),
        f"jax_batch_{batch}": len(inputs) / cpu_seconds(lambda: [network_jax.forward(module, x) for x in batches],
                                                        repeats),
    }
    return {
        "model": name, "inputs": network.inputs, "hidden": network.hidden, "actions": network.actions,
        "trunk": network.trunk,
        "margin_head": network.has_margin, "ownership_cells": network.ownership_cells,
        **{f"{k}_per_s": round(v) for k, v in rates.items()},
        "engine_over_jax_one_a_call": round(rates["engine"] / rates["jax_one_a_call"], 1),
        f"engine_over_jax_batch_{batch}": round(rates["engine"] / rates[f"jax_batch_{batch}"], 2),
    }


def made_models() -> dict[str, Callable[[], Model]]:
    """Models made here with random weights (seeded), by name: a Tabik 6x6 MLP with both
    extra heads, and a Tabik 8x8 model with a convolutional trunk of 32 filters and 2
    residual blocks beside the shipped ``tabik-8`` (an MLP reading the same planes and
    features)."""
    return {
        "tabik-6 heads": lambda: Model.new(territory.Tabik(size=6), hidden=128, seed=1, features=True, margin=True,
                                           ownership=True),
        "tabik-8 trunk 32x2": lambda: Model.new(territory.Tabik(size=8), hidden=128, seed=1, features=True,
                                                margin=True, ownership=True, filters=32, blocks=2),
    }


def plot(results: list[dict[str, Any]], batch: int, out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [("engine_per_s", "engine (Rust), one position at a time"),
            ("engine_all_heads_per_s", "engine, every head"),
            ("jax_one_a_call_per_s", "JAX, one position a call"),
            (f"jax_batch_{batch}_per_s", f"JAX, batches of {batch}")]
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.8 / len(keys)
    xs = np.arange(len(results))
    for i, (key, label) in enumerate(keys):
        ax.bar(xs + i * width, [r[key] for r in results], width, label=label)
    ax.set_xticks(xs + width * (len(keys) - 1) / 2, [r["model"] for r in results])
    ax.set_yscale("log")
    ax.set_ylabel("network evaluations per CPU second")
    ax.set_title("The engine's network against JAX's forward pass (same weights, same positions)")
    ax.set_ylim(1e3, None)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(keys))
    fig.tight_layout()
    fig.savefig(out, dpi=80)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help="model files, shipped names or the names of made_models() (default: "
                        "every shipped model, a Tabik 6x6 model with the margin and ownership heads and a Tabik 8x8 "
                        "model with a trunk of 32 filters and 2 blocks)")
    parser.add_argument("--positions", type=int, default=512)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--plot", help="also draw them to this PNG file")
    parser.add_argument("--jax-one-thread", action="store_true",
                        help="XLA on one thread (XLA_FLAGS), as the engine's evaluation runs")
    args = parser.parse_args()
    if args.jax_one_thread:  # read when JAX is first imported, below
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                                   " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1").strip()
    made = made_models()
    names = args.models or shipped_models() + list(made)
    models = [(name, made[name]() if name in made else Model.load(name)) for name in names]
    results = []
    for name, model in models:
        results.append(measure(name, model, args.positions, args.batch, args.repeats, args.seed))
        print(json.dumps(results[-1]), flush=True)
    if args.json:
        with open(args.json, "w") as file:
            json.dump(results, file, indent=1)
    if args.plot:
        plot(results, args.batch, args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
