"""Constructors copy a start state made once per configuration and share its move
strings: states must still be independent, and each configuration must get its own."""

from __future__ import annotations

import random

import pytest

import territory
from territory import reference


@pytest.mark.parametrize("name", sorted(territory.GAMES))
def test_new_states_and_copies_are_independent(name):
    cls = territory.GAMES[name]
    a = cls()
    rng = random.Random(3)
    for _ in range(5):
        a.play_random(rng.random())
    b = cls()
    assert b.history == [] and b.legal_moves() == cls().legal_moves()
    c = a.copy()
    c.play_random(0.5)
    assert len(c.history) == 6 and len(a.history) == 5 and c.history[:5] == a.history
    assert cls() == b


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("tabik", [{"size": 5}, {"size": 3, "pie": False}, {}, {"size": 5}]),
        ("nume", [{"n": 2}, {"square": 3}, {"n": 2, "komi_phase": True}, {"square": 4}, {}]),
        ("migong", [{"border": "blue"}, {"pie": False}, {}, {"group_size": "wedges"}, {"border": "BY" * 42}]),
    ],
)
def test_each_configuration_gets_its_own_start_and_names(name, options):
    for params in options:
        native = territory.GAMES[name](**params)
        ref = reference.GAMES[name](**params)
        assert native.params == ref.params
        assert native.num_actions == ref.num_actions
        assert native.legal_moves() == ref.legal_moves()
        assert [native.action_to_move(a) for a in native.legal_actions()] == native.legal_moves()


def test_bad_parameters_still_name_the_problem():
    with pytest.raises(ValueError, match="size must be an int from"):
        territory.Tabik(size=99)
    with pytest.raises(ValueError, match="komi_to must be one of 'black', 'white'"):
        territory.Nume(komi_to="red")
    with pytest.raises(ValueError, match="komi must be None or a number"):
        territory.Nume(komi=1.0)
    assert territory.Tabik(size=4).params == {"size": 4, "pie": True}


def test_play_random_reports_a_state_in_use_and_bad_u():
    s = territory.Tabik(size=3)
    with pytest.raises(ValueError, match="0 <= u < 1"):
        s.play_random(1.0)
    with pytest.raises(ValueError, match="0 <= u < 1"):
        s.play_random(True)
    assert s.history == []
    a = s.random_action(0.0)
    assert s.play_random(0.0) == a and s.history == [s.action_to_move(a)]
