"""territory.VecEnv: masks equal legal_actions, auto-reset, errors that name the game
and change nothing, the same results on any number of threads."""

from __future__ import annotations

import numpy as np
import pytest

import territory


def positions(env):
    return [env.state(i).position() for i in range(env.batch)]


@pytest.mark.parametrize(
    "game, params",
    [("tabik", {"size": 3}), ("migong", {}), ("nume", {"n": 1, "komi_phase": True}), ("nume", {"square": 3})],
)
def test_masks_observations_and_auto_reset(game, params):
    env = territory.VecEnv(game, 8, seed=3, threads=2, **params)
    obs, mask = env.reset()
    assert obs.shape == (8, *env.observation_shape) and obs.dtype == np.float32
    assert mask.shape == (8, env.num_actions) and mask.dtype == np.bool_
    finished = 0
    steps = 40 if game == "migong" else 200
    for _ in range(steps):
        before = [env.state(i) for i in range(env.batch)]
        actions = env.sample_actions()
        for i, a in enumerate(actions):
            assert a in before[i].legal_actions()
        obs, rewards, dones, mask = env.step(actions)
        for i in range(env.batch):
            state = env.state(i)
            after = before[i].copy()
            after.apply_action(int(actions[i]))
            if dones[i]:
                finished += 1
                assert after.is_over
                assert tuple(rewards[i]) == after.returns()
                assert state.history == []  # a new game
            else:
                assert not after.is_over and tuple(rewards[i]) == (0, 0)
                assert state == after
            assert np.flatnonzero(mask[i]).tolist() == state.legal_actions()
            assert np.array_equal(obs[i], state.observation())
            assert env.to_move[i] == state.to_move
    if game != "migong":
        assert finished > 0


def test_wrong_actions_name_the_game_and_change_nothing():
    env = territory.VecEnv("tabik", 16, threads=2, size=4)
    env.reset()
    for _ in range(5):
        env.step(env.sample_actions())
    before = positions(env)
    good = env.sample_actions()
    for index, value, pattern in [
        (11, env.num_actions, "game 11: action must be from 0 to"),
        (3, -1, "game 3: action must be from 0 to"),
        (7, None, "game 7: action .* is illegal"),
    ]:
        bad = good.copy()
        if value is None:  # an illegal but in-range action
            legal = set(env.state(index).legal_actions())
            value = next(a for a in range(env.num_actions) if a not in legal)
        bad[index] = value
        with pytest.raises(ValueError, match=pattern):
            env.step(bad)
        assert positions(env) == before
    with pytest.raises(ValueError, match="expected 16 actions"):
        env.step(good[:5])
    with pytest.raises(ValueError, match="integers"):
        env.step(good.astype(float))
    assert positions(env) == before


@pytest.mark.parametrize("batch", [100, 300])
def test_same_results_on_one_and_two_threads(batch):
    # Nume n=2 writes 700 values a game: 100 games stay on the calling thread, 300 are
    # split into chunks of 128 (and one of 44) over the pool.
    runs = []
    for threads in (1, 2, 3):
        env = territory.VecEnv("nume", batch, seed=9, threads=threads, n=2)
        env.reset()
        total = np.zeros(2)
        for _ in range(30):
            obs, rewards, dones, mask = env.step(env.sample_actions())
            total += rewards.sum(axis=0)
        runs.append((obs.copy(), mask.copy(), total, positions(env)))
    for run in runs[1:]:
        assert np.array_equal(runs[0][0], run[0]) and np.array_equal(runs[0][1], run[1])
        assert runs[0][2].tolist() == run[2].tolist() and runs[0][3] == run[3]


def test_bad_parameters():
    with pytest.raises(ValueError, match="game must be"):
        territory.VecEnv("chess", 4)
    with pytest.raises(ValueError, match="batch"):
        territory.VecEnv("tabik", 0)
    with pytest.raises(ValueError, match="size"):
        territory.VecEnv("tabik", 4, size=1)
    with pytest.raises(ValueError, match="threads"):
        territory.VecEnv("tabik", 4, threads=0)
    with pytest.raises(ValueError, match="start state is over"):
        territory.VecEnv(territory.Tabik.from_position("b>w/b>w - s 2 0", size=2), 4)
    with pytest.raises(ValueError, match="parameters only with a game name"):
        territory.VecEnv(territory.Tabik(), 4, size=3)
