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
