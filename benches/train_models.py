#!/usr/bin/env python3
"""The training runs of the shipped models of the default boards and of Tabik 6x6
(docs/learning.md, "Shipped models"), too long for the tests: each run's whole configuration is here, so
that a shipped model can be trained again and checked.

    python benches/train_models.py train NAME [NAME ...] [--out DIR] [--minutes M]
    python benches/train_models.py ship NAME [--out DIR] [--models DIR]
    python benches/train_models.py list

``train`` runs each recipe into OUT/NAME (default runs/NAME), for its recorded number of
rounds (a recipe with a ``base`` first runs the base into OUT/NAME-base, then goes on
from its last checkpoint, ``--init``): the same seed and rounds give the same weights on any number of threads, so
the file it ends with should be the shipped one (compare the arrays after ``ship
--models`` to a scratch directory; whole runs not yet re-run: 35 to 66 CPU-minutes
each; ``tabik-8``'s first 20 rounds were, with ``--rounds 20``, and gave its run's
round-20 checkpoint bit for bit). ``--minutes`` bounds a run in CPU time instead (a new model,
not the shipped one). ``ship`` copies OUT/NAME/last.npz into the package's models with
the recipe's play settings (the search settings measured to play it best) and the
rounds it was trained for. Needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "python" / "territory" / "models"

#: Each shipped model's training: ``territory.train.TrainConfig``'s fields (``rounds``
#: is where the run was stopped: its last checkpoint); ``play``, the search settings it
#: plays best with (``Puct`` takes them from the model's meta, measured by
#: ``benches/learning.py elo``); ``best``, whether it is ``best_agent``'s choice for its
#: board (False: measured weaker than the tuned UCT at ``best``'s budget).
RECIPES: dict[str, dict[str, Any]] = {
    "migong": {
        "config": dict(game="migong", params={}, seed=1, hidden=128, games=16, iterations=200, expansion_visits=16,
                       sample_moves=8, buffer=100_000, checkpoint_every=10, eval_games=0, rollout_weight=0.5,
                       search_value_weight=0.5, threads=1, rounds=430),
        "play": {"rollout_weight": 0.7, "expansion_visits": 16},
        "best": True,
    },
    "nume-4": {
        "config": dict(game="nume", params={}, seed=1, hidden=128, games=32, iterations=64, sample_moves=6,
                       buffer=200_000, checkpoint_every=20, eval_games=0, rollout_weight=0.5,
                       search_value_weight=0.5, threads=1, rounds=360),
        "play": {"rollout_weight": 0.5, "expansion_visits": 16},
        "best": True,
    },
    "tabik-6": {
        "config": dict(game="tabik", params={"size": 6}, seed=2, hidden=128, games=32, iterations=3200,
                       expansion_visits=16, sample_moves=6, buffer=300_000, replay=16.0, checkpoint_every=25,
                       eval_games=0, rollout_weight=0.5, search_value_weight=0.5, features=True, augment=True,
                       threads=1, rounds=875),
        "play": {"c_puct": 3.0, "rollout_weight": 0.9, "expansion_visits": 48},
        "best": True,
    },
    "tabik-4": {
        # Stop 57: retrained with the margin and ownership heads (format 2); the value
        # targets of each game's last positions come from the exact solver.
        "config": dict(game="tabik", params={"size": 4}, seed=1, hidden=256, games=32, iterations=3200,
                       expansion_visits=16, sample_moves=4, buffer=200_000, replay=8.0, checkpoint_every=100,
                       eval_games=0, rollout_weight=0.5, search_value_weight=0.5, solve_nodes=20_000,
                       features=True, augment=True, threads=1, rounds=2055),
        "play": {"c_puct": 3.0, "rollout_weight": 0.5, "expansion_visits": 16},
        "best": True,
    },
    "nume-3": {
        # Stop 57: retrained with the margin and ownership heads, nume-4's recipe on n = 3.
        "config": dict(game="nume", params={"n": 3}, seed=1, hidden=128, games=32, iterations=64, sample_moves=6,
                       buffer=200_000, checkpoint_every=100, eval_games=0, rollout_weight=0.5,
                       search_value_weight=0.5, threads=1, rounds=3649),
        "play": {"rollout_weight": 0.5, "expansion_visits": 32},
        "best": True,
    },
    "tabik-8": {
        # Stop 56: stop 54's run (the base, 65.6 CPU-minutes) went on from its round 400
        # with self-play searches four times deeper, for 52 CPU-minutes (117.6 in all).
        "base": dict(game="tabik", params={}, seed=2, hidden=128, games=32, iterations=3200, expansion_visits=16,
                     sample_moves=8, buffer=300_000, replay=16.0, checkpoint_every=10, eval_games=0,
                     rollout_weight=0.5, search_value_weight=0.5, features=True, augment=True, threads=1,
                     rounds=400),
        "config": dict(game="tabik", params={}, seed=5, hidden=128, games=32, iterations=12800, expansion_visits=16,
                       sample_moves=8, buffer=300_000, replay=16.0, lr=1e-3, checkpoint_every=5, eval_games=0,
                       rollout_weight=0.5, search_value_weight=0.5, features=True, augment=True, threads=2,
                       init="tabik-8", rounds=73),
        "play": {"c_puct": 3.0, "rollout_weight": 0.5, "expansion_visits": 48, "policy_temperature": 0.5},
        "best": False,
    },
}


def recipe(name: str) -> dict[str, Any]:
    if name not in RECIPES:
        raise SystemExit(f"no recipe {name!r}; the recipes are {', '.join(RECIPES)}")
    return RECIPES[name]


def train(names: list[str], out: Path, minutes: float | None) -> None:
    from territory.train import TrainConfig, train as run

    known = {f.name for f in fields(TrainConfig)}

    def show(record: dict[str, Any]) -> None:
        if record["event"] != "round":
            print(json.dumps(record), flush=True)

    for name in names:
        entry = recipe(name)
        config = dict(entry["config"])
        assert set(config) <= known, set(config) - known
        if "base" in entry:  # trained for its recorded rounds; --minutes bounds the stage after it
            path = run(TrainConfig(out=str(out / f"{name}-base"), **{**entry["base"], "minutes": None}), progress=show)
            print(f"{name}-base: {path}")
            config["init"] = str(path)
        if minutes is not None:
            config.update(rounds=None, minutes=minutes)
        elif config["rounds"] is None:
            raise SystemExit(f"{name}: the recipe records no rounds yet; give --minutes")
        else:
            config["minutes"] = None
        path = run(TrainConfig(out=str(out / name), **config), progress=show)
        print(f"{name}: {path}")


def ship(name: str, out: Path, models: Path) -> None:
    from territory.model import Model

    source = out / name / "last.npz"
    model = Model.load(source)
    rounds = [json.loads(line) for line in (out / name / "log.jsonl").read_text().splitlines()]
    # A finished run's last.npz is its last round's; a stopped one's, its last checkpoint's.
    done = [r["round"] for r in rounds if r["event"] == "done"]
    checkpoints = [r["round"] for r in rounds if r["event"] == "checkpoint"]
    last = done[-1] if done else checkpoints[-1] if checkpoints else 0
    model.meta["trained"] = {**model.meta["trained"], "rounds": last, "minutes": None}
    model.meta["play"] = dict(recipe(name)["play"])
    model.meta["best"] = recipe(name)["best"]
    models.mkdir(parents=True, exist_ok=True)
    model.save(models / f"{name}.npz")
    print(f"{name}: {source} (round {last}) -> {models / (name + '.npz')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("train", help="train models again from their recipes")
    p.add_argument("names", nargs="+", metavar="NAME")
    p.add_argument("--out", type=Path, default=ROOT / "runs")
    p.add_argument("--minutes", type=float, default=None, help="CPU minutes instead of the recorded rounds")
    p = commands.add_parser("ship", help="copy a run's last checkpoint into the package's models")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--out", type=Path, default=ROOT / "runs")
    p.add_argument("--models", type=Path, default=MODELS)
    commands.add_parser("list", help="the recipes")
    args = parser.parse_args()
    if args.command == "train":
        train(args.names, args.out, args.minutes)
    elif args.command == "ship":
        ship(args.name, args.out, args.models)
    else:
        for name, r in RECIPES.items():
            print(name, json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
