#!/usr/bin/env python3
"""A network taught by the exact solver: how often its top move alone is optimal (issue 30).

Self-play teaches Tabik 4x4's network a prior close to uniform: its top move alone is
optimal in about half the positions where some move is not (docs/learning.md). On a board
the solver settles, the targets can be exact instead: every training position is solved
(``territory.agents.solve``), its policy target is uniform over the optimal moves and its
value target the solved value for the seat to move. The positions are drawn as
``territory.train.optimal_move_rate`` draws its test positions (a random number of random
moves from the start), from other seeds, and none of the test positions (nor any of their
symmetric images) is trained on. Minibatches are turned by a random board symmetry.

    python benches/solver_policy.py --data runs/tabik-4-solved.npz --decisions-only --out runs/tabik-4-solved
    python benches/solver_policy.py --data runs/tabik-4-solved-600k.npz --train-positions 600000 --jobs 2 ...

(``--jobs N`` solves the training positions in N forked processes: the same positions,
in the same order, for any N. ``--trunk FILTERS:BLOCKS`` puts the model's own
convolutional trunk in front of the MLP: a model the engine evaluates, which ``--out``
writes; ``--conv`` is a network in JAX alone.)

prints one JSON line: the data's size and the CPU seconds of each part, the losses, and
the rate on the test positions of ``optimal_move_rate`` (seed 0, the positions of the
figures in docs/learning.md), with the network's top move alone (no search), and the
same rate on the training positions. Needs the ``train`` extra (JAX). Everything random
comes from ``--seed``. The defaults are the best of the settings tried (docs/learning.md,
"Tabik 4x4: the network alone").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Optional

import numpy as np

import territory
from territory._seeds import mix
from territory.agents import NodeLimitError, solve
from territory.model import Model, single_threaded_blas
from territory.train import drawn_position, optimal_move_rate, optimal_move_rates


def symmetric_keys(state: Any) -> set[bytes]:
    """The position's observation under every board symmetry, as bytes: the keys that
    keep a test position's images out of the training data."""
    obs = state.observation().ravel()
    return {obs[source[:obs.size]].tobytes() for source, _ in state.symmetries()} | {obs.tobytes()}


class KeyRecorder:
    """An agent that notes the keys of every position it is asked about (and plays its
    first legal move): through ``optimal_move_rate``, exactly the positions it tests."""

    def __init__(self) -> None:
        self.keys: set[bytes] = set()

    def choose(self, state: Any) -> str:
        self.keys |= symmetric_keys(state)
        return state.legal_moves()[0]


def test_keys(start: Any, positions: int, seed: int, max_nodes: int) -> set[bytes]:
    """The keys of the positions ``optimal_move_rate`` tests with ``seed``, with their
    symmetric images."""
    recorder = KeyRecorder()
    optimal_move_rate(recorder, start, positions, seed=seed, max_nodes=max_nodes)
    return recorder.keys


def some_move_not_optimal(data: dict[str, np.ndarray]) -> np.ndarray:
    """Which examples have a legal move outside their policy target's optimal ones."""
    return (data["policies"] > 0).sum(axis=1) < data["masks"].sum(axis=1)


def candidates(start: Any, model: Model, seed: int, ks: range, exclude: set[bytes], max_nodes: int) -> list[Any]:
    """The drawn positions ``ks`` (``drawn_position``'s), in order, as (key, example or
    None when the solver gives up within ``max_nodes``): each key once, none of
    ``exclude``. An example is (inputs, legal mask, policy target uniform over the
    optimal actions, the solved value for the seat to move)."""
    out, seen = [], set()
    for k in ks:
        state = drawn_position(start, seed, k)
        if state is None:
            continue
        key = state.observation().tobytes()
        if key in seen or key in exclude:
            continue
        seen.add(key)
        try:
            solution = solve(state, max_nodes=max_nodes)
        except NodeLimitError:
            out.append((key, None))
            continue
        policy = np.zeros(state.num_actions, np.float32)
        for move in solution.best_moves:
            policy[state.move_to_action(move)] = 1.0 / len(solution.best_moves)
        out.append((key, (model.inputs(state), state.legal_mask(), policy, float(solution.value))))
    return out


#: Drawn positions per task of ``solved_examples``' workers.
CHUNK = 500
#: What ``solved_examples``' forked workers solve: ``candidates``' arguments but the draws.
_JOB: tuple[Any, ...] = ()


def _chunk(i: int) -> list[Any]:
    """The ``i``-th chunk of draws of ``_JOB``, solved."""
    start, model, seed, exclude, max_nodes, chunk = _JOB
    return candidates(start, model, seed, range(i * chunk, (i + 1) * chunk), exclude, max_nodes)


def solved_examples(start: Any, model: Model, count: int, seed: int, exclude: set[bytes], max_nodes: int,
                    jobs: int = 1, chunk: int = CHUNK) -> dict[str, np.ndarray]:
    """The first ``count`` distinct solved positions that ``seed`` draws: inputs, legal
    masks, policy targets (uniform over the optimal actions) and values (the solved
    value for the seat to move). ``jobs`` forked processes solve chunks of ``chunk``
    draws side by side; the chunks are merged in order, so the examples are the same
    for any ``jobs``. (Fork before JAX is loaded: the script solves before it trains.)"""
    global _JOB
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    _JOB = (start, model, seed, exclude, max_nodes, chunk)
    seen: set[bytes] = set()
    examples: list[Any] = []
    # Not multiprocessing.Pool: its terminate() can hang, killing a worker that holds
    # the task queue's lock; this pool cancels the chunks not begun and waits for the rest.
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) if jobs > 1 else None
    try:
        pending: deque[Any] = deque()
        i = 0
        while len(examples) < count:
            while pool is not None and len(pending) < 2 * jobs:
                pending.append(pool.submit(_chunk, i))
                i += 1
            if pool is None:
                found = _chunk(i)
                i += 1
            else:
                found = pending.popleft().result()
            for key, example in found:
                if key in seen:
                    continue
                seen.add(key)
                if example is not None and len(examples) < count:
                    examples.append(example)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        _JOB = ()
    inputs, masks, policies, values = zip(*examples) if examples else ((), (), (), ())
    return {"inputs": np.array(inputs, np.float32), "masks": np.array(masks), "policies": np.array(policies),
            "values": np.array(values, np.float32)}


def cpu_seconds() -> float:
    """This process's CPU time and that of its children (the solving workers)."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


class TopMove:
    """The network's own choice: the legal action with the largest logit (no search).
    ``logits`` maps a batch of inputs to their logits (the model's own forward pass, or
    a JAX network's). With ``symmetric``, the logits are the mean over the board's
    symmetries of the network's logits for the turned position, each taken back to the
    position's own actions: one batch of eight evaluations, still no search."""

    def __init__(self, model: Model, logits: Any = None, symmetric: bool = False) -> None:
        self.model = model
        self.logits = logits or (lambda inputs: model.forward(inputs)[0])
        self.symmetric = symmetric

    def action_logits(self, state: Any) -> np.ndarray:
        """The logits of the position's actions (with ``symmetric``, summed over the
        symmetries: the mean's order)."""
        inputs = self.model.inputs(state)
        if not self.symmetric:
            return self.logits(inputs[None])[0]
        turns = state.symmetries()
        turned = self.logits(np.stack([inputs[source[:inputs.size]] for source, _ in turns]))
        logits = np.zeros(state.num_actions)
        for (_, actions), row in zip(turns, turned):
            logits[actions] += row  # the turned position's action j is the position's actions[j]
        return logits

    def choose(self, state: Any) -> str:
        logits = self.action_logits(state)
        return state.action_to_move(int(np.argmax(np.where(state.legal_mask(), logits, -np.inf))))


def minibatches(data: dict[str, np.ndarray], start: Any, input_size: int, epochs: int, batch: int, seed: int) -> Any:
    """Each epoch's minibatches, in a seeded order, each turned by a random board
    symmetry: (epoch, inputs, policies, masks, values)."""
    turns = [(source[:input_size], actions) for source, actions in start.symmetries()]
    rng = np.random.default_rng(mix(seed, 1))
    n = len(data["inputs"])
    for epoch in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n - batch + 1, batch):
            rows = order[i:i + batch]
            source, actions = turns[int(rng.integers(len(turns)))]
            yield (epoch, data["inputs"][rows][:, source], data["policies"][rows][:, actions],
                   data["masks"][rows][:, actions], data["values"][rows])


def epoch_means(steps: Any) -> list[list[float]]:
    """The mean (policy, value) losses of each epoch, from (epoch, losses) pairs."""
    by_epoch: dict[int, list[Any]] = {}
    for epoch, losses in steps:
        by_epoch.setdefault(epoch, []).append(losses)
    return [[round(float(x), 4) for x in np.mean(losses, axis=0)[:2]] for _, losses in sorted(by_epoch.items())]


def train(model: Model, data: dict[str, np.ndarray], start: Any, epochs: int, batch: int, lr: float,
          weight_decay: float, seed: int, cosine: bool = False, set_loss: bool = False) -> list[list[float]]:
    """Trains ``model`` on the minibatches; with ``set_loss`` the policy loss is
    ``-log P(optimal set)`` (the network may put its mass on any one optimal move)
    instead of the cross-entropy with the uniform distribution over them."""
    from territory import network_jax

    decay_steps = epochs * (len(data["inputs"]) // batch) if cosine else 0
    trainer = network_jax.Trainer(model, lr, weight_decay, decay_steps=decay_steps,
                                  policy_loss=set_policy_loss if set_loss else network_jax.cross_entropy)
    history = epoch_means((epoch, trainer.step(*arrays))
                          for epoch, *arrays in minibatches(data, start, model.input_size, epochs, batch, seed))
    model.weights.update(trainer.weights())
    return history


def set_policy_loss(logits: Any, policy: Any, mask: Any) -> Any:
    """The mean over the batch of ``-log`` of the probability (the softmax of ``logits``
    over the legal actions, ``mask``) of the set of optimal moves: the actions with a
    positive target in ``policy``."""
    import jax
    import jax.numpy as jnp

    log_probs = jax.nn.log_softmax(jnp.where(mask, logits, -1e9))
    return -jax.nn.logsumexp(jnp.where(policy > 0, log_probs, -1e9), axis=1).mean()


def tabik_planes(start: Any) -> int:
    """The planes of Tabik's network input: its observation's, then its feature planes
    (its features end with the two score vectors of cells + 1 values)."""
    cells = start.params["size"] ** 2
    return start.observation_shape[0] + (len(start.features()) - 2 * (cells + 1)) // cells


def train_conv(model: Model, data: dict[str, np.ndarray], start: Any, channels: int, blocks: int, hidden: int,
               epochs: int, batch: int, lr: float, weight_decay: float, seed: int) -> tuple[Any, list[list[float]]]:
    """A convolutional network, in JAX only (the engine evaluates the model's own trunk,
    ``--trunk``, not this one): the observation
    and feature planes through a 3x3 convolution to ``channels`` planes and ``blocks``
    residual 3x3 convolutions (ReLU), then one hidden layer of ``hidden`` on those planes
    and Tabik's two score vectors, then the policy and value heads; the same loss, step
    (``network_jax``'s), optimiser (with a cosine learning-rate decay) and minibatches as
    the MLP's. Returns
    the network's batched logits function and the losses by epoch."""
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax  # type: ignore[import-untyped, unused-ignore]

    from territory import network_jax

    k = start.params["size"]
    cells = k * k
    planes = tabik_planes(start)
    vectors = model.input_size - planes * cells

    class ConvNet(eqx.Module):
        convs: list
        head: eqx.nn.Linear
        policy: eqx.nn.Linear
        value: eqx.nn.Linear

        def __init__(self, key: Any) -> None:
            keys = jax.random.split(key, blocks + 4)
            self.convs = [eqx.nn.Conv2d(planes if i == 0 else channels, channels, 3, padding=1, key=keys[i])
                          for i in range(blocks + 1)]
            self.head = eqx.nn.Linear(channels * cells + vectors, hidden, key=keys[-3])
            self.policy = eqx.nn.Linear(hidden, start.num_actions, key=keys[-2])
            self.value = eqx.nn.Linear(hidden, 1, key=keys[-1])

        def __call__(self, x: Any) -> tuple[Any, Any, None, None]:
            h = jax.nn.relu(self.convs[0](x[:planes * cells].reshape(planes, k, k)))
            for conv in self.convs[1:]:
                h = h + jax.nn.relu(conv(h))
            z = jax.nn.relu(self.head(jnp.concatenate([h.ravel(), x[planes * cells:]])))
            return self.policy(z), jnp.tanh(self.value(z)[0]), None, None  # no margin or ownership head

    steps = epochs * (len(data["inputs"]) // batch)
    optimiser = optax.adamw(optax.cosine_decay_schedule(lr, max(steps, 1)), weight_decay=weight_decay)

    net = ConvNet(jax.random.PRNGKey(mix(seed, 2) % 2**31))
    state = optimiser.init(eqx.filter(net, eqx.is_array))
    history = []
    # The MLP trainer's jitted step and loss (network_jax), on this module and optimiser.
    for epoch, *arrays in minibatches(data, start, model.input_size, epochs, batch, seed):
        net, state, losses = network_jax._step(net, state, network_jax._batch(*arrays, None, None), optimiser,
                                               (0.0, 0.0, 1.0))
        history.append((epoch, np.asarray(losses)))
    logits = eqx.filter_jit(lambda net, x: jax.vmap(net)(x)[0])
    return (lambda inputs: np.asarray(logits(net, jnp.asarray(inputs, jnp.float32)))), epoch_means(history)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=4, help="Tabik's board size (default 4)")
    parser.add_argument("--train-positions", type=int, default=60_000)
    parser.add_argument("--test-positions", type=int, default=300)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=150)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--weight-decay", type=float, default=0.2)
    parser.add_argument("--max-nodes", type=int, default=2_000_000, help="the solver's limit on the test positions "
                        "(optimal_move_rate's)")
    parser.add_argument("--train-max-nodes", type=int, default=200_000, help="the solver's limit on the training "
                        "positions (a position it does not settle is not trained on)")
    parser.add_argument("--jobs", type=int, default=1, help="processes solving the training positions (the same "
                        "positions for any number; default 1)")
    parser.add_argument("--chunk", type=int, default=CHUNK, help=f"draws per task of those processes (default {CHUNK})")
    parser.add_argument("--seed", type=int, default=1, help="the training data's and the weights' seed (the test "
                        "positions are always those of seed 0)")
    parser.add_argument("--out", default=None, help="a directory for the model (model.npz)")
    parser.add_argument("--data", default=None, help="an .npz file of the solved training positions: read if it "
                        "exists, else written")
    parser.add_argument("--decisions-only", action="store_true", help="train only on the positions where some "
                        "move is not optimal")
    parser.add_argument("--use-first", type=int, default=None, metavar="N", help="train on the first N solved "
                        "positions only (of --data's; the learning curve of docs/learning.md)")
    parser.add_argument("--cosine", action="store_true", help="the MLP's learning rate falls to 0 along a cosine "
                        "over the run (the convolutional network's always does)")
    parser.add_argument("--set-loss", action="store_true", help="the MLP's policy loss is -log of the probability "
                        "of the set of optimal moves, not the cross-entropy with the uniform distribution over them")
    parser.add_argument("--conv", default=None, metavar="CHANNELS:BLOCKS", help="a convolutional network instead "
                        "of the MLP (in JAX only: the engine evaluates --trunk's, not this one, so no --out), with --hidden units in its "
                        "dense layer, e.g. 64:4")
    parser.add_argument("--trunk", default=None, metavar="FILTERS:BLOCKS", help="the model's own convolutional trunk "
                        "(Model.new's filters and residual blocks of two convolutions) in front of its two dense "
                        "layers of --hidden: a model the engine evaluates, so --out may write it, e.g. 32:3")
    parser.add_argument("--trunk-features", action="store_true", help="the trunk reads Tabik's feature planes "
                        "(group sizes, stones in held sizes) beside the observation's, not the dense layer alone")
    args = parser.parse_args()

    def pair(flag: str, text: Optional[str], first: str) -> Optional[tuple[int, int]]:
        """``text`` "A:B" as (A, B), A at least 1 and B at least 0; None if not given."""
        if text is None:
            return None
        parts = text.split(":")
        if len(parts) != 2 or not all(p.isdigit() for p in parts) or int(parts[0]) < 1:
            parser.error(f"{flag} takes {first}:BLOCKS, at least 1 {first.lower()[:-1]} and 0 blocks, not {text!r}")
        return int(parts[0]), int(parts[1])

    conv = pair("--conv", args.conv, "CHANNELS")
    if conv is not None and args.out:
        parser.error("--conv trains a network the engine cannot evaluate: it has no --out")
    if args.trunk_features and args.trunk is None:
        parser.error("--trunk-features needs --trunk")
    if args.trunk is not None and conv is not None:
        parser.error("--trunk and --conv are two kinds of network: give one")
    trunk = pair("--trunk", args.trunk, "FILTERS") or (0, 0)

    if args.jobs < 1 or args.chunk < 1:
        parser.error(f"--jobs and --chunk must be at least 1, not {args.jobs} and {args.chunk}")
    start = territory.Tabik(size=args.size)
    trunk_planes = tabik_planes(start) if args.trunk_features else None
    model = Model.new(start, hidden=args.hidden, seed=args.seed, features=True, solver_targets=True,
                      filters=trunk[0], blocks=trunk[1], trunk_planes=trunk_planes)
    cpu = cpu_seconds()
    cache = Path(args.data) if args.data else None
    if cache is not None and cache.exists():
        with np.load(cache) as saved:
            data = {name: saved[name] for name in saved.files}
    else:
        exclude = test_keys(start, args.test_positions, 0, args.max_nodes)
        data = solved_examples(start, model, args.train_positions, 1000 + args.seed, exclude, args.train_max_nodes,
                               args.jobs, args.chunk)
        if cache is not None:
            np.savez_compressed(cache, **data)
    data_seconds = cpu_seconds() - cpu
    if args.use_first is not None:
        if args.use_first < 1:
            parser.error(f"--use-first must be at least 1, not {args.use_first}")
        data = {name: array[:args.use_first] for name, array in data.items()}
    decisions = some_move_not_optimal(data)
    if args.decisions_only:
        data = {name: array[decisions] for name, array in data.items()}
    if len(data["inputs"]) < args.batch:
        among = f" (the decisions among {len(decisions)})" if args.decisions_only else ""
        parser.error(f"{len(data['inputs'])} training positions{among} are fewer than a batch of {args.batch}: "
                     "train on more positions, or with a smaller --batch")
    with single_threaded_blas():
        if conv is None:
            logits_of = None
            history = train(model, data, start, args.epochs, args.batch, args.lr, args.weight_decay, args.seed,
                            args.cosine, args.set_loss)
        else:
            logits_of, history = train_conv(model, data, start, *conv, args.hidden, args.epochs, args.batch, args.lr,
                                            args.weight_decay, args.seed)
        train_seconds = cpu_seconds() - cpu - data_seconds
        top_move = TopMove(model, logits_of)
        result, symmetric = optimal_move_rates([top_move, TopMove(model, logits_of, symmetric=True)], start,
                                               args.test_positions, seed=0, max_nodes=args.max_nodes)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        model.save(Path(args.out) / "model.npz")
    # The same rate on the training positions where some move is not optimal: what the
    # network learned, beside what it generalised.
    rows = some_move_not_optimal(data)
    logits = top_move.logits(data["inputs"][rows])
    picks = np.argmax(np.where(data["masks"][rows], logits, -np.inf), axis=1)
    train_rate = float(np.mean(data["policies"][rows][np.arange(len(picks)), picks] > 0))
    print(json.dumps({
        "size": args.size, "train_positions": len(data["inputs"]), "some_move_not_optimal": int(decisions.sum()),
        "hidden": args.hidden, "conv": args.conv, "trunk": args.trunk, "trunk_features": args.trunk_features,
        "cosine": args.cosine, "set_loss": args.set_loss, "epochs": args.epochs,
        "losses_first_last": [history[0], history[-1]],
        "train_rate": round(train_rate, 4),
        "data_cpu_seconds": round(data_seconds, 1), "train_cpu_seconds": round(train_seconds, 1),
        "test": {k: v for k, v in result.items() if k != "misses"},
        "test_symmetric": {k: v for k, v in symmetric.items() if k != "misses"},
    }))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("solver_policy.py: interrupted", file=sys.stderr)
        sys.exit(130)
