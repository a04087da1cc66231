"""territory.web.session's helpers checked exactly (issue 36: mutmut's survivors in
web/session.py): the text checks' bounds and words, the models offered in a player's
words, how numbers are sent, a PUCT analysis's root statistics and the solver's view."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import territory
from territory.puct import PuctAnalysis
from territory.web import session
from territory.web.session import (MAX_TEXT, SOLVE_LINE, SessionError, _check_text, _number, models_offered,
                                   puct_stats, solve_view)


def test_text_is_checked_for_type_and_length_with_its_name():
    assert _check_text("a name", "x" * MAX_TEXT) == "x" * MAX_TEXT  # the limit itself is allowed
    with pytest.raises(SessionError) as error:
        _check_text("a name", "x" * (MAX_TEXT + 1))
    assert str(error.value) == f"a name is too long ({MAX_TEXT + 1} characters, at most {MAX_TEXT})"
    with pytest.raises(SessionError) as error:
        _check_text("the record", 17)
    assert str(error.value) == "the record must be a string, got int"
    with pytest.raises(SessionError) as error:
        _check_text("the record", None)
    assert str(error.value) == "the record must be a string, got NoneType"


def test_numbers_are_sent_whole_when_whole_and_never_as_nan_or_infinity():
    assert _number(3.0) == 3 and type(_number(3.0)) is int
    assert _number(-2) == -2 and type(_number(-2)) is int
    assert _number(2.5) == 2.5 and type(_number(2.5)) is float
    assert _number("4") == 4
    for bad in (math.inf, -math.inf, math.nan):
        assert _number(bad) is None


def test_the_models_offered_are_named_by_their_game_and_the_parameters_off_its_defaults():
    assert models_offered() == "migong; nume n=3; nume; tabik size=4; tabik size=6; tabik"


def test_models_offered_reads_any_meta(monkeypatch):
    """A model file without a game (named by its file), of a game this version does not
    know (every parameter listed), or without parameters; none at all."""
    import territory.model

    metas = {
        "old": {},
        "future": {"game": "hexgo", "params": {"size": 9, "pie": True}},
        "bare": {"game": "tabik"},
        "small": {"game": "tabik", "params": {"size": 4, "pie": True}},
    }
    monkeypatch.setattr(territory.model, "shipped_models", lambda: list(metas))
    monkeypatch.setattr(session, "shipped_model", lambda name: SimpleNamespace(meta=metas[name]))
    assert models_offered() == "old; hexgo size=9 pie=True; tabik; tabik size=4"
    monkeypatch.setattr(territory.model, "shipped_models", lambda: [])
    assert models_offered() == "none"


def test_puct_stats_keep_the_models_ownership_and_margin_and_break_ties_by_move_order():
    state = territory.Tabik(size=4, pie=False)
    moves = state.legal_moves()
    visits = np.zeros(state.num_actions)
    for i, count in ((2, 7), (5, 7), (9, 3)):
        visits[state.move_to_action(moves[i])] = count
    ownership = np.array([2.0] + [0.25] * 15)  # clipped to [-1, 1] by the page's reading
    stats = puct_stats(state, PuctAnalysis(visits, 0.25, np.zeros(state.num_actions), 3.5, ownership))
    assert stats.moves == moves and stats.value == 0.25
    assert stats.visits == [7 if i in (2, 5) else 3 if i == 9 else 0 for i in range(len(moves))]
    assert stats.values == [None] * len(moves)
    assert stats.best == moves[2], "a tie goes to the first in legal-move order"
    assert stats.ownership["a1"] == 1.0 and stats.ownership["b1"] == stats.ownership["d4"] == 0.25
    assert len(stats.ownership) == 16 and sorted(stats.ownership.values()) == [0.25] * 15 + [1.0]
    assert stats.margin == 3.5
    plain = puct_stats(state, PuctAnalysis(visits, -0.5, np.zeros(state.num_actions)))  # a model without the heads
    assert (plain.ownership, plain.margin, plain.best) == (None, None, moves[2])


def test_the_solver_view_says_why_not_and_stops_its_line_at_sixteen_moves():
    small = solve_view(territory.Tabik(size=3))
    assert small == {"solved": True, "value": -1, "to_move": 0, "best_moves": small["best_moves"],
                     "line": ["a1-b1", "a2-b2", "a3-b3", "c1-c2", "b1xc1", "b1xb2", "b2xc2", "pass", "pass"],
                     "nodes": 688}
    assert len(small["best_moves"]) == 24
    over = territory.Tabik(size=3)
    for move in small["line"]:  # perfect play to the end
        over.play(move)
    assert over.is_over
    assert solve_view(over) == {"solved": False, "why": "the game is over"}
    assert solve_view(territory.Tabik(size=4, pie=False), max_nodes=1000) == {
        "solved": False, "why": "too large to solve here (more than 1,000 positions)"}
    # A position whose perfect play is longer than the line shown.
    state = territory.Tabik(size=4, pie=False)
    for move in ("c3-b3", "a2-a1", "d1-c1", "d2-d3"):
        state.play(move)
    long = solve_view(state)
    assert long["solved"] and len(long["line"]) == SOLVE_LINE == 16 and long["nodes"] == 14130
