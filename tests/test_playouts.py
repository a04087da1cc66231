"""Bulk random playouts: determinism, replay, summaries, input checking."""

from __future__ import annotations

import math

import numpy as np
import pytest

import territory
from territory.playouts import wilson_interval

SMALL = {"tabik": {"size": 5}, "migong": {}, "nume": {"n": 2}}


@pytest.mark.parametrize("game", sorted(SMALL))
def test_same_seed_same_results_whatever_the_thread_count(game):
    one = territory.random_playouts(game, 300, seed=11, threads=1, **SMALL[game])
    two = territory.random_playouts(game, 300, seed=11, threads=2, **SMALL[game])
    every = territory.random_playouts(game, 300, seed=11, **SMALL[game])
    for name in ("winner", "length", "passes", "swapped", "scores"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
        assert np.array_equal(getattr(one, name), getattr(every, name)), name


@pytest.mark.parametrize("game", sorted(SMALL))
def test_different_seeds_give_different_games(game):
    a = territory.random_playouts(game, 200, seed=1, **SMALL[game])
    b = territory.random_playouts(game, 200, seed=2, **SMALL[game])
    assert not (np.array_equal(a.length, b.length) and np.array_equal(a.scores, b.scores))


@pytest.mark.parametrize("game", sorted(SMALL))
def test_replay_equals_the_game_of_the_bulk_run(game):
    run = territory.random_playouts(game, 50, seed=5, **SMALL[game])
    for index in (0, 17, 49):
        state = territory.replay_playout(game, 5, index, **SMALL[game])
        assert state.is_over
        assert len(state.history) == run.length[index]
        assert state.history.count("pass") == run.passes[index]
        assert ("swap" in state.history) == run.swapped[index]
        assert tuple(float(x) for x in state.scores()) == tuple(run.scores[index])
        assert (state.winner if state.winner is not None else -1) == run.winner[index]
        # The replayed moves are legal when played through the checked API too.
        fresh = type(state)(**SMALL[game])
        for move in state.history:
            fresh.play(move)
        assert fresh == state


@pytest.mark.parametrize("game", sorted(SMALL))
def test_summary_agrees_with_the_arrays(game):
    run = territory.random_playouts(game, 400, seed=3, **SMALL[game])
    s = run.summary()
    assert s["games"] == 400
    assert s["seat0_wins"] == int((run.winner == 0).sum())
    assert s["seat1_wins"] == int((run.winner == 1).sum())
    assert s["draws"] == int((run.winner == -1).sum())
    assert s["seat0_win_rate"] == pytest.approx((s["seat0_wins"] + 0.5 * s["draws"]) / 400)
    low, high = s["seat0_win_rate_ci95"]
    assert low < s["seat0_win_rate"] < high
    assert s["length"]["mean"] == pytest.approx(run.length.mean())
    assert s["length"]["std"] == pytest.approx(run.length.std())
    assert s["length"]["min"] == run.length.min() and s["length"]["max"] == run.length.max()
    assert s["length"]["q50"] == np.quantile(run.length, 0.5, method="inverted_cdf")
    assert s["scores"]["seat1"]["mean"] == pytest.approx(run.scores[:, 1].mean())
    assert s["swap_rate"] == pytest.approx(run.swapped.mean())
    assert s["passes_mean"] == pytest.approx(run.passes.mean())
    # Winners agree with scores: higher wins in Migong and Tabik, lower in Nume.
    decided = run.winner >= 0
    better = run.scores[:, 0] < run.scores[:, 1] if game == "nume" else run.scores[:, 0] > run.scores[:, 1]
    tied = run.scores[:, 0] == run.scores[:, 1]
    assert np.all((run.winner[decided & ~tied] == 0) == better[decided & ~tied])


def test_summary_without_keeping_games_is_the_same():
    kept = territory.random_playouts("tabik", 500, seed=9, size=4)
    streamed = territory.random_playouts("tabik", 500, seed=9, size=4, keep_games=False)
    assert streamed.winner is None
    a, b = kept.summary(), streamed.summary()
    for key in ("seat0_wins", "seat1_wins", "draws", "length", "scores", "swap_rate"):
        assert a[key] == b[key]


def test_batches_do_not_change_results():
    # A long run is split into growing batches; the games are those of one big batch.
    long = territory.random_playouts("nume", 3000, seed=4, n=1)
    import territory._core as core

    whole = core.run_playouts(territory.Nume(n=1), 4, 0, 3000, 1)
    assert np.array_equal(long.scores, whole["scores"])


def test_nume_without_komi_can_draw_and_summary_counts_draws():
    run = territory.random_playouts("nume", 2000, seed=1, square=2, komi=None)
    assert (run.winner == -1).any()
    assert run.summary()["draws"] == int((run.winner == -1).sum())


def test_progress_is_reported():
    calls = []
    territory.random_playouts("tabik", 1000, seed=0, size=3, progress=lambda d, t, s: calls.append((d, t)))
    assert calls and calls[-1] == (1000, 1000)
    assert all(a[0] < b[0] for a, b in zip(calls, calls[1:]))


def test_zero_games():
    run = territory.random_playouts("migong", 0)
    assert run.winner.shape == (0,) and run.scores.shape == (0, 2)
    assert run.summary()["games"] == 0 and math.isnan(run.summary()["seat0_win_rate"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"game": "chess", "games": 1}, "game must be one of"),
        ({"game": "tabik", "games": -1}, "games"),
        ({"game": "tabik", "games": 1.5}, "games"),
        ({"game": "tabik", "games": 1, "seed": -1}, "seed"),
        ({"game": "tabik", "games": 1, "threads": 0}, "threads"),
        ({"game": "tabik", "games": 1, "threads": 100_000}, "threads"),
        ({"game": "tabik", "games": 1, "size": 1}, "size"),
        ({"game": "nume", "games": 1, "komi": 2.0}, "komi"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        territory.random_playouts(**kwargs)


def test_an_unknown_parameter_raises_type_error():
    with pytest.raises(TypeError, match="unknown tabik parameter 'komi'"):
        territory.random_playouts("tabik", 1, komi=0.5)


def test_native_playouts_reject_absurd_thread_counts():
    import territory._core as core

    with pytest.raises(ValueError, match="threads"):
        core.run_playouts(territory.Tabik(), 0, 0, 10, core.MAX_THREADS + 1)
    with pytest.raises(TypeError, match="native game state"):
        core.run_playouts(object(), 0, 0, 10, 1)


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
