"""The presentation methods' real keyword signatures, and plain values from summary()."""

from __future__ import annotations

import inspect
import math
import typing

import pytest

import territory
from territory.reference.migong import Migong as RefMigong
from territory.reference.nume import Nume as RefNume
from territory.reference.tabik import Tabik as RefTabik

CLASSES = [territory.Tabik, territory.Migong, territory.Nume, RefTabik, RefMigong, RefNume]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_options_are_named_keywords(cls):
    record = inspect.signature(cls.to_record).parameters
    picture = inspect.signature(cls.svg).parameters
    assert [(p.name, p.kind, p.default) for p in record.values() if p.name != "self"] == [
        ("seats", inspect.Parameter.KEYWORD_ONLY, None),
        ("comment", inspect.Parameter.KEYWORD_ONLY, None),
    ]
    assert [(p.name, p.kind, p.default) for p in picture.values() if p.name != "self"] == [
        ("size", inspect.Parameter.KEYWORD_ONLY, None),
        ("coordinates", inspect.Parameter.KEYWORD_ONLY, True),
        ("highlight", inspect.Parameter.KEYWORD_ONLY, None),
        ("ownership", inspect.Parameter.KEYWORD_ONLY, None),
    ]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_an_unknown_option_is_a_clear_type_error(cls):
    state = cls()
    with pytest.raises(TypeError, match="seat0"):
        state.to_record(seat0="Alice")
    with pytest.raises(TypeError, match="colour"):
        state.svg(colour="red")
    with pytest.raises(TypeError, match="seats must be a pair"):
        state.to_record(seats="Alice")
    with pytest.raises(TypeError, match="comment must be a str"):
        state.to_record(comment=3)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_options_reach_the_record_and_the_picture(cls):
    state = cls()
    text = state.to_record(seats=("Alice", None), comment="friendly")
    assert "seat0 = Alice" in text and "seat1" not in text and "# friendly" in text
    assert territory.load(text, reference=cls.__module__.startswith("territory.reference")) == state
    assert 'width="200' in state.svg(size=200, coordinates=False)
    assert state.svg(coordinates=False).count('class="label"') == 0 < state.svg().count('class="label"')


def plain(value):
    """Raises unless value is made of Python's own types only."""
    if isinstance(value, dict):
        for k, v in value.items():
            plain(k), plain(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            plain(v)
    else:
        assert type(value) in (int, float, str, bool, type(None)), f"{value!r} is a {type(value).__name__}"


@pytest.mark.parametrize("games", [0, 1, 300])
def test_summary_holds_plain_python_values(games):
    summary = territory.random_playouts("nume", games, seed=4, n=2).summary()
    plain(summary)
    assert isinstance(summary["seat0_win_rate"], float)
    assert math.isnan(summary["seat0_win_rate"]) == (games == 0)


def test_replay_playout_is_typed():
    returned = typing.get_type_hints(territory.replay_playout)["return"]
    assert returned is territory.GameState  # the protocol every game's class follows
    assert isinstance(territory.replay_playout("tabik", 0, 0, size=3), territory.Tabik)
