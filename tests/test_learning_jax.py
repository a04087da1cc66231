"""Training in JAX and the heads beyond policy and value (docs/learning.md): the engine's
network against JAX's forward pass for every shipped model and a freshly trained one,
a quick training run whose loss falls and whose model plays, the margin and ownership
targets, analysis and the ownership picture. The JAX tests skip without JAX (the test
extra installs it)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import territory
from territory.model import MLP_FORMAT, Model, shipped_models
from territory.puct import Puct, PuctAnalysis
from territory.train import TrainConfig, random_positions, self_play, train

jax = pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
network_jax = pytest.importorskip("territory.network_jax")


def quick_config(tmp_path, **changes):
    config = dict(game="tabik", params={"size": 4}, out=str(tmp_path / "quick"), seed=3, rounds=8, minutes=None,
                  games=32, iterations=24, hidden=32, sample_moves=4, batch=128, replay=4, lr=3e-3,
                  checkpoint_every=8, eval_games=0, threads=1)
    config.update(changes)
    return TrainConfig(**config)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A model trained for a few CPU-seconds on Tabik 4x4, with both extra heads, and
    the training's log."""
    tmp_path = tmp_path_factory.mktemp("jax")
    last = train(quick_config(tmp_path))
    log = [json.loads(line) for line in (tmp_path / "quick" / "log.jsonl").read_text().splitlines()]
    return last, log


def start_of(model):
    return territory.new_game(model.meta["game"], **model.meta["params"])


def engine_and_jax(model, states):
    inputs = np.stack([model.inputs(s) for s in states]).astype(np.float32)
    return model.network().evaluate_heads(inputs), network_jax.forward(network_jax.to_jax(model), inputs)


def model_named(name, trained):
    """A shipped model; ``trained``, the fixture's; ``plain``, one without the margin and
    ownership heads (random weights, as a file of format 1 holds)."""
    if name == "plain":
        return Model.new(territory.Tabik(size=4), hidden=32, seed=5)
    return Model.load(trained[0] if name == "trained" else name)


@pytest.mark.parametrize("name", shipped_models() + ["trained", "plain"])
def test_the_engine_evaluates_every_head_as_jax_does(name, trained):
    model = model_named(name, trained)
    states = random_positions(start_of(model), 40, seed=7, max_moves=30)
    (logits, values, margins, owners), (j_logits, j_values, j_margins, j_owners) = engine_and_jax(model, states)
    assert logits.shape == j_logits.shape == (40, model.num_actions)
    assert np.allclose(logits, j_logits, atol=2e-4, rtol=1e-5)
    assert np.allclose(values, j_values, atol=1e-5)
    if name == "plain":  # policy and value only
        assert margins is None and owners is None and j_margins is None and j_owners is None
    else:  # every shipped model and a fresh one have both heads
        cells = len(start_of(model).ownership())
        assert margins is not None and owners is not None and owners.shape == (40, cells)
        assert np.allclose(margins, j_margins, atol=1e-4) and np.allclose(owners, j_owners, atol=1e-5)
        assert np.abs(values).max() > 0.05 and np.abs(owners).max() > 0.1  # a trained net, not zeros
    # The numpy forward pass (the batched protocol's) agrees too.
    np_logits, np_values = model.forward(np.stack([model.inputs(s) for s in states]))
    assert np.allclose(np_logits, j_logits, atol=2e-4) and np.allclose(np_values, j_values, atol=1e-5)


@pytest.mark.parametrize("start", [territory.Nume(n=2), territory.Migong()], ids=["nume", "migong"])
def test_heads_agree_on_the_other_games(start):
    model = Model.new(start, hidden=24, seed=4, margin=True, ownership=True)
    rng = np.random.default_rng(1)
    for w in model.weights.values():  # biases too, so that every path is exercised
        w += rng.normal(0, 0.05, w.shape).astype(np.float32)
    states = random_positions(start, 8, seed=2, max_moves=20)
    (logits, values, margins, owners), (j_logits, j_values, j_margins, j_owners) = engine_and_jax(model, states)
    assert np.allclose(logits, j_logits, atol=2e-4) and np.allclose(values, j_values, atol=1e-5)
    assert np.allclose(margins, j_margins, atol=1e-4) and np.allclose(owners, j_owners, atol=1e-5)
    assert owners.shape == (8, len(start.ownership()))


def test_a_quick_training_run_lowers_the_loss_and_its_model_plays(trained, tmp_path):
    last, log = trained
    rounds = [r for r in log if r["event"] == "round"]
    assert len(rounds) == 8 and all(r["ownership_loss"] > 0 and r["margin_loss"] > 0 for r in rounds)
    # On fresh self-play games (a seed training never drew), the trained weights' loss is
    # below the first weights'.
    first, final = Model.load(last.parent / "checkpoint-0000.npz"), Model.load(last)
    config = quick_config(tmp_path)
    held_out = self_play(final, start_of(first), config, np.random.default_rng(99))
    cells = len(start_of(first).ownership())

    def total(model):
        losses = network_jax.Trainer(model, 1e-3, 0, config.margin_weight, config.ownership_weight, cells).losses(*held_out)
        return dict(zip(network_jax.LOSSES, losses))

    before, after = total(first), total(final)
    assert after["value_loss"] < 0.95 * before["value_loss"] and after["ownership_loss"] < 0.95 * before["ownership_loss"]
    assert after["policy_loss"] < before["policy_loss"] and sum(after.values()) < sum(before.values())
    # The model loads and plays, as a path on the command line's agent spec too.
    assert final.has_margin and final.ownership_cells == 16 and final.meta["format"] == MLP_FORMAT
    result = territory.play_match("tabik", [f"puct:{last}:40", "random"], games=4, seed=2, size=4)
    assert sum(result.agent_wins) == 4 and result.agent_wins[0] >= 3


def test_training_is_seeded(tmp_path):
    a = Model.load(train(quick_config(tmp_path, rounds=2, out=str(tmp_path / "a"))))
    b = Model.load(train(quick_config(tmp_path, rounds=2, out=str(tmp_path / "b"))))
    assert set(a.weights) == set(b.weights)
    assert all(np.array_equal(a.weights[n], b.weights[n]) for n in a.weights)
    plain = Model.load(train(quick_config(tmp_path, rounds=1, out=str(tmp_path / "plain"), margin_weight=0,
                                          ownership_weight=0)))
    assert not plain.has_margin and plain.ownership_cells == 0


def test_a_cosine_decay_steps_the_learning_rate_down_to_zero(trained, tmp_path):
    last, _ = trained
    model = Model.load(last)
    batch = self_play(model, start_of(model), quick_config(tmp_path), np.random.default_rng(5))[:4]

    def weights_after(steps, **options):
        trainer = network_jax.Trainer(Model.load(last), 1e-3, 1e-2, **options)
        for _ in range(steps):
            trainer.step(*batch)
        return trainer.weights()

    def same(a, b):
        return all(np.array_equal(a[name], b[name]) for name in a)

    # The first step is the constant rate's (the schedule starts at lr); by the end of
    # the decay the rate is 0, so later steps change nothing, weight decay included.
    assert same(weights_after(1, decay_steps=3), weights_after(1))
    assert not same(weights_after(2, decay_steps=3), weights_after(2))
    assert not same(weights_after(3, decay_steps=3), weights_after(2, decay_steps=3))
    assert same(weights_after(5, decay_steps=3), weights_after(3, decay_steps=3))
    assert not same(weights_after(5), weights_after(3))


def test_training_on_an_executor_gives_the_weights_of_the_local_run(tmp_path):
    import concurrent.futures as cf
    import multiprocessing

    changes = dict(rounds=2, games=6, iterations=12, solve_nodes=3000, search_value_weight=0.5)
    local = train(quick_config(tmp_path, out=str(tmp_path / "local"), **changes))
    # Spawned workers: forking this process, JAX's threads running, could deadlock.
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        remote = train(quick_config(tmp_path, out=str(tmp_path / "remote"), **changes), executor=pool)
    a, b = np.load(local), np.load(remote)
    assert sorted(a.files) == sorted(b.files) and all(np.array_equal(a[n], b[n]) for n in a.files if n != "meta")
    rounds = [json.loads(line) for line in (tmp_path / "local" / "log.jsonl").read_text().splitlines()][1:3]
    assert [r["event"] for r in rounds] == ["round", "round"] and all(0 < r["solved"] < 1 for r in rounds)


def test_analysis_gives_the_margin_and_the_ownership_map(trained):
    model = Model.load(trained[0])
    state = territory.Tabik(size=4)
    state.play("b2-b3")
    analysis = Puct(model, 50).analyse(state)
    visits, value = analysis
    assert isinstance(analysis, PuctAnalysis) and visits is analysis.visits and value == analysis.value
    assert visits.shape == (74,) and visits.sum() == 49 and -1 <= value <= 1
    assert state.action_to_move(int(np.argmax(visits))) == Puct(model, 50).choose(state)
    assert np.all(np.abs(analysis.values) <= 1) and np.all(analysis.values[visits == 0] == 0)
    inputs = model.inputs(state)[None, :]
    _, _, j_margin, j_owner = network_jax.forward(network_jax.to_jax(model), inputs)
    assert analysis.margin == pytest.approx(float(j_margin[0]), abs=1e-4)
    assert analysis.ownership.shape == (16,) and np.allclose(analysis.ownership, j_owner[0], atol=1e-5)
    picture = state.svg(ownership=analysis.ownership)
    assert picture.count('class="ownership"') == int((np.abs(analysis.ownership) >= 0.05).sum())
    # A model without the heads (as a file of format 1) gives neither.
    plain = Puct(Model.new(territory.Tabik(size=4), hidden=16), 20).analyse(territory.Tabik(size=4))
    assert plain.margin is None and plain.ownership is None and plain.visits.shape == (74,)


def test_import_territory_does_not_import_jax():
    code = "import sys, territory, territory.train; print(sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'optax', 'equinox')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_training_without_jax_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['jax'] = None\n"
            "from territory.train import TrainConfig, train\n"
            f"train(TrainConfig(game='tabik', params={{'size': 3}}, out={str(tmp_path / 'x')!r}, rounds=1))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode != 0 and 'pip install "territory-games[train]"' in run.stderr
    assert not (tmp_path / "x").exists()


def test_the_web_analysis_carries_a_trained_models_ownership_and_margin(trained):
    session = pytest.importorskip("territory.web.session")
    state = territory.Tabik(size=4)
    state.play("b2-b3")
    stats = session.search(Puct(trained[0], 30), state)
    analysis = Puct(trained[0], 30).analyse(state)
    cells = [c.name for c in territory.geometry.board_of(state).cells]
    assert stats.margin == pytest.approx(analysis.margin)
    assert list(stats.ownership) == cells and stats.ownership[cells[5]] == pytest.approx(float(analysis.ownership[5]))
