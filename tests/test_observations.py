"""Observation planes (docs/observations.md) on hand-built positions, legal masks and the
random-action fast paths on random positions of every game, and returns."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import territory


def test_tabik_planes():
    s = territory.Tabik.from_position("3/3/b>w1 1 a 0 0", size=3)
    assert s.observation_shape == (8, 3, 3)
    obs = s.observation()  # seat 1 to move, playing White
    assert obs.dtype == np.float32 and obs.shape == (8, 3, 3)
    expected = np.zeros((8, 3, 3), np.float32)
    expected[0, 0, 1] = 1  # own (white) stone on b1
    expected[1, 0, 0] = 1  # opponent (black) stone on a1
    expected[2, 0, 0] = 1  # the rod east of a1
    expected[5] = 1  # the pie swap is available
    assert np.array_equal(obs, expected)
    mine = s.observation(seat=0)  # seat 0 plays Black and made the last move
    expected[[0, 1]] = expected[[1, 0]]
    expected[4] = 1
    expected[7] = 1
    assert np.array_equal(mine, expected)
    with pytest.raises(ValueError):
        s.observation(seat=2)


def test_tabik_pass_plane_and_rods_north():
    s = territory.Tabik.from_position("b>w/b>w 1 s 1 1", size=2)
    obs = s.observation()  # seat 1 plays Black after the swap; seat 0 passed
    assert obs[4].min() == 1 and obs[6].min() == 1 and obs[7].min() == 1 and obs[5].max() == 0
    assert obs[0, :, 0].tolist() == [1, 1] and obs[2, :, 0].tolist() == [1, 1]
    assert obs[3].max() == 0
    t = territory.Tabik.from_position("w1/b^1 1 - 0 0", size=2)
    assert t.observation()[3].tolist() == [[1, 0], [0, 0]]


def test_migong_planes():
    s = territory.Migong.from_position("7/8/9/10/11/12/6*BBBYBB5/12/11/10/9/8/7 1 a 0 0")
    assert s.observation_shape == (25, 13, 13)
    obs = s.observation()  # seat 1 to move, playing Yellow
    h7 = (6, 7)  # (r + 6, q + 6) of h7 = (1, 0)
    assert [obs[d][h7] for d in range(6)] == [0, 0, 0, 1, 0, 0]  # own (yellow) wedge: W
    assert [obs[6 + d][h7] for d in range(6)] == [1, 1, 1, 0, 1, 1]
    assert obs[12 + 3][h7] == 1  # the central border facing W is Yellow: own colour
    g1 = (0, 6)  # (0, -6): border edges NE (Y), NW (B), W (Y)
    assert [obs[12 + d][g1] for d in range(6)] == [0, 1, -1, 1, 0, 0]
    assert obs[18].sum() == 126 and obs[18][6, 6] == 0 and obs[18][0, 0] == 0
    own_left = obs[19].reshape(-1)
    assert own_left[0] == 0 and own_left[1:64].min() == 1 and own_left[64:].max() == 0
    their_left = obs[20].reshape(-1)
    assert their_left[8] == 0 and their_left[63] == 0 and their_left[:63].sum() == 62
    assert obs[21].max() == 0 and obs[22].min() == 1 and obs[23].max() == 0 and obs[24].max() == 0
    assert obs[:18][:, 0, 0].max() == 0  # grid points off the board stay 0


def test_nume_planes():
    s = territory.Nume.from_position("2w(0)/3/b(2)b1 1 - 0.5b bw", square=3)
    assert s.observation_shape == (12, 3, 3)
    obs = s.observation()  # seat 1 to move, playing White
    n = 9
    assert obs[0].tolist() == [[0, 0, 0], [0, 0, 0], [0, 0, 1]]
    assert obs[1].tolist() == [[1, 1, 0], [0, 0, 0], [0, 0, 0]]
    assert obs[2].tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 1]]
    assert math.isclose(obs[3][0, 0], 2 / n, rel_tol=1e-6) and obs[3][2, 2] == 0
    assert math.isclose(obs[4][0, 1], 2 / n, rel_tol=1e-6) and math.isclose(obs[4][2, 2], 1 / n, rel_tol=1e-6)
    assert obs[5][0, 0] == 0 and math.isclose(obs[5][2, 2], 1 / n, rel_tol=1e-6)  # prices |2-2|, |0-1|
    assert obs[6].min() == 1 and obs[7].max() == 0
    assert obs[8].max() == 0 and np.allclose(obs[9], 0.5 / n)
    assert obs[10].max() == 0 and obs[11].max() == 0
    phase = territory.Nume(n=1, komi_phase=True)
    assert phase.observation_shape == (12, 3, 3)
    o = phase.observation()
    assert o[10].min() == 1 and o[6].sum() == 6  # 6 cells in a 3 x 3 grid


def random_states(cls, params, games, rng):
    for _ in range(games):
        s = cls(**params)
        while True:
            yield s
            if s.is_over:
                break
            s.play_random(rng.random())


CASES = [
    (territory.Tabik, {"size": 3}),
    (territory.Tabik, {"size": 8, "pie": False}),
    (territory.Migong, {}),
    (territory.Nume, {"n": 2, "komi_phase": True}),
    (territory.Nume, {"square": 4, "komi": None}),
]


@pytest.mark.parametrize("cls, params", CASES)
def test_masks_and_random_actions_match_legal_actions(cls, params):
    rng = random.Random(1)
    games = 1 if cls is territory.Migong else 10
    for s in random_states(cls, params, games, rng):
        actions = s.legal_actions()
        mask = s.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (s.num_actions,)
        assert np.flatnonzero(mask).tolist() == actions
        obs = s.observation()
        assert obs.shape == s.observation_shape and obs.dtype == np.float32
        assert -1 <= obs.min() and obs.max() <= 2
        if s.is_over:
            with pytest.raises(territory.IllegalMoveError):
                s.random_action(0.5)
            with pytest.raises(territory.IllegalMoveError):
                s.copy().play_random(0.5)
            assert s.returns() in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
            if s.winner is not None:
                assert s.returns()[s.winner] == 1.0
            continue
        assert s.returns() == (0.0, 0.0)
        n = len(actions)
        for u in [0.0, 1 - 1e-16, 1 - 2**-53, 0.5, 1 / 3] + [rng.random() for _ in range(5)]:
            assert s.random_action(u) == actions[math.floor(u * n)]
        t = s.copy()
        a = t.play_random(0.75)
        assert a == actions[math.floor(0.75 * n)] and t.history[-1] == s.action_to_move(a)


def test_random_action_rejects_bad_u():
    s = territory.Tabik()
    for bad in [1.0, -0.1, float("nan"), "0.5", True, None, 2]:
        with pytest.raises(ValueError):
            s.random_action(bad)
    assert s.history == []
