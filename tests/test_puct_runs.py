"""A Puct agent in every kind of run: the analyses play distinct games (root noise,
seeded), a match of two deterministic agents is refused, and Puct plays on every
executor with the local results (issue 32)."""

from __future__ import annotations


import numpy as np
import pytest

import territory
from territory.puct import ANALYSIS_NOISE, Puct


def distinct_games(evaluation):
    traces = evaluation.traces
    rows = zip(*(traces[name].tolist() for name in ("moves", "branching_sum", "lead_sum", "final_lead")))
    return len(set(rows))


def test_evaluate_with_puct_plays_distinct_seeded_games():
    runs = {s: territory.evaluate("tabik", Puct("tabik-4", 50), games=12, seed=s, size=4) for s in (0, 7)}
    for run in runs.values():
        assert distinct_games(run) >= 10
        assert run.metrics["DurationMovesStdDev"].estimate > 0
    assert runs[0].traces["moves"].tolist() != runs[7].traces["moves"].tolist()
    again = territory.evaluate("tabik", "puct:tabik-4:50", games=12, seed=7, size=4)
    assert all(np.array_equal(again.traces[k], runs[7].traces[k]) for k in runs[7].traces)


def test_an_analysis_refuses_a_puct_without_noise_and_keeps_a_given_noise():
    with pytest.raises(ValueError, match="evaluate needs distinct games.*noise_fraction"):
        territory.evaluate("tabik", Puct("tabik-4", 20, noise_fraction=0), games=4, size=4)
    with pytest.raises(ValueError, match="openings needs distinct games"):
        territory.openings("tabik", Puct("tabik-4", 20, noise_fraction=0), 2, size=4)
    agent = Puct("tabik-4", 20)
    assert agent.for_analysis("x").noise_fraction == ANALYSIS_NOISE and agent.noise_fraction is None
    mine = Puct("tabik-4", 20, noise_fraction=0.5)
    assert mine.for_analysis("x") is mine


def test_openings_and_fair_komi_with_puct_vary_with_the_seed():
    def rates(seed):
        result = territory.openings("tabik", "puct:tabik-4:20", 8, seed=seed, size=4, moves=["b2-b3", "a1-a2"])
        return result.play_on, result.play_on_interval

    assert rates(1) == rates(1)
    assert rates(1) != rates(2)


def test_a_match_of_two_deterministic_agents_is_refused():
    quiet = dict(rollout_weight=0, expansion_visits=1)  # no random playouts (tabik-4 plays with them)
    plain = [Puct("tabik-4", 10, **quiet), Puct("tabik-4", 20, **quiet)]
    with pytest.raises(ValueError, match="deterministic.*copies of 2"):
        territory.play_match("tabik", plain, games=4, size=4)
    # Two games (one per seat) are distinct; noise or random playouts vary every game.
    assert territory.play_match("tabik", plain, games=2, size=4).games == 2
    noisy = Puct("tabik-4", 10, **quiet, noise_fraction=0.25)
    for pair in ([noisy, plain[1]], ["puct:tabik-4:10", "puct:tabik-4:20"]):
        result = territory.play_match("tabik", pair, games=6, size=4, seed=3)
        assert len({tuple(a) for a in result.actions}) >= 5


def test_puct_on_a_dask_cluster_gives_the_local_results(dask_client):
    executor = dask_client.get_executor()
    agents = ["puct:tabik-4:30", "uct:30"]
    local = territory.play_match("tabik", agents, games=6, seed=4, size=4)
    remote = territory.play_match("tabik", agents, games=6, seed=4, size=4, executor=executor, shard_size=2)
    assert local.agent_wins == remote.agent_wins
    assert [a.tolist() for a in local.actions] == [a.tolist() for a in remote.actions]
    local = territory.evaluate("tabik", "puct:tabik-4:30", games=6, seed=4, size=4)
    remote = territory.evaluate("tabik", "puct:tabik-4:30", games=6, seed=4, size=4, executor=executor)
    assert all(np.array_equal(local.traces[k], remote.traces[k]) for k in local.traces)


def test_an_unpickled_model_with_unaligned_weights_still_builds_the_engine_network():
    model = territory.model.Model.load("tabik-4")
    raw = np.zeros(model.weights["w1"].nbytes + 1, dtype=np.uint8)
    unaligned = raw[1:].view(np.float32).reshape(model.weights["w1"].shape)
    unaligned[...] = model.weights["w1"]
    assert not unaligned.flags.aligned
    state = dict(model.__dict__, weights={**model.weights, "w1": unaligned})
    copy = territory.model.Model.__new__(territory.model.Model)
    copy.__setstate__(state)
    copy.network()
    assert np.array_equal(copy.weights["w1"], model.weights["w1"])
