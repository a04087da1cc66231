"""The convolutional trunk of a model (docs/learning.md, "The convolutional trunk"): the
engine's evaluation against numpy's forward pass and JAX's on every game, files, the
refusal of weights that do not fit, and a quick training run with a trunk whose model
plays. The JAX tests skip without JAX (the test extra installs it)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import territory
from territory import _core
from territory.cli import main
from territory.model import FORMAT, MLP_FORMAT, NAMES, Model, trunk_names
from territory.puct import Puct
from territory.train import TrainConfig, random_positions, self_play, train

#: Every game, with and without its features where it has any (Nume and Migong have none),
#: and Tabik's with the trunk reading its 12 feature planes too (8 + 12 planes).
STARTS = [(territory.Tabik(size=5), False), (territory.Tabik(size=5), True), (territory.Nume(n=2), False),
          (territory.Migong(), False), (territory.Tabik(size=5), 20)]
IDS = ["tabik-5", "tabik-5-features", "nume-2", "migong", "tabik-5-feature-planes"]


def tiny(start, features=False, filters=4, blocks=1, seed=4):
    """A model with a tiny trunk and every weight, biases too, random (so that every path
    adds something); ``features`` an int: the features read, the trunk reading that many
    planes."""
    trunk_planes = None if isinstance(features, bool) else features
    model = Model.new(start, hidden=24, seed=seed, features=bool(features), margin=True, ownership=True,
                      filters=filters, blocks=blocks, trunk_planes=trunk_planes)
    rng = np.random.default_rng(seed)
    for w in model.weights.values():
        w += rng.normal(0, 0.05, w.shape).astype(np.float32)
    return model


def close(a, b, relative=1e-4):
    """Equal to ``relative`` of the largest magnitude."""
    return np.allclose(a, b, rtol=0, atol=relative * max(1.0, float(np.abs(b).max())))


@pytest.mark.parametrize(("start", "features"), STARTS, ids=IDS)
def test_the_engine_evaluates_a_trunk_as_numpy_and_jax_do(start, features):
    model = tiny(start, features)
    states = random_positions(start, 12, seed=2, max_moves=30)
    inputs = np.stack([model.inputs(s) for s in states]).astype(np.float32)
    assert inputs.shape[1] == model.input_size == int(np.prod(start.observation_shape)) + model.feature_len
    planes = features if type(features) is int else start.observation_shape[0]
    assert model.weights["c0w"].shape[1] == model.trunk_planes == planes
    network = model.network()
    assert network.trunk == (4, 1) and network.inputs == model.input_size
    assert "a trunk of 4 filters and 1 blocks" in repr(network)
    logits, values, margins, owners = network.evaluate_heads(inputs)
    np_logits, np_values = model.forward(inputs)
    assert close(logits, np_logits) and close(values, np_values)
    assert np.abs(values).max() > 1e-3 and np.ptp(logits) > 1e-2, "not a network of zeros"
    # The network reads the position's own inputs in a search: no size error, a move.
    running = next(s for s in states if not s.is_over)
    assert Puct(model, 8).choose(running) in running.legal_moves()
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    from territory import network_jax

    j_logits, j_values, j_margins, j_owners = network_jax.forward(network_jax.to_jax(model), inputs)
    assert close(logits, j_logits) and close(values, j_values)
    assert close(margins, j_margins) and close(owners, j_owners)
    # And back: the module's weights are the model's, in the engine's layout.
    back = network_jax.to_weights(network_jax.to_jax(model))
    assert set(back) == set(model.weights) and all(np.array_equal(back[n], model.weights[n]) for n in back)


def test_a_model_with_a_trunk_is_saved_and_loaded(tmp_path):
    state = territory.Tabik(size=4)
    model = tiny(state, features=True, filters=3, blocks=2)
    assert set(model.weights) == set(NAMES) | {"wm", "bm", "wo", "bo"} | set(trunk_names(2))
    assert trunk_names(1) == ["c0w", "c0b", "c1w", "c1b", "c2w", "c2b"]
    assert model.weights["c0w"].shape == (3, 8, 3, 3) and model.weights["c4w"].shape == (3, 3, 3, 3)
    assert model.weights["w1"].shape[0] == model.first_size == 3 * 16 + model.feature_len
    assert (model.meta["filters"], model.meta["blocks"], model.meta["format"]) == (3, 2, FORMAT)
    assert repr(model).endswith(f"a trunk of 3 filters and 2 residual blocks, 2 hidden layers of 24, "
                                f"{model.size()} weights)")
    path = tmp_path / "trunk.npz"
    model.save(path)
    loaded = Model.load(path)
    assert loaded.meta == model.meta and (loaded.filters, loaded.blocks) == (3, 2)
    assert set(loaded.weights) == set(model.weights)
    assert all(np.array_equal(loaded.weights[n], model.weights[n].astype(np.float16)) for n in model.weights)
    inputs = np.stack([loaded.inputs(s) for s in random_positions(state, 6, seed=1)]).astype(np.float32)
    assert close(loaded.network().evaluate(inputs)[0], loaded.forward(inputs)[0])
    assert Puct(str(path), 16).choose(state) in state.legal_moves()


def test_a_model_without_a_trunk_is_todays(tmp_path):
    state = territory.Tabik(size=4)
    model = Model.new(state, hidden=8, seed=2, filters=0, blocks=0)
    same = Model.new(state, hidden=8, seed=2)
    assert model.meta == same.meta and "filters" not in model.meta and model.meta["format"] == MLP_FORMAT
    assert all(np.array_equal(model.weights[n], same.weights[n]) for n in NAMES) and set(model.weights) == set(NAMES)
    assert (model.filters, model.blocks, model.first_size) == (0, 0, model.input_size)
    assert model.network().trunk is None and "trunk" not in repr(model.network())
    assert repr(model).endswith("2 hidden layers of 8, " f"{model.size()} weights)")


def test_a_trunk_reading_the_feature_planes_is_saved_loaded_and_bounded(tmp_path):
    state = territory.Tabik(size=4)
    model = tiny(state, features=20)
    assert model.meta["trunk_planes"] == 20 and "residual blocks on 20 planes" in repr(model)
    # 4 filters on 16 cells, then what the trunk does not read: the two score vectors.
    assert model.first_size == 4 * 16 + model.input_size - 20 * 16 == 64 + 2 * 17
    model.save(tmp_path / "planes.npz")
    loaded = Model.load(tmp_path / "planes.npz")
    assert loaded.meta == model.meta and loaded.trunk_planes == 20
    inputs = np.stack([loaded.inputs(s) for s in random_positions(state, 4, seed=1, max_moves=10)])
    assert close(loaded.network().evaluate_heads(inputs)[0], loaded.forward(inputs)[0])
    # Tabik 4x4's 226 feature values hold at most 14 whole planes: 8 to 22 planes.
    for bad in (7, 23, True, 20.0):
        with pytest.raises(ValueError, match=f"trunk_planes {bad!r} is not from 8 to 22"):
            Model.new(state, features=True, filters=4, blocks=1, trunk_planes=bad)
        with pytest.raises(ValueError, match=f"trunk_planes {bad!r} is not from 8 to 22"):
            Model(model.weights, {**model.meta, "trunk_planes": bad})
    with pytest.raises(ValueError, match="trunk_planes 9 is not from 8 to 8"):
        Model.new(state, filters=4, blocks=1, trunk_planes=9)
    with pytest.raises(ValueError, match="trunk_planes 20 needs a trunk: give filters"):
        Model.new(state, features=True, trunk_planes=20)


def test_trunk_weights_that_do_not_fit_are_refused_naming_them(tmp_path):
    state = territory.Tabik(size=4)
    model = tiny(state, filters=4, blocks=1)
    weights = dict(model.weights)
    with pytest.raises(ValueError, match=r"trunk weight c1w has shape \(4, 3, 3, 3\), not \(4, 4, 3, 3\)"):
        Model({**weights, "c1w": weights["c1w"][:, :3]}, model.meta)
    with pytest.raises(ValueError, match=r"trunk weight c0b has shape \(5,\), not \(4,\)"):
        Model({**weights, "c0b": np.zeros(5, np.float32)}, model.meta)
    with pytest.raises(ValueError, match="missing c2b"):
        Model({n: w for n, w in weights.items() if n != "c2b"}, model.meta)
    with pytest.raises(ValueError, match="c0w has shape \\(4, 8, 3, 3\\), not \\(5, 8, 3, 3\\)"):
        Model(weights, {**model.meta, "filters": 5})
    with pytest.raises(ValueError, match="weight w1 has 63 rows; its trunk's 4 filters on 4x4 and 0 features need 64"):
        Model({**weights, "w1": weights["w1"][:63]}, model.meta)
    for meta, message in (({"filters": -1}, "filters must be an integer from 0 to 4096, got -1"),
                          ({"blocks": True}, "blocks must be an integer from 0 to 1024, got True"),
                          ({"blocks": 10**12}, "blocks must be an integer from 0 to 1024, got 1000000000000"),
                          ({"filters": 0, "blocks": 1}, "a trunk of 1 blocks needs filters")):
        with pytest.raises(ValueError, match=message):
            Model(weights, {**model.meta, **meta})
    with pytest.raises(ValueError, match="a trunk of 2 blocks needs filters"):
        Model.new(state, filters=0, blocks=2)
    # A damaged file says which weight.
    path = tmp_path / "bad.npz"
    np.savez(path, meta=np.array(json.dumps(model.meta)), **{**weights, "c2w": np.zeros((4, 4, 3, 2), np.float32)})
    with pytest.raises(ValueError, match="c2w"):
        Model.load(path)
    # The engine's own checks, for weights given to it directly.
    mlp = [weights[n] for n in NAMES]
    convs = [(weights[f"c{k}w"], weights[f"c{k}b"]) for k in range(3)]
    assert _core.Network(*mlp, trunk=convs, board=(4, 4)).trunk == (4, 1)
    for kwargs, message in (
        ({"trunk": convs}, "give both trunk and board, or neither"),
        ({"trunk": convs, "board": (4, 0)}, r"board must be \(height, width\), each at least 1, got \(4, 0\)"),
        ({"trunk": convs[:2], "board": (4, 4)}, "a trunk of 0 blocks has one convolution and two a block; got 2"),
        ({"trunk": [], "board": (4, 4)}, "trunk needs at least its first convolution"),
        ({"trunk": [convs[0], (convs[1][0][:, :2], convs[1][1]), convs[2]], "board": (4, 4)},
         r"weight c1w has shape \[4, 2, 3, 3\]; a trunk of 4 filters on 8 planes needs \(4, 4, 3, 3\)"),
        ({"trunk": [(convs[0][0][:, :, :2], convs[0][1])] + convs[1:], "board": (4, 4)},
         r"weight c0w must be of shape \(filters, planes, 3, 3\)"),
        ({"trunk": convs[:2] + [(convs[2][0], convs[2][1][:3])], "board": (4, 4)},
         "weight c2b has 3 values; 4 filters need 4"),
        ({"trunk": convs, "board": (4, 5)}, "weight w1 has 64 rows; a trunk of 4 filters on a 4x5 board gives 80"),
    ):
        with pytest.raises(ValueError, match=message):
            _core.Network(*mlp, **kwargs)
    bad = convs[0][1].copy()
    bad[2] = np.nan
    with pytest.raises(ValueError, match="weight c0b holds a value that is not finite"):
        _core.Network(*mlp, trunk=[(convs[0][0], bad)] + convs[1:], board=(4, 4))
    # A network for another board size is refused by the search.
    with pytest.raises(ValueError, match="the network reads 128 input values"):
        _core.Network(*mlp, trunk=convs, board=(4, 4)).analyse(territory.Tabik(size=5), 10)


def test_blocks_without_filters_are_refused_on_the_command_line(tmp_path, capsys):
    assert main(["train", "tabik", "--size", "3", "--out", str(tmp_path / "t"), "--blocks", "2"]) == 2
    assert "--blocks 2 needs --filters" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


def test_a_quick_training_run_with_a_trunk_lowers_the_loss_and_its_model_plays(tmp_path):
    pytest.importorskip("jax", reason="the train extra (JAX) is not installed")
    from territory import network_jax

    config = TrainConfig(game="tabik", params={"size": 4}, out=str(tmp_path / "trunk"), seed=3, rounds=2,
                         minutes=None, games=16, iterations=16, hidden=16, sample_moves=4, batch=64, replay=2,
                         lr=3e-3, checkpoint_every=2, eval_games=0, threads=1, features=True, augment=True,
                         filters=4, blocks=1)
    last = train(config)
    model = Model.load(last)
    assert (model.filters, model.blocks, model.meta["trained"]["filters"]) == (4, 1, 4)
    # The loss on a fixed batch of self-play positions falls with a few gradient steps.
    data = self_play(model, territory.Tabik(size=4), config, np.random.default_rng(5))
    trainer = network_jax.Trainer(model, 3e-3, 0.0, config.margin_weight, config.ownership_weight, 16)
    before = trainer.losses(*data)
    for _ in range(30):
        trainer.step(*data)
    after = trainer.losses(*data)
    assert after[0] + after[1] < 0.9 * (before[0] + before[1]), (before, after)
    model.weights.update(trainer.weights())
    inputs = data[0][:32]
    assert close(model.network().evaluate(inputs)[0], network_jax.forward(trainer.module, inputs)[0])
    # The trained model loads into a PUCT agent and plays.
    model.save(tmp_path / "trained.npz")
    state = territory.Tabik(size=4)
    assert Puct(str(tmp_path / "trained.npz"), 24).choose(state) in state.legal_moves()
    result = territory.play_match("tabik", [f"puct:{last}:16", "random"], games=2, seed=1, size=4)
    assert sum(result.agent_wins) == 2
