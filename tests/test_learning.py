"""The learned agent: the batched-leaf protocol of PuctSearch, the numpy model, the
Puct agent in matches and on the command line, and a tiny training run (docs/learning.md)."""

from __future__ import annotations

import importlib.util
import inspect
import re
import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

import territory
from territory import _core
from territory.model import FORMAT, MLP_FORMAT, NAMES, Model, shipped_models
from territory.puct import Puct, run_search
from territory.train import TrainConfig, random_positions, train

ROOT = Path(__file__).resolve().parent.parent
needs_jax = pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="training needs the train extra (JAX)")


def uniform(search, obs):
    return np.zeros((len(obs), search.num_actions), np.float32), np.zeros(len(obs), np.float32)


def test_leaves_and_backup_protocol():
    states = [territory.Tabik(size=4), territory.Tabik(size=4)]
    states[1].play("b2-b3")
    search = _core.PuctSearch(states, 50)
    obs = search.leaves()
    # One leaf per search: first the roots, whose observations are the states'.
    assert obs.shape == (2, 8, 4, 4) and obs.dtype == np.float32
    assert np.array_equal(obs[1], states[1].observation())
    rounds = 0
    while obs is not None:
        search.backup(*uniform(search, obs))
        obs = search.leaves()
        rounds += 1
    assert search.done and rounds == 50
    visits = search.visits()
    assert visits.shape == (2, 74)
    assert visits.sum(axis=1).tolist() == [49, 49]
    # Visits only on legal actions; the best action is the most visited.
    for state, row, best in zip(states, visits, search.best_actions()):
        assert set(np.flatnonzero(row)) <= set(np.flatnonzero(state.legal_mask()))
        assert row[best] == row.max()


def test_bad_evaluations_raise_and_leave_the_search_usable():
    search = _core.PuctSearch([territory.Tabik(size=4)], 10)
    with pytest.raises(ValueError, match="call leaves"):
        search.backup(np.zeros((1, 74), np.float32), np.zeros(1, np.float32))
    obs = search.leaves()
    with pytest.raises(ValueError, match="shape"):
        search.backup(np.zeros((1, 73), np.float32), np.zeros(1, np.float32))
    with pytest.raises(ValueError, match="finite"):
        search.backup(np.full((1, 74), np.nan, np.float32), np.zeros(1, np.float32))
    search.backup(*uniform(search, obs))
    assert search.visits().sum() == 0  # the root's own evaluation only


@pytest.mark.parametrize("args, message", [
    (([], 10), "at least one state"),
    (([territory.Tabik(size=4)], 0), "at least 1"),
    (([territory.Tabik(size=4), territory.Tabik(size=5)], 10), "share their parameters"),
    (([territory.Tabik(size=4), territory.Nume(n=1)], 10), "of one game"),
    (([territory.Tabik(size=4)], 10, float("nan")), "c_puct"),
    (([territory.Tabik(size=4)], 10, 1.5, 0.3, 2.0), "noise_fraction"),
    (([object()], 10), "native game states"),
])
def test_bad_searches_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        _core.PuctSearch(*args)


def test_a_finished_game_cannot_be_searched():
    state = territory.Tabik(size=2)
    while not state.is_over:
        state.play_random(0.5)
    with pytest.raises(ValueError, match="over"):
        _core.PuctSearch([state], 10)
    with pytest.raises(ValueError, match="over"):
        Puct(Model.new(territory.Tabik(size=2))).choose(state)


def test_several_leaves_per_search_make_bigger_batches_and_the_same_seed_the_same_search():
    model = Model.new(territory.Tabik(size=6), seed=3)
    states = [territory.Tabik(size=6)]
    a = run_search(model, states, 200, noise_fraction=0.25, seed=5, leaves_per_search=8)
    b = run_search(model, states, 200, noise_fraction=0.25, seed=5, leaves_per_search=8)
    assert np.array_equal(a.visits(), b.visits())
    assert a.visits().sum() == 199
    search = _core.PuctSearch(states, 200, leaves_per_search=8)
    assert len(search.leaves()) == 1  # the root alone, then up to 8 leaves a round
    search.backup(*uniform(search, np.zeros((1,))))
    assert len(search.leaves()) == 8


def test_model_forward_and_files(tmp_path):
    state = territory.Tabik(size=4)
    model = Model.new(state, hidden=16, seed=1, margin=True, ownership=True)
    obs = np.stack([state.observation(), state.observation()])
    logits, values = model.forward(obs)
    assert logits.shape == (2, 74) and values.shape == (2,) and np.all(np.abs(values) < 1)
    path = tmp_path / "m.npz"
    model.save(path)
    loaded = Model.load(path)
    assert loaded.meta == model.meta and loaded.meta["format"] == MLP_FORMAT  # 3: with a trunk
    assert set(loaded.weights) == set(NAMES) | {"wm", "bm", "wo", "bo"}
    assert loaded.has_margin and loaded.ownership_cells == 16
    assert np.allclose(loaded.forward(obs)[0], logits, atol=1e-2)
    with pytest.raises(ValueError, match="no model file"):
        Model.load(tmp_path / "missing.npz")
    with pytest.raises(ValueError, match="trained for tabik"):
        Puct(model).choose(territory.Tabik(size=5))


def test_model_files_of_another_format_are_refused_with_a_clear_message(tmp_path):
    model = Model.new(territory.Tabik(size=3), hidden=4)
    arrays = {n: w for n, w in model.weights.items()}
    for format_, message in ((FORMAT + 1, f"file format {FORMAT + 1}, written by a newer territory"),
                             ("2", "not a model file format"), (0, "not a model file format")):
        path = tmp_path / f"f{format_}.npz"
        np.savez(path, meta=np.array(json.dumps({**model.meta, "format": format_})), **arrays)
        with pytest.raises(ValueError, match=message):
            Model.load(path)
    # A head with half its weights is refused; a file of format 1 (no format) loads.
    path = tmp_path / "half.npz"
    np.savez(path, meta=np.array(json.dumps(model.meta)), wm=np.zeros((4, 1), np.float32), **arrays)
    with pytest.raises(ValueError, match="both wm and bm"):
        Model.load(path)
    old = {k: v for k, v in model.meta.items() if k != "format"}
    np.savez(tmp_path / "old.npz", meta=np.array(json.dumps(old)), **arrays)
    assert not Model.load(tmp_path / "old.npz").has_margin
    for name in shipped_models():  # every shipped file is of format 2 (stop 57 retrained nume-3 and tabik-4)
        model = Model.load(name)
        assert model.meta.get("format") == 2 and model.has_margin and model.ownership_cells > 0


def test_puct_plays_matches_and_parses_from_a_spec(tmp_path):
    path = tmp_path / "tiny.npz"
    Model.new(territory.Tabik(size=4), hidden=8).save(path)
    agent = territory.parse_agent(f"puct:{path}:30")
    assert isinstance(agent, Puct) and agent.iterations == 30
    assert territory.parse_agent(f"puct:{path}").iterations == 400
    result = territory.play_match("tabik", [agent, "random"], games=4, seed=1, size=4)
    assert sum(result.agent_wins) == 4
    with pytest.raises(ValueError, match="no model file"):
        territory.parse_agent("puct:missing.npz:30")
    with pytest.raises(ValueError, match="give a model"):
        territory.parse_agent("puct::30")


@pytest.mark.parametrize("name", shipped_models())
def test_shipped_models_play_their_game(name):
    model = Model.load(name)
    state = territory.new_game(model.meta["game"], **model.meta["params"])
    move = Puct(name, iterations=20).choose(state)
    assert move in state.legal_moves()


def test_shipped_model_beats_random():
    # The package (the wheel too) carries the six models.
    assert shipped_models() == ["migong", "nume-3", "nume-4", "tabik-4", "tabik-6", "tabik-8"]
    result = territory.play_match("tabik", [Puct("tabik-4", 50), "random"], games=10, seed=2, size=4)
    assert result.agent_wins[0] >= 9


def test_command_line_match_with_puct(tmp_path, capsys):
    from territory.cli import main

    path = tmp_path / "tiny.npz"
    Model.new(territory.Tabik(size=4), hidden=8).save(path)
    assert main(["match", "tabik", "--size", "4", "--agents", f"puct:{path}:20", "random", "--games", "2"]) == 0
    assert "Puct" in capsys.readouterr().out


def tiny_config(tmp_path, **changes):
    config = dict(game="tabik", params={"size": 3}, out=str(tmp_path / "run"), seed=4, hidden=8, minutes=None,
                  rounds=2, games=4, iterations=8, batch=16, checkpoint_every=1, eval_games=2, eval_iterations=4,
                  uct_iterations=10)
    config.update(changes)
    return TrainConfig(**config)


@needs_jax
def test_a_tiny_training_run_writes_checkpoints_and_a_log(tmp_path):
    last = train(tiny_config(tmp_path))
    out = tmp_path / "run"
    assert last == out / "last.npz"
    for name in ("checkpoint-0000.npz", "checkpoint-0001.npz", "checkpoint-0002.npz", "last.npz"):
        assert Model.load(out / name).meta["game"] == "tabik"
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert [r["event"] for r in log] == ["start", "round", "checkpoint", "round", "checkpoint", "done"]
    assert all(r["policy_loss"] > 0 and r["value_loss"] >= 0 for r in log if r["event"] == "round")
    checkpoint = log[2]
    assert sum(checkpoint["vs_previous"]["wins"]) == 2 and sum(checkpoint["vs_uct"]["wins"]) == 2
    # The same seed gives the same weights.
    again = train(tiny_config(tmp_path, out=str(tmp_path / "again")))
    a, b = Model.load(last), Model.load(again)
    assert all(np.array_equal(a.weights[n], b.weights[n]) for n in a.weights)


@needs_jax
def test_a_run_started_from_a_model_begins_with_its_weights_and_records_it(tmp_path):
    first = train(tiny_config(tmp_path, rounds=1, eval_games=0))
    second = train(tiny_config(tmp_path, out=str(tmp_path / "more"), init=str(first), rounds=1, eval_games=0))
    start, before = Model.load(tmp_path / "more" / "checkpoint-0000.npz"), Model.load(first)
    assert all(np.array_equal(start.weights[n], before.weights[n]) for n in before.weights)
    assert start.meta["trained"]["init"] == str(first)
    assert start.meta["trained"]["init_trained"] == before.meta["trained"]
    after = Model.load(second)
    assert not all(np.array_equal(after.weights[n], before.weights[n]) for n in before.weights)


@needs_jax
@pytest.mark.parametrize("changes, why", [
    (dict(hidden=16), "another architecture (weights b1, b2, w1, w2, wm, wo, wp, wv differ"),
    (dict(features=True), "another architecture (weights w1 differ"),
    (dict(margin_weight=0.0), "another architecture (weights bm, wm differ"),
    (dict(params={"size": 4}), "observations (8, 3, 3)"),
    (dict(game="nume", params={"n": 2}), "another game"),
    (dict(params={"size": 3, "pie": False}), "the pie rule on in training, off here"),
])
def test_a_run_refuses_to_start_from_a_model_it_cannot_continue(tmp_path, changes, why):
    first = train(tiny_config(tmp_path, rounds=1, eval_games=0))
    with pytest.raises(ValueError, match=re.escape(why)):
        train(tiny_config(tmp_path, out=str(tmp_path / "more"), init=str(first), **changes))
    assert not (tmp_path / "more").exists()


@needs_jax
def test_ctrl_c_keeps_the_last_checkpoint(tmp_path):
    def interrupt(record):
        if record["event"] == "round" and record["round"] == 3:
            raise KeyboardInterrupt

    last = train(tiny_config(tmp_path, rounds=10, checkpoint_every=2, eval_games=0), progress=interrupt)
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert log[-1]["event"] == "interrupted" and log[-1]["round"] == 3
    # last.npz is the checkpoint of round 2, whole.
    kept = Model.load(last)
    two = Model.load(tmp_path / "run" / "checkpoint-0002.npz")
    assert all(np.array_equal(kept.weights[n], two.weights[n]) for n in kept.weights)
    assert not (tmp_path / "run" / "checkpoint-0004.npz").exists()


# The network in the engine (territory._core.Network): searches, self-play and matches
# with no round trip to Python.

@pytest.mark.parametrize("start", [territory.Tabik(size=4), territory.Nume(n=2), territory.Migong()],
                         ids=["tabik", "nume", "migong"])
def test_the_engine_evaluates_the_network_as_numpy_does(start):
    model = Model.new(start, hidden=24, seed=2)
    for w in model.weights.values():  # biases too, so that every path is exercised
        w += np.random.default_rng(1).normal(0, 0.05, w.shape).astype(np.float32)
    obs = np.stack([s.observation().ravel() for s in random_positions(start, 30)]).astype(np.float32)
    logits, values = model.network().evaluate(obs)
    want_logits, want_values = model.forward(obs)
    assert np.allclose(logits, want_logits, atol=1e-4) and np.allclose(values, want_values, atol=1e-5)


def test_bad_weights_and_observations_are_refused():
    model = Model.new(territory.Tabik(size=4), hidden=8)
    w = [model.weights[n] for n in ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")]
    with pytest.raises(ValueError, match="weight b2 has 7 values"):
        _core.Network(*w[:3], w[3][:7], *w[4:])
    bad = w[4].copy()
    bad[0, 0] = np.inf
    with pytest.raises(ValueError, match="weight wp holds a value that is not finite"):
        _core.Network(*w[:4], bad, *w[5:])
    net = _core.Network(*w)
    assert (net.inputs, net.hidden, net.actions) == (128, 8, 74)
    with pytest.raises(ValueError, match=r"shape \(n, 128\)"):
        net.evaluate(np.zeros((2, 127), np.float32))
    with pytest.raises(ValueError, match="input values"):
        net.analyse(territory.Tabik(size=5), 10)
    with pytest.raises(ValueError, match="rollout_weight must be a number from 0 to 1"):
        net.analyse(territory.Tabik(size=4), 10, rollout_weight=1.5)
    with pytest.raises(ValueError, match="iterations must be from 1"):
        net.analyse(territory.Tabik(size=4), 0)
    over = territory.Tabik(size=4)
    while not over.is_over:
        over.play_random(0.0)
    with pytest.raises(ValueError, match="game is over"):
        net.self_play(over, 1, 10)


def test_analyse_proves_the_2x2_swap():
    state = territory.Tabik(size=2)
    state.play("a1-b1")
    zero = Model.new(state, hidden=4)
    for w in zero.weights.values():
        w[...] = 0
    visits, value, best, means = zero.network().analyse(state, 400, rollout_weight=1.0)
    # With the pie rule, the swap is the only winning answer (docs/solved.md): the search
    # proves it (value exactly 1) and stops before its 400 simulations.
    assert state.action_to_move(best) == "swap" and value == 1.0
    assert 0 < visits.sum() < 399 and means[best] == 1.0
    agent = Puct(zero, 400, rollout_weight=1.0)
    assert agent.choose(state) == "swap" and agent.choose(state) == "swap"


def test_self_play_in_the_engine_is_seeded_and_independent_of_the_threads():
    start = territory.Tabik(size=4)
    net = Model.new(start, hidden=16, seed=1).network()
    one = net.self_play(start, 6, 20, seed=3, threads=1, rollout_weight=0.5)
    two = net.self_play(start, 6, 20, seed=3, threads=2, rollout_weight=0.5)
    assert all(np.array_equal(one[k], two[k]) for k in one)
    assert not np.array_equal(net.self_play(start, 6, 20, seed=4)["policy"], one["policy"])
    n = int(one["lengths"].sum())
    assert one["obs"].shape == (n, 128) and one["policy"].shape == (n, 74) and one["masks"].shape == (n, 74)
    assert np.allclose(one["policy"].sum(axis=1), 1) and not (one["policy"] > 0)[~one["masks"]].any()
    # The first position of each game is the start; its mask the start's legal moves.
    firsts = np.concatenate([[0], np.cumsum(one["lengths"])[:-1]]).astype(int)
    assert all(np.array_equal(one["obs"][i], start.observation().ravel()) for i in firsts)
    assert all(np.array_equal(one["masks"][i], start.legal_mask()) for i in firsts)
    assert set(np.unique(one["results"])) <= {-1.0, 0.0, 1.0}
    assert one["values"].shape == (n,) and np.all(np.abs(one["values"]) <= 1)


def test_self_play_in_ranges_is_the_round_and_solved_positions_end_each_game():
    start = territory.Tabik(size=4)
    net = Model.new(start, hidden=16, seed=1).network()
    plain = net.self_play(start, 7, 16, seed=5, threads=1)
    whole = net.self_play(start, 7, 16, seed=5, threads=2, solve_nodes=3000)
    parts = [net.self_play(start, b - a, 16, seed=5, threads=1, first=a, solve_nodes=3000)
             for a, b in ((0, 3), (3, 4), (4, 7))]
    assert set(whole) == set(plain) and all(np.array_equal(np.concatenate([p[k] for p in parts]), whole[k])
                                            for k in whole)
    # The same games; a suffix of each is solved, and only those positions' results change.
    solved = whole["solved"]
    assert solved.dtype == bool and not plain["solved"].any() and 0 < solved.mean() < 1
    assert all(np.array_equal(whole[k], plain[k]) for k in whole if k not in ("results", "solved"))
    assert np.array_equal(whole["results"][~solved], plain["results"][~solved])
    assert not np.array_equal(whole["results"], plain["results"])
    at = 0
    for length in whole["lengths"]:
        game = solved[at:at + length]
        assert game[-1] and np.array_equal(game, np.sort(game))  # False then True
        at += length


def test_self_play_refuses_a_first_game_or_solve_limit_out_of_range():
    start = territory.Tabik(size=4)
    net = Model.new(start, hidden=8).network()
    for first in (-1, 2**64 - 3, 2**64):
        with pytest.raises(ValueError, match=re.escape("first must be from 0 to 2**64 - games (18446744073709551612 for 4 ")):
            net.self_play(start, 4, 8, first=first)
    assert len(net.self_play(start, 4, 8, first=2**64 - 4)["lengths"]) == 4
    with pytest.raises(ValueError, match=r"solve_nodes must be from 0 \(off\)"):
        net.self_play(start, 1, 8, solve_nodes=-1)


def test_a_solved_positions_value_target_is_its_exact_value_alone():
    from territory.train import examples

    data = {"obs": np.zeros((4, 2), np.float32), "policy": np.zeros((4, 3), np.float32),
            "masks": np.ones((4, 3), bool), "margins": np.zeros(4, np.float32), "ownership": np.zeros((4, 2), np.float32),
            "results": np.array([1, -1, 0, 1], np.float32), "values": np.array([0.5, 0.5, -0.5, -0.5], np.float32),
            "solved": np.array([False, False, True, True])}
    targets = examples(data, TrainConfig(search_value_weight=0.25))[3]
    assert targets.dtype == np.float32 and targets.tolist() == [0.875, -0.625, 0.0, 1.0]


def test_training_refuses_a_negative_solve_limit_before_it_writes_anything(tmp_path):
    with pytest.raises(ValueError, match=r"solve_nodes must be an int from 0 to 18446744073709551615, got -1"):
        train(TrainConfig(params={"size": 4}, out=str(tmp_path / "run"), solve_nodes=-1))
    assert not (tmp_path / "run").exists()


def test_self_play_shards_refuse_ranges_outside_the_round():
    from territory.train import self_play_shard

    start = territory.Tabik(size=4)
    model, config = Model.new(start, hidden=8), TrainConfig(games=4, iterations=8)
    for first, stop, message in ((-1, 2, "first must be an int from 0 to 3, got -1"),
                                 (4, 5, "first must be an int from 0 to 3, got 4"),
                                 (2, 2, "stop must be an int from 3 to 4, got 2"),
                                 (0, 5, "stop must be an int from 1 to 4, got 5")):
        with pytest.raises(ValueError, match=re.escape(message)):
            self_play_shard(model, start, config, 0, 1, first, stop)


def test_puct_is_a_native_agent_reproducible_on_any_threads_and_picklable():
    import pickle

    agent = Puct("tabik-4", 40, rollout_weight=0.5)
    a = territory.play_match("tabik", [agent, "uct:200"], games=6, seed=5, size=4, threads=1)
    b = territory.play_match("tabik", [agent, "uct:200"], games=6, seed=5, size=4, threads=2)
    assert np.array_equal(a.winner, b.winner) and np.array_equal(a.length, b.length)
    again = pickle.loads(pickle.dumps(agent))
    state = territory.Tabik(size=4)
    assert again.choose(state) == agent.choose(state) and again.rollout_weight == 0.5
    with pytest.raises(ValueError, match="rollout_weight must be a number from 0 to 1"):
        Puct("tabik-4", rollout_weight=-0.1)
    # With an expansion threshold too.
    agent = Puct("tabik-4", 80, rollout_weight=0.5, expansion_visits=4)
    again = pickle.loads(pickle.dumps(agent))
    assert again.expansion_visits == 4 and again.choose(state) == agent.choose(state)
    assert "expansion_visits=4" in repr(agent)
    c = territory.play_match("tabik", [agent, "uct:200"], games=4, seed=5, size=4, threads=2)
    assert np.array_equal(c.winner, territory.play_match("tabik", [agent, "uct:200"], games=4, seed=5, size=4,
                                                         threads=1).winner)
    with pytest.raises(ValueError, match="expansion_visits must be"):
        Puct("tabik-4", expansion_visits=0)
    # A model for another board is refused before a match starts (no engine panic).
    with pytest.raises(ValueError, match=r"trained for tabik \(size=4, pie=True\), not for tabik \(size=6"):
        territory.play_match("tabik", [agent, "uct:10"], games=2, size=6)
    with pytest.raises(ValueError, match="expansion_visits must be from 1"):
        Model.load("tabik-4").network().analyse(state, 10, expansion_visits=0)


def test_puct_plays_a_model_with_the_settings_it_was_trained_with(tmp_path):
    model = Model.new(territory.Tabik(size=4), hidden=8, trained={"rollout_weight": 0.25, "expansion_visits": 3})
    assert Puct(model).rollout_weight == 0.25 and Puct(model, rollout_weight=0).rollout_weight == 0
    assert Puct(model).expansion_visits == 3 and Puct(model, expansion_visits=1).expansion_visits == 1
    assert Puct(model).c_puct == 1.5
    # Settings measured to play best (meta "play") come first.
    tuned = Model.new(territory.Tabik(size=4), hidden=8, trained={"rollout_weight": 0.25},
                      play={"c_puct": 3.0, "rollout_weight": 0.5, "expansion_visits": 8, "policy_temperature": 0.5})
    assert (Puct(tuned).c_puct, Puct(tuned).rollout_weight, Puct(tuned).expansion_visits) == (3.0, 0.5, 8)
    assert Puct(tuned).policy_temperature == 0.5 and Puct(model).policy_temperature == 1.0
    assert Puct(tuned, c_puct=1.0).c_puct == 1.0 and Puct(tuned, policy_temperature=2).policy_temperature == 2.0
    assert Puct(Model.new(territory.Tabik(size=4), hidden=8)).rollout_weight == 0
    for name in shipped_models():
        meta = Model.load(name).meta
        assert meta["trained"]["rollout_weight"] == 0.5
        assert Puct(name).rollout_weight == meta.get("play", {}).get("rollout_weight", 0.5)
    assert (Puct("tabik-6").c_puct, Puct("tabik-6").rollout_weight, Puct("tabik-6").expansion_visits) == (3.0, 0.9, 48)


def tabik_features_by_hand(state):
    """Tabik's features (docs/learning.md) from the state's groups and scores."""
    k = state.params["size"]
    area = k * k
    own = state.color_of(state.to_move)
    planes = np.zeros((12, area), np.float32)
    count = {}
    for g in state.groups():
        count[g.color, g.size] = count.get((g.color, g.size), 0) + 1
    other = {"black": "white", "white": "black"}
    held = {c: max([s for (c2, s), n in count.items() if c2 == c and n > count.get((other[c], s), 0)], default=0)
            for c in ("black", "white")}
    for g in state.groups():
        side = 0 if g.color == own else 1
        cells = [(int(c[1:]) - 1) * k + (ord(c[0]) - ord("a")) for c in g.cells]
        planes[side * 4 + min(g.size, 4) - 1, cells] = 1
        if count[g.color, g.size] > count.get((other[g.color], g.size), 0):
            planes[8 + side, cells] = 1
        if held[g.color] == g.size:
            planes[10 + side, cells] = 1
    scores = np.zeros(2 * (area + 1), np.float32)
    scores[held[own]] = 1
    scores[area + 1 + held[other[own]]] = 1
    assert sorted(held.values()) == sorted(state.scores()) or state.is_over
    return np.concatenate([planes.ravel(), scores])


def test_tabik_features_say_what_scoring_makes_of_the_groups():
    for size in (3, 6, 9):
        for state in random_positions(territory.Tabik(size=size), 40, seed=size, max_moves=size * size):
            if not state.is_over:
                assert np.array_equal(state.features(), tabik_features_by_hand(state)), state.position()
    assert len(territory.Nume(n=2).features()) == 0 and len(territory.Migong().features()) == 0


@needs_jax
def test_a_model_with_features_plays_trains_and_searches_as_numpy_does(tmp_path):
    start = territory.Tabik(size=4)
    model = Model.new(start, hidden=16, seed=2, features=True)
    assert model.input_size == 128 + len(start.features()) and model.fits(start)
    for w in model.weights.values():
        w += np.random.default_rng(1).normal(0, 0.05, w.shape).astype(np.float32)
    positions = random_positions(start, 20)
    inputs = np.stack([model.inputs(s) for s in positions])
    logits, values = model.network().evaluate(inputs)
    want_logits, want_values = model.forward(inputs)
    assert np.allclose(logits, want_logits, atol=1e-4) and np.allclose(values, want_values, atol=1e-5)
    # Self-play writes the same inputs; the batched protocol gives them too.
    data = model.network().self_play(start, 2, 10, seed=1)
    assert data["obs"].shape[1] == model.input_size
    assert np.array_equal(data["obs"][0], model.inputs(start))
    search = run_search(model, positions[:3], 20)
    assert search.done
    # Saved and loaded, the model still reads the features.
    model.save(tmp_path / "m.npz")
    again = Model.load(tmp_path / "m.npz")
    assert again.feature_len == model.feature_len and again.fits(start)
    assert Puct(again, 20).choose(start) in start.legal_moves()
    assert not Model.new(start, hidden=4).fits(territory.Tabik(size=5))
    # A training run with features and the search's value in the value target.
    last = train(tiny_config(tmp_path, features=True, search_value_weight=0.5, eval_games=0, augment=True,
                             expansion_visits=2))
    assert Model.load(last).feature_len == len(territory.Tabik(size=3).features())
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert all(r["mean_length"] > 4 for r in log if r["event"] == "round")
    again = train(tiny_config(tmp_path, out=str(tmp_path / "again"), features=True, search_value_weight=0.5,
                              eval_games=0, augment=True, expansion_visits=2))
    assert all(np.array_equal(Model.load(last).weights[n], Model.load(again).weights[n]) for n in NAMES)
    plain = train(tiny_config(tmp_path, out=str(tmp_path / "plain"), features=True, search_value_weight=0.5,
                              eval_games=0, expansion_visits=2))
    assert not np.array_equal(Model.load(plain).weights["w1"], Model.load(last).weights["w1"])


def test_tabik_symmetries_map_inputs_and_actions_as_the_board_turns():
    for size, pie in ((3, True), (4, False), (5, True)):
        start = territory.Tabik(size=size, pie=pie)
        symmetries = start.symmetries()
        assert len(symmetries) == 8
        inputs_of = lambda s: np.concatenate([s.observation().ravel(), s.features()])  # noqa: E731
        rng = np.random.default_rng(size)
        for source, actions in symmetries:
            assert sorted(actions) == list(range(start.num_actions))
            state, image = start.copy(), start.copy()
            while not state.is_over:
                assert np.array_equal(inputs_of(image), inputs_of(state)[source])
                assert np.array_equal(image.legal_mask(), state.legal_mask()[actions])
                action = int(rng.choice(state.legal_actions()))
                state.apply_action(action)
                image.apply_action(int(np.flatnonzero(actions == action)[0]))
            assert image.scores() == state.scores()


def test_the_engine_chooses_moves_for_many_positions_as_an_agent_does_and_refuses_bad_batches():
    from territory.train import positions_through_games

    states = positions_through_games(territory.Tabik(size=4), 12, seed=3)
    assert len(states) == 12 and not any(s.is_over for s in states)
    # Without rollouts or noise a PUCT search draws nothing: the engine's batch gives
    # the moves Puct.choose gives one position at a time.
    puct = Puct("tabik-4", 60, rollout_weight=0.0, expansion_visits=1)
    chosen = _core.choose_actions(states, puct._spec(), 7)
    assert chosen == [s.move_to_action(puct.choose(s)) for s in states]
    # The policy temperature reaches the engine both ways, and changes the searches.
    sharp = Puct("tabik-4", 60, rollout_weight=0.0, expansion_visits=1, policy_temperature=0.3)
    assert _core.choose_actions(states, sharp._spec(), 7) == [s.move_to_action(sharp.choose(s)) for s in states]
    assert any(not np.array_equal(sharp.analyse(s).visits, puct.analyse(s).visits) for s in states)
    uct = territory.Uct(iterations=50, seed=1)
    drawn = _core.choose_actions(states, uct._spec(), 7)
    assert drawn == _core.choose_actions(states, uct._spec(), 7)
    assert all(a in s.legal_actions() for a, s in zip(drawn, states))
    assert _core.choose_actions([], uct._spec()) == []
    over = states[0].copy()
    while not over.is_over:
        over.play_random(0.5)
    for batch, message in [([states[0], territory.Nume(n=2)], "states must all be of one game: state 1 is a Nume, state 0 a Tabik"),
                           ([states[0], territory.Tabik(size=5)], "state 1's observations or actions differ"),
                           ([states[0], over], "state 1's game is over")]:
        with pytest.raises(ValueError, match=message):
            _core.choose_actions(batch, uct._spec())
    with pytest.raises(ValueError, match="the network reads 354 input values and gives 74 actions; this game has 288"):
        _core.choose_actions([territory.Tabik(size=6)], puct._spec())


def test_positions_for_timing_come_from_the_whole_game_and_equal_time_grows_with_the_search():
    from territory.train import equal_time_uct_iterations, positions_through_games

    start = territory.Tabik(size=4)
    states = positions_through_games(start, 40, seed=1)
    depths = [len(s.history) for s in states]
    assert depths == [len(s.history) for s in positions_through_games(start, 40, seed=1)]
    assert min(depths) <= 2 and max(depths) >= 10, depths
    small, large = (equal_time_uct_iterations(Puct("tabik-4", n), start, positions=8, rounds=3) for n in (20, 640))
    # 32 times the simulations: many times the time, whatever the machine's speed (about
    # 10 times on a quiet machine, 7 with the other core busy: the small search's fixed
    # costs weigh more then).
    assert 1 <= small and 4 * small < large, (small, large)


def test_the_documented_puct_signature_is_the_code():
    """docs/learning.md's call of the agent, with its defaults, is Puct's signature."""
    text = " ".join((Path(__file__).resolve().parent.parent / "docs" / "learning.md").read_text().split())
    parameters = inspect.signature(Puct).parameters.values()
    shown = ", ".join(p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}" for p in parameters)
    assert f"`territory.Puct({shown})`" in text


# The targets beyond policy and value: the final score margin and who holds each cell.

@pytest.mark.parametrize("start", [territory.Tabik(size=4), territory.Nume(n=2), territory.Migong()],
                         ids=["tabik", "nume", "migong"])
def test_ownership_and_margin_read_the_board_and_the_scores(start):
    for state in random_positions(start, 12, seed=3, max_moves=200):
        cells = [name for name, _, _ in state.geometry()[1]]
        viewer = 0 if state.is_over else state.to_move
        own = state.ownership()
        assert own.shape == (len(cells),) and own.dtype == np.float32
        assert np.array_equal(state.ownership(seat=1 - viewer), -own) or not state.is_over and state.game == "migong"
        mine = state.color_of(viewer)
        for name, value in zip(cells, own):
            held = state.board().get("stones", state.board().get("pieces", {})).get(name)
            if state.game == "migong":
                piece = state.board()["pieces"].get(name)
                letter = mine[0].upper()
                want = 0.0 if piece is None else (2 * piece.upper().count(letter) - 6) / 6
                assert value == pytest.approx(want), (name, piece)
            elif held is None:
                assert value == 0
            else:
                color = held if isinstance(held, str) else held[0]
                assert value == (1 if color == mine else -1), (name, held)
        a, b = (float(x) for x in state.scores())
        higher = state.game != "nume"
        want = (a - b if higher else b - a) * (1 if viewer == 0 else -1)
        assert state.score_margin() == pytest.approx(want)
        assert state.score_margin(seat=1 - viewer) == pytest.approx(-want)


def test_self_play_gives_the_final_margin_and_ownership_for_each_position():
    start = territory.Tabik(size=4)
    model = Model.new(start, hidden=8, margin=True, ownership=True)
    data = model.network().self_play(start, 3, 8, seed=4, sample_moves=20)
    n = len(data["results"])
    assert data["margins"].shape == (n,) and data["ownership"].shape == (n, 16)
    at = 0
    for length in data["lengths"]:
        # Each position's map is the final one from the side of the colour its mover plays
        # (observation plane 4 is 1 where that colour is the first, black).
        black = [data["obs"][at + k].reshape(8, 16)[4, 0] == 1 for k in range(length)]
        final = data["ownership"][at + length - 1]
        for k in range(length):
            want = final if black[k] == black[-1] else -final
            assert np.array_equal(data["ownership"][at + k], want)
            assert data["results"][at + k] * data["margins"][at + k] >= 0 or data["margins"][at + k] == 0
        at += length
    assert set(np.unique(data["ownership"])) <= {-1.0, 0.0, 1.0} and np.abs(data["ownership"]).sum() > 0


def test_svg_draws_an_ownership_map():
    state = territory.Tabik(size=3)
    state.play("a1-b1")
    values = np.zeros(9, np.float32)
    values[0], values[4], values[8] = 0.9, -0.5, 0.01
    picture = state.svg(ownership=values)
    cells = dict(re.findall(r'class="ownership" data-cell="(\w+)" data-value="[-\d.]+" data-color="(\w+)"', picture))
    mover = state.color_of(state.to_move)
    other = state.color_of(1 - state.to_move)
    assert cells == {"a1": mover, "b2": other}  # i3 is too faint to draw
    assert state.svg(ownership={"a1": 1.0}).count('class="ownership"') == 1
    for bad, message in ((np.zeros(8), "8 values; this board has 9 cells"), ({"z9": 0.5}, "not a cell"),
                         ([2.0] * 9, r"value in \[-1, 1\]"), (5, "one number per cell")):
        with pytest.raises(ValueError, match=message):
            state.svg(ownership=bad)
    hexes = territory.Nume(n=2).svg(ownership=np.ones(len(territory.Nume(n=2).ownership())))
    assert hexes.count('class="ownership"') == len(territory.Nume(n=2).ownership())


def test_the_engine_refuses_bad_head_weights():
    model = Model.new(territory.Tabik(size=3), hidden=4, margin=True, ownership=True)
    w = [model.weights[n] for n in NAMES]
    heads = {n: model.weights[n] for n in ("wm", "bm", "wo", "bo")}
    with pytest.raises(ValueError, match="give both wm and bm"):
        _core.Network(*w, wm=heads["wm"])
    with pytest.raises(ValueError, match="weight wo has 36 values; 4 hidden units need 32"):
        _core.Network(*w, wo=heads["wo"], bo=heads["bo"][:8])
    bad = heads["wm"].copy()
    bad[1, 0] = np.nan
    with pytest.raises(ValueError, match="weight wm holds a value that is not finite"):
        _core.Network(*w, wm=bad, bm=heads["bm"])
    net = model.network()
    assert net.has_margin and net.ownership_cells == 9 and "ownership head of 9 cells" in repr(net)
    logits, values, margins, owners = net.evaluate_heads(np.zeros((3, net.inputs), np.float32))
    assert margins.shape == (3,) and owners.shape == (3, 9)
    with pytest.raises(ValueError, match="finite"):
        net.evaluate_heads(np.full((1, net.inputs), np.nan, np.float32))


# Puct's analysis: the search's figures and the network's own reading of the position.

@pytest.mark.parametrize("margin, ownership", [(True, True), (True, False), (False, True), (False, False)])
def test_puct_analyse_gives_the_search_and_the_heads_the_model_has(margin, ownership):
    import pickle

    from territory.puct import PuctAnalysis

    state = territory.Tabik(size=3)
    state.play("a1-b1")
    position = state.position()
    model = Model.new(state, hidden=8, margin=margin, ownership=ownership)
    analysis = Puct(model, 30, c_puct=2.0, seed=3, rollout_weight=0.5, expansion_visits=2).analyse(state)
    assert state.position() == position
    visits, value, _, means = model.network().analyse(state, 30, 2.0, 3, 0.5, 2)
    assert type(analysis) is PuctAnalysis and len(analysis) == 2
    got_visits, got_value = analysis
    assert got_visits is analysis.visits and np.array_equal(got_visits, visits) and visits.sum() == 29
    assert got_value == analysis.value == value and type(got_value) is float
    assert np.array_equal(analysis.values, means)
    _, _, margins, owners = model.network().evaluate_heads(model.inputs(state)[None, :])
    if margin:
        assert type(analysis.margin) is float and analysis.margin == float(margins[0])
    else:
        assert analysis.margin is None
    if ownership:
        assert analysis.ownership.shape == (9,) and np.array_equal(analysis.ownership, owners[0])
    else:
        assert analysis.ownership is None
    assert repr(analysis) == (f"PuctAnalysis(visits=29 in all, value={value:.3f}, "
                              f"margin={analysis.margin}, ownership={'by cell' if ownership else 'None'})")
    again = pickle.loads(pickle.dumps(analysis))
    assert type(again) is PuctAnalysis and again.value == value and again.margin == analysis.margin
    assert np.array_equal(again.visits, visits) and np.array_equal(again.values, means)
    assert (again.ownership is None) == (not ownership)
    assert ownership is False or np.array_equal(again.ownership, analysis.ownership)


def test_puct_analyse_and_choose_pass_on_stop_finish_and_progress():
    state = territory.Tabik(size=3)
    agent = Puct(Model.new(state, hidden=8), 20)
    for call in (agent.analyse, agent.choose):
        for key, message in (("stop", "stop must be a territory.Stop or None, got bool"),
                             ("finish", "finish must be a territory.Stop or None, got bool"),
                             ("progress", "progress must be a function or None, got bool")):
            with pytest.raises(ValueError, match=message):
                call(state, **{key: True})
        stop = territory.Stop()
        stop.set()
        with pytest.raises(territory.StoppedError):
            call(state, stop=stop)


def test_puct_spec_repr_and_analysis_copy_write_out_its_settings(tmp_path):
    from territory.puct import ANALYSIS_NOISE

    path = tmp_path / "m.npz"
    Model.new(territory.Tabik(size=4), hidden=8).save(path)
    plain = Puct(path, 30)
    assert plain.spec() == f"puct:{path}:30:c=1.5,rollout=0.0,expand=1,temp=1.0"
    assert repr(plain) == f"Puct({str(path)!r}, iterations=30)"
    tuned = Puct(str(path), 20, c_puct=2.5, rollout_weight=0.25, expansion_visits=2, noise_fraction=0.1,
                 noise_alpha=0.5, policy_temperature=0.6)
    assert tuned.spec() == f"puct:{path}:20:c=2.5,rollout=0.25,expand=2,temp=0.6,noise=0.1"
    assert repr(tuned) == (f"Puct({str(path)!r}, iterations=20, c_puct=2.5, rollout_weight=0.25, expansion_visits=2, "
                           "noise_fraction=0.1, noise_alpha=0.5, policy_temperature=0.6)")
    model = Model.new(territory.Tabik(size=4), hidden=8)
    assert repr(Puct(model, 10, noise_fraction=0.0)) == f"Puct({model!r}, iterations=10, noise_fraction=0.0)"
    with pytest.raises(ValueError) as error:
        Puct(model).spec()
    assert str(error.value) == "this Puct plays a Model object, not a model file or shipped name: it has no spec string"
    # An analysis plays with root noise: ANALYSIS_NOISE on a copy unless the agent has its own.
    noisy = plain.for_analysis("evaluate")
    assert noisy is not plain and noisy.noise_fraction == ANALYSIS_NOISE == 0.25 and plain.noise_fraction is None
    assert (noisy.iterations, noisy.model, noisy.source) == (30, plain.model, plain.source)
    assert noisy.spec() == plain.spec() + ",noise=0.25"
    assert tuned.for_analysis("evaluate") is tuned
    with pytest.raises(ValueError) as error:
        Puct(path, 30, noise_fraction=0).for_analysis("fair_komi")
    assert str(error.value) == ("fair_komi needs distinct games, and a Puct with noise_fraction=0 plays the same game "
                                "from a position every time: give it noise_fraction > 0, or None for 0.25")


# A ``puct:`` agent spec: the model, the count of simulations and the options.

def test_puct_spec_options_reach_the_agent():
    agent = territory.parse_agent("puct:tabik-4:20:c=2,ROLLOUT=0.5,expand=3,noise=0.1")
    assert (agent.source, agent.iterations, agent.c_puct, agent.rollout_weight, agent.expansion_visits,
            agent.noise_fraction) == ("tabik-4", 20, 2.0, 0.5, 3, 0.1)
    agent = territory.parse_agent("puct:tabik-4:c=2")
    assert (agent.source, agent.iterations, agent.c_puct) == ("tabik-4", 400, 2.0)


def test_puct_specs_with_model_files_whose_names_look_like_counts_or_options(tmp_path):
    """A file's name is the model even where a ':', a count or an option is part of it;
    the count and options come after the whole name."""
    for name in ("a:b.npz", "m:30", "x:c=1.npz"):
        path = tmp_path / name
        Model.new(territory.Tabik(size=4), hidden=8).save(path)
        agent = territory.parse_agent(f"puct:{path}")
        assert (agent.source, agent.iterations, agent.c_puct) == (str(path), 400, 1.5), name
        agent = territory.parse_agent(f"puct:{path}:20:c=2")
        assert (agent.source, agent.iterations, agent.c_puct) == (str(path), 20, 2.0), name


@pytest.mark.parametrize("count, iterations", [
    ("1", 1), ("10000000", 10_000_000), ("0" * 16 + "30", 30),  # 18 digits: read as the number
])
def test_puct_spec_counts_from_one_to_the_most_simulations(count, iterations):
    assert territory.parse_agent(f"puct:tabik-4:{count}").iterations == iterations


@pytest.mark.parametrize("spec, message", [
    ("puct:tabik-4:x", "the simulations after the model must be a whole number from 1 to 10,000,000, got 'x'"),
    ("puct:tabik-4:10000001", "the simulations after the model must be a whole number from 1 to 10,000,000, got '10000001'"),
    ("puct:tabik-4:" + "0" * 17 + "30", "the simulations after the model must be a whole number from 1 to 10,000,000, "
     "got '" + "0" * 17 + "30'"),  # 19 digits: refused as too long, whatever their value
    ("puct::30", "give a model after 'puct:', like 'puct:tabik-6:400' or 'puct:model.npz'"),
    ("puct:30", "no model file '30'"),  # a lone number is a model's name, not a count
    ("puct:tabik-4:20:c=x", "c=x: not a number: 'x'"),
])
def test_bad_puct_counts_and_models_say_what_was_typed(spec, message):
    with pytest.raises(ValueError) as error:
        territory.parse_agent(spec)
    assert str(error.value).startswith(f"agent {spec!r}: {message}"), str(error.value)


def test_puct_settings_are_checked_at_their_bounds_and_kept_as_given():
    model = Model.new(territory.Tabik(size=4), hidden=8)
    plain = Puct(model)
    assert (plain.model, plain.source, plain.iterations, plain.c_puct, plain.rollout_weight, plain.expansion_visits,
            plain.seed, plain.noise_fraction, plain.noise_alpha) == (model, None, 400, 1.5, 0.0, 1, 0, None, 0.3)
    low = Puct(model, 1, c_puct=0, seed=0, rollout_weight=0, expansion_visits=1, noise_fraction=0, noise_alpha=1e-3)
    assert (low.iterations, low.c_puct, low.rollout_weight, low.expansion_visits, low.seed, low.noise_fraction,
            low.noise_alpha) == (1, 0.0, 0.0, 1, 0, 0.0, 1e-3)
    assert all(type(x) is float for x in (low.c_puct, low.rollout_weight, low.noise_fraction, low.noise_alpha))
    high = Puct(model, 10_000_000, c_puct=1e6, seed=2**64 - 1, rollout_weight=1, expansion_visits=1_000_000,
                noise_fraction=1, noise_alpha=1000)
    assert (high.iterations, high.c_puct, high.rollout_weight, high.expansion_visits, high.seed, high.noise_fraction,
            high.noise_alpha) == (10_000_000, 1e6, 1.0, 1_000_000, 2**64 - 1, 1.0, 1000.0)
    assert type(high.rollout_weight) is float and type(high.noise_fraction) is float
    for key, bad, message in (
        ("iterations", 0, "iterations must be an int from 1 to 10000000, got 0"),
        ("iterations", 10_000_001, "iterations must be an int from 1 to 10000000, got 10000001"),
        ("c_puct", -0.5, "c_puct must be a number from 0 to 1e+06, got -0.5"),
        ("c_puct", 1e6 + 1, "c_puct must be a number from 0 to 1e+06, got 1000001.0"),
        ("c_puct", float("inf"), "c_puct must be a number from 0 to 1e+06, got inf"),
        ("c_puct", float("nan"), "c_puct must be a number from 0 to 1e+06, got nan"),
        ("c_puct", True, "c_puct must be a number from 0 to 1e+06, got True"),
        ("c_puct", "1", "c_puct must be a number from 0 to 1e+06, got '1'"),
        ("rollout_weight", 1.5, "rollout_weight must be a number from 0 to 1, got 1.5"),
        ("expansion_visits", 0, "expansion_visits must be an int from 1 to 1000000, got 0"),
        ("expansion_visits", 1_000_001, "expansion_visits must be an int from 1 to 1000000, got 1000001"),
        ("seed", -1, "seed must be an int from 0 to 18446744073709551615, got -1"),
        ("seed", 2**64, "seed must be an int from 0 to 18446744073709551615, got 18446744073709551616"),
        ("noise_fraction", -0.1, "noise_fraction must be a number from 0 to 1, got -0.1"),
        ("noise_fraction", 1.1, "noise_fraction must be a number from 0 to 1, got 1.1"),
        ("noise_alpha", 0.0009, "noise_alpha must be a number from 0.001 to 1000, got 0.0009"),
        ("noise_alpha", 1000.5, "noise_alpha must be a number from 0.001 to 1000, got 1000.5"),
        ("policy_temperature", 0.005, "policy_temperature must be a number from 0.01 to 100, got 0.005"),
        ("policy_temperature", 101, "policy_temperature must be a number from 0.01 to 100, got 101"),
    ):
        with pytest.raises(ValueError) as error:
            Puct(model, **{key: bad})
        assert str(error.value) == message, key
    # A setting the model was trained with is its default, but for c_puct (training's
    # exploration is not play's); one measured to play best (meta "play") comes first.
    trained = Model.new(territory.Tabik(size=4), hidden=8, trained={"c_puct": 4.0, "rollout_weight": 0.25})
    assert (Puct(trained).c_puct, Puct(trained).rollout_weight) == (1.5, 0.25)
    played = Model.new(territory.Tabik(size=4), hidden=8, trained={"c_puct": 4.0}, play={"c_puct": 2.0})
    assert Puct(played).c_puct == 2.0


def test_run_search_drives_the_engine_search_with_its_settings():
    """run_search is _core.PuctSearch fed by the model: the same settings (its defaults:
    c_puct 1.5, no noise, seed 0, one leaf per search) give the same visits."""
    start = territory.Tabik(size=4)
    states = [start, start.copy()]
    states[1].play("b2-b3")

    def by_hand(model, *settings, **features):
        search = _core.PuctSearch(states, 40, *settings, **features)
        while (obs := search.leaves()) is not None:
            search.backup(*model.forward(obs))
        return search.visits()

    for model in (Model.new(start, hidden=8, seed=2), Model.new(start, hidden=8, seed=2, features=True)):
        features = {"features": model.feature_len > 0}
        assert np.array_equal(run_search(model, states, 40).visits(), by_hand(model, 1.5, 0.3, 0.0, 0, 1, **features))
        noisy = run_search(model, states, 40, c_puct=2.0, noise_alpha=0.5, noise_fraction=0.25, seed=5,
                           leaves_per_search=8).visits()
        assert np.array_equal(noisy, by_hand(model, 2.0, 0.5, 0.25, 5, 8, **features))
        assert not np.array_equal(noisy, by_hand(model, 2.0, 0.5, 0.25, 6, 8, **features))
        some_noise = run_search(model, states, 40, noise_fraction=0.25).visits()  # alpha 0.3 and seed 0
        assert np.array_equal(some_noise, by_hand(model, 1.5, 0.3, 0.25, 0, 1, **features))
    over = territory.Tabik(size=2)
    while not over.is_over:
        over.play_random(0.0)
    with pytest.raises(ValueError) as error:
        Puct(Model.new(territory.Tabik(size=2), hidden=4)).choose(over)
    assert str(error.value) == "the game is over: there is no move to choose"


def test_the_models_with_recipes_are_their_recipes():
    """benches/train_models.py holds the training runs of every shipped model:
    each recipe is its shipped file's training configuration, round for round (so
    ``train_models.py train NAME`` makes that file again), and its play settings."""
    spec = importlib.util.spec_from_file_location("train_models", ROOT / "benches" / "train_models.py")
    train_models = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train_models)
    assert sorted(train_models.RECIPES) == shipped_models()
    # The fields TrainConfig gained after each run, at the defaults that change nothing.
    trunk = {"filters": 0, "blocks": 0, "init": None}
    added_after_run = {"migong": trunk, "nume-4": {"solve_nodes": 0, **trunk}, "tabik-6": {"init": None}, "tabik-8": {},
                       "tabik-4": {}, "nume-3": {}}
    for name, recipe in train_models.RECIPES.items():
        meta = Model.load(name).meta
        start = territory.new_game(recipe["config"]["game"], **recipe["config"]["params"])
        assert meta["game"] == start.game and meta["params"] == dict(start.params)  # its board, pie and all
        config = asdict(TrainConfig(**{**recipe["config"], "minutes": None}))
        del config["out"]
        assert {k: config[k] for k in meta["trained"] if k != "init_trained"} == {
            k: v for k, v in meta["trained"].items() if k != "init_trained"}
        assert {k: v for k, v in config.items() if k not in meta["trained"]} == added_after_run[name]
        assert meta["trained"]["rounds"] >= 1 and meta["trained"]["minutes"] is None
        assert meta["play"] == recipe["play"] and meta["best"] is recipe["best"]
        if "base" in recipe:  # went on from the base run's last checkpoint (--init)
            base = asdict(TrainConfig(**{**recipe["base"], "minutes": None}))
            del base["out"]
            assert {k: base[k] for k in meta["trained"]["init_trained"]} == meta["trained"]["init_trained"]
            assert recipe["config"]["init"] == meta["trained"]["init"]


def test_optimal_move_rates_rate_each_agent_on_the_same_solved_positions():
    from territory.agents import solve
    from territory.train import optimal_move_rate, optimal_move_rates

    class Solver:
        def choose(self, state):
            return solve(state).best_moves[0]

    class FirstMove:
        def choose(self, state):
            return state.legal_moves()[0]

    start = territory.Tabik(size=3)
    perfect, first = optimal_move_rates([Solver(), FirstMove()], start, 12, seed=4)
    assert perfect["positions"] == first["positions"] == 12
    assert perfect["optimal"] == 12 and perfect["rate"] == 1.0 and perfect["misses"] == []
    assert 0 < first["optimal"] < 12 and len(first["misses"]) == 12 - first["optimal"]
    assert first == optimal_move_rate(FirstMove(), start, 12, seed=4)
    # Each miss is a position where the first legal move is not optimal.
    for position in first["misses"]:
        state = territory.Tabik.from_position(position, size=3)
        assert state.legal_moves()[0] not in solve(state).best_moves
