"""The PettingZoo AEC environment passes PettingZoo's own API test."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import territory  # noqa: E402


@pytest.mark.parametrize(
    "game, params",
    [("tabik", {"size": 3}), ("tabik", {}), ("nume", {"n": 1, "komi_phase": True}), ("nume", {"square": 3}), ("migong", {})],
)
def test_api(game, params):
    api_test(territory.envs.pettingzoo_env(game, **params), num_cycles=200)


def test_a_game_to_the_end():
    env = territory.envs.pettingzoo_env("tabik", size=2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() > 0
        assert env.observe([a for a in env.agents if a != agent][0])["action_mask"].sum() == 0
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert sorted(env.rewards.values()) == [-1.0, 1.0] or env.agents == []


def test_bad_game():
    with pytest.raises(ValueError, match="game must be"):
        territory.envs.pettingzoo_env("go")


@pytest.mark.parametrize("action", [1.7, True, np.float64(1.0), "1", None])
def test_an_action_that_is_not_an_int_is_refused(action):
    """``int(action)`` played action 1 for ``step(1.7)`` and ``step(True)``."""
    env = territory.envs.pettingzoo_env("tabik", size=3)
    env.reset(seed=0)
    with pytest.raises(territory.InvalidMoveError, match="an action must be an int"):
        env.step(action)
    assert env.game.history == []
    env.step(np.int64(env.game.legal_actions()[0]))
    assert len(env.game.history) == 1


def test_a_finished_start_state_is_refused():
    """Built from a finished state, ``reset()`` left an agent to act with an all-zero mask."""
    state = territory.replay_playout("tabik", 0, 0, size=3)
    assert state.is_over
    with pytest.raises(ValueError, match="the start state is over"):
        territory.envs.pettingzoo_env(state)


def test_an_unknown_parameter_is_a_type_error():
    with pytest.raises(TypeError, match="unknown tabik parameter 'board'"):
        territory.envs.pettingzoo_env("tabik", board=3)
