"""territory.web.session's helpers checked exactly (issue 36: mutmut's survivors in
web/session.py): the text checks' bounds and words, the models offered in a player's
words, how numbers are sent, a PUCT analysis's root statistics and the solver's view."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import numpy as np
import pytest

import territory
from moves import play_all
from territory.puct import PuctAnalysis
from territory.web import session
from territory.web.session import (MAX_TEXT, SOLVE_LINE, Conflict, Session, SessionError, _check_text, _number, models_offered,
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


# --- Session: what the page is sent, each field by name and value -----------------------

def tabik4(**request):
    return Session.create({"game": "tabik", "params": {"size": 4}, **request})


#: Random Tabik 4x4 games played to the end (seeded): a win on score, a win after the
#: pie swap (seat 0 plays White) and a tie-break at 0-0.
TABIK_WIN = ["a1-a2", "b2-b3", "c1-b1", "c4-d4", "b1xb2", "d2-d1", "a3-a4", "a2xa3", "c2-c3", "c3xc4", "b2xc2",
             "c2xd2", "c1xd1", "c1xc2", "b3xc3", "a3xb3", "pass", "pass"]
TABIK_SWAPPED = ["c3-b3", "swap", "b2-c2", "d4-c4", "c2xc3", "d3-d2", "b1-c1", "c3xd3", "a4-b4", "c3xc4", "c2xd2",
                 "b4xc4", "a2-a1", "b2xb3", "d3xd4", "b1xb2", "pass", "pass"]
TABIK_TIE = ["d2-c2", "b2-a2", "b4-b3", "d3-d4", "d1-c1", "a4-a3", "b1-a1", "b2xc2", "b1xb2", "c4-c3", "b2xb3",
             "c3xd3", "d2xd3", "c1xc2", "a3xb3", "c4xd4", "c2xc3", "b1xc1", "d1xd2", "b4xc4", "a4xb4", "a2xa3",
             "a1xa2", "pass", "pass"]


def test_a_new_game_checks_every_setting_at_its_bounds_and_says_what_was_sent():
    def refused(request):
        with pytest.raises(SessionError) as error:
            tabik4(**request)
        return str(error.value)

    with pytest.raises(SessionError, match="^the request must be a JSON object$"):
        Session.create(["tabik"])
    uct_most, puct_most = session.MAX_ITERATIONS, session.MAX_SIMULATIONS
    assert puct_most < uct_most
    assert tabik4(strength=1).strength == 1 and tabik4(strength=uct_most).strength == uct_most
    assert refused({"strength": 0}) == "strength must be a number of iterations from 1 to 200,000, got 0"
    assert refused({"strength": uct_most + 1}) == "strength must be a number of iterations from 1 to 200,000, got 200001"
    assert refused({"strength": True}) == "strength must be a number of iterations from 1 to 200,000, got True"
    assert refused({"strength": 2.0}) == "strength must be a number of iterations from 1 to 200,000, got 2.0"
    # The learned model's bound is its own (two people at one screen need no model).
    humans = {"mode": "humans", "agent": "puct"}
    assert tabik4(**humans, strength=puct_most).strength == puct_most
    assert refused({**humans, "strength": puct_most + 1}) == (
        "strength must be a number of simulations from 1 to 20,000, got 20001")
    assert tabik4().strength == session.STRENGTHS["2"] and tabik4(**humans).strength == session.MODEL_STRENGTHS["2"]
    assert tabik4(seed=2**64 - 1).seed == 2**64 - 1 and tabik4(seed=5).seed == 5 and tabik4().seed == 0
    for seed in (2**64, -1, True, "3", 1.0):
        assert refused({"seed": seed}) == f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}"
    assert refused({"record": 17}) == "record must be a string, got int"
    assert refused({"position": 17}) == "position must be a string, got int"
    with pytest.raises(SessionError) as error:
        Session.create({"game": "go"})
    assert str(error.value) == "unknown game 'go': one of " + ", ".join(territory.registry.GAMES)
    with pytest.raises(SessionError, match="^params must be an object of game parameters$"):
        Session.create({"game": "tabik", "params": [4]})
    assert re.fullmatch(r"tabik, \d{4}-\d\d-\d\d \d\d:\d\d", tabik4().name)


def test_the_view_of_a_game_against_the_agent_names_every_field():
    game = tabik4(agent_seat=1, seed=3)
    game.play("a1-a2")
    view = game.view()
    state = game.state
    moves = state.legal_moves()
    cells = sorted({c for m in moves for c in state.move_cells(m)})
    assert view["svg"] == str(territory.svg.render(state, highlight=cells, size=560))
    groups = [{"color": "black", "size": 1, "cells": ["a1"]}, {"color": "white", "size": 1, "cells": ["a2"]}]
    swap_paths = [p for p in view["paths"] if p["count"] != 1]
    assert swap_paths == [] and all(set(p) == {"clicks", "count", "move"} for p in view["paths"])
    assert {k: v for k, v in view.items() if k not in ("svg", "paths")} == {
        "id": game.id, "name": game.name, "game": "tabik", "params": {"size": 4, "pie": True},
        "mode": "agent", "agent_seat": 1, "strength": 1000, "agent": "uct",
        "agent_label": "UCT, 1,000 iterations per move", "model": "tabik-4",
        "to_move": 1, "colors": ["black", "white"], "scores": [0, 0], "groups": groups,
        "buttons": ["swap"], "legal_count": len(moves), "forced_pass": False, "swap_legal": True, "over": False,
        "winner": None, "result": "unfinished", "reason": None, "headline": None,
        "names": ["Black (you)", "White (agent)"], "deciding": [], "history": ["a1-a2"], "ply": 1, "node": 1,
        "line": [{"node": 1, "move": "a1-a2", "seat": 0, "others": []}], "position": state.position(),
        "agent_to_move": True, "evaluations": [], "note": "", "thinking": None, "version": 1,
    }


def test_the_view_of_two_people_at_one_screen_has_no_agent_and_offers_numbers_by_cell():
    game = Session.create({"game": "nume", "params": {"square": 2, "komi": None}, "mode": "humans"})
    view = game.view()
    assert view["mode"] == "humans" and view["agent_seat"] is None and view["agent_label"] is None
    assert view["names"] == ["Black (player 1)", "White (player 2)"] and view["agent_to_move"] is False
    # A cell offers many numbers: the path names its count, not a move.
    assert view["paths"][0] == {"clicks": ["a1"], "count": len(game.choices(["a1"]))}
    assert len(game.choices(["a1"])) > 1
    game.play("a1=3")
    groups = game.view()["groups"]
    assert groups == [{"color": "black", "size": 1, "cells": ["a1"], "price": 2}]


def test_a_finished_game_says_who_won_why_and_which_groups_decided():
    game = Session.create({"record": _record(TABIK_WIN)})
    view = game.view()
    assert (view["over"], view["winner"], view["scores"], view["result"]) == (True, 0, [7, 6], "seat 0 wins 7-6")
    assert view["reason"] == "Black (you) wins 7-6: the higher score wins"
    assert view["headline"] == "You win"
    assert view["deciding"] == [{"color": "black", "cells": ["a1", "b1", "c1", "d1", "a2", "b2", "a3"]}]
    game.agent_seat = 0
    assert game.headline() == "You lose" and game.view()["reason"] == "Black (agent) wins 7-6: the higher score wins"
    with pytest.raises(Conflict, match="^the game is over$"):
        game.snapshot()


def _record(moves):
    return play_all(territory.Tabik(size=4), moves).to_record()


def test_the_reason_names_the_seats_colours_after_a_swap_the_tie_break_and_a_draw():
    swapped = play_all(territory.Tabik(size=4), TABIK_SWAPPED)
    assert swapped.winner == 0 and swapped.color_of(0) == "white"
    assert session.result_reason(swapped) == "White wins 7-5: the higher score wins"
    tie = play_all(territory.Tabik(size=4), TABIK_TIE)
    assert session.result_reason(tie) == (
        "White wins by the tie-break: both score 0, and Black made the last move, which loses")
    assert session.deciding_groups(tie) == [], "a tie-break at 0 turns on no group"
    draw = play_all(territory.Nume(square=2, komi=None), ["a1=1", "b2=1", "b1", "a2"])
    assert draw.is_over and draw.winner is None
    assert session.result_reason(draw) == "a draw: equal scores 1-1"
    assert session.result_reason(territory.Tabik(size=4)) is None
    game = Session.create({"record": draw.to_record()})
    assert game.headline() == "A draw" and game.view()["reason"] == "a draw: equal scores 1-1"
    game.mode = "humans"
    assert game.headline() is None


def test_the_agents_progress_is_reported_with_its_seconds_to_the_hundredth(monkeypatch):
    thinking = session.Thinking(node=3, of=1000, unit="iterations", since=100.0)
    thinking.progress(250, "a1-a2", -0.5)
    monkeypatch.setattr(session.time, "monotonic", lambda: 101.23456)
    assert thinking.view() == {"node": 3, "seconds": 1.23, "done": 250, "of": 1000, "unit": "iterations",
                               "best": "a1-a2", "value": -0.5, "finishing": False}
    thinking.finish.set()
    assert thinking.view()["finishing"] is True


def test_choices_check_the_clicks_and_say_which_select_nothing():
    game = tabik4(mode="humans")
    for clicks in ("a1", ["a1", 2], ["a1", "a2", "a3", "a4", "b1"], None):
        with pytest.raises(SessionError) as error:
            game.choices(clicks)
        assert str(error.value) == "cells must be a list of at most 4 cell names"
    with pytest.raises(SessionError) as error:
        game.choices(["a1", "a2", "a3", "a4"])  # four are allowed, and select nothing here
    assert str(error.value) == "no legal move is played by clicking a1 a2 a3 a4"
    with pytest.raises(SessionError) as error:
        game.choices([])
    assert str(error.value) == "no legal move is played by clicking nothing"
    assert game.choices(["a1", "a2"]) == [{"move": "a1-a2", "label": "a1-a2"}]


def test_moves_steps_and_undo_refuse_with_their_words_and_count_versions_one_by_one():
    game = tabik4(agent_seat=1)
    with pytest.raises(SessionError) as error:
        game.play(12)
    assert str(error.value) == "move must be a string, got int"
    with pytest.raises(Conflict, match="^nothing to undo$"):
        game.undo()
    game.play("a1-a2")
    assert game.version == 1
    with pytest.raises(Conflict, match="^it is the agent's turn$"):
        game.play("b1-b2")
    game.goto(0)
    assert game.version == 2 and game.current == 0
    with pytest.raises(SessionError, match="^no move number 2 in this game$"):
        game.goto(2)  # two nodes: 0 and 1
    game.goto(1)
    assert game.version == 3


def test_undo_against_an_agent_that_moved_first_stops_at_the_start():
    game = tabik4(agent_seat=0)
    state, _ = game.snapshot()
    game.apply_agent_move(0, state, "a1-a2", 0.25)
    assert game.note == "agent played a1-a2" and game.version == 1
    assert game.nodes[0].value == 0.25, "the agent's value for seat 0, which it plays"
    game.undo()  # back to the start, where the agent is to move: no further
    assert game.current == 0 and game.agent_to_move()


def test_an_evaluation_is_kept_for_seat_0():
    game = tabik4()
    game.record_evaluation(0, 1, 0.25)
    assert game.nodes[0].value == -0.25
    game.record_evaluation(0, 0, 0.25)
    assert game.nodes[0].value == 0.25


def test_a_forced_pass_by_the_agent_is_noted_as_forced():
    moves = TABIK_TIE[:23]
    state = play_all(territory.Tabik(size=4), moves)
    assert state.legal_moves() == ["pass"]
    game = Session.create({"record": state.to_record(), "agent_seat": state.to_move})
    game.version = 5
    game.apply_agent_move(game.current, game.state.copy(), "pass", -0.75, "at once")
    assert game.note == "agent played pass (forced: no other move)" and game.version == 6
    game.goto(game.nodes[game.current].parent)
    game.apply_agent_move(game.current, game.state.copy(), "pass", -0.75, "at once")
    assert game.note == "agent played pass (forced: no other move)"
    other = tabik4(agent_seat=0)
    other.apply_agent_move(0, other.state.copy(), "a1-a2", 0.0, "at once, after 10 of 1,000 iterations")
    assert other.note == "agent played a1-a2 at once, after 10 of 1,000 iterations"


def test_the_agent_is_seeded_by_the_games_seed_and_ply_and_needs_a_model_for_puct():
    game = tabik4(seed=2**63 + 5)
    assert game.agent(100).seed == ((2**63 + 5) * 1_000_003) % 2**64
    game.play("a1-a2")
    assert game.agent(100).seed == ((2**63 + 5) * 1_000_003 + 1) % 2**64
    other = Session.create({"game": "tabik", "params": {"size": 5}, "mode": "humans", "agent": "puct"})
    with pytest.raises(SessionError) as error:
        other.agent(100)
    assert str(error.value) == "no learned model plays this game's parameters"


def test_a_kept_game_comes_back_with_every_setting_and_version_0():
    start = play_all(territory.Tabik(size=4), ["a1-a2", "b1-b2"])
    game = Session.create({"game": "tabik", "params": {"size": 4}, "position": start.position(), "agent_seat": 1,
                           "seed": 7, "strength": 300})
    game.play("c1-c2")
    data = {**game.to_data(), "name": "kept"}
    back = Session.from_data(data)
    assert back.to_data() == game.to_data()
    assert (back.name, back.seed, back.agent_seat, back.strength, back.version) == ("kept", 7, 1, 300, 0)
    assert back.root.position() == start.position() and back.state.history == ["c1-c2"]
    del data["agent"], data["name"]
    old = Session.from_data(data)
    assert (old.agent_kind, old.name) == ("uct", "")
    with pytest.raises(SessionError) as error:
        Session.from_data({"id": "abc"})
    assert str(error.value) == "the game kept as 'abc' cannot be read back ('game')"


def test_an_analysis_shows_the_twelve_most_visited_with_their_share():
    state = territory.Tabik(size=4, pie=False)
    moves = state.legal_moves()
    assert len(moves) > 12
    visits = [0] * len(moves)
    visits[3] = 1
    stats = session.RootStats(moves, visits, [None] * len(moves), 0.5, moves[3])
    view = session.analysis_view(state, stats)
    assert len(view["moves"]) == 12
    assert view["moves"][0] == {"move": moves[3], "visits": 1, "share": 1.0, "value": None,
                                "cells": list(state.move_cells(moves[3])), "label": ""}
    assert view["moves"][1]["share"] == 0.0
    visits[5] = 3
    view = session.analysis_view(state, stats)
    assert [m["share"] for m in view["moves"][:2]] == [0.75, 0.25]
    assert session.prediction(state, {"a1": -1.5, "b1": 0.5}, None) == ({"a1": -1.0, "b1": 0.5}, None)


def test_the_solvers_node_limit_and_stop_reach_every_solve_of_the_line(monkeypatch):
    calls = []
    real = session.solve

    def recording(state, max_nodes, stop):
        calls.append((max_nodes, stop))
        return real(state, max_nodes=max_nodes, stop=stop)

    monkeypatch.setattr(session, "solve", recording)
    stop = territory.Stop()
    view = solve_view(territory.Tabik(size=3), max_nodes=5000, stop=stop)
    assert len(view["line"]) == 9 and len(calls) == 9, "the position's, then one after each move but the last"
    assert all(call == (5000, stop) for call in calls)


def test_the_solvers_line_stops_at_its_length_or_where_a_later_solve_is_too_large(monkeypatch):
    perfect = ["a1-b1", "a2-b2", "a3-b3", "c1-c2", "b1xc1", "b1xb2", "b2xc2", "pass", "pass"]
    monkeypatch.setattr(session, "SOLVE_LINE", 4)
    assert solve_view(territory.Tabik(size=3))["line"] == perfect[:4]
    monkeypatch.setattr(session, "SOLVE_LINE", 16)
    calls = []
    real = session.solve

    def limited(state, max_nodes, stop):
        calls.append(state.position())
        if len(calls) == 3:
            raise territory.NodeLimitError("more than the limit")
        return real(state, max_nodes=max_nodes, stop=stop)

    monkeypatch.setattr(session, "solve", limited)
    view = solve_view(territory.Tabik(size=3))
    assert view["solved"] is True and view["line"] == perfect[:2] and view["nodes"] == 688
