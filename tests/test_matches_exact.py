"""territory.matches checked exactly (issue 36, mutation testing): which agents the
engine plays, the Python play-game loop's per-game arrays (known values, dtypes, seats,
a start with moves, empty ranges), the random move at ``floor(u * L)``, and the whole
messages of a failing agent. Fast: small boards, no executors."""

from __future__ import annotations

import random

import numpy as np
import pytest

import territory
from territory import RandomAgent, Uct, _core, matches
from territory.errors import AgentError


class First:
    def choose(self, state):
        return state.legal_moves()[0]

    def __repr__(self):
        return "First()"


class Last:
    def choose(self, state):
        return state.legal_moves()[-1]

    def __repr__(self):
        return "Last()"


class Says:
    """An agent that answers ``answer`` or raises it."""

    def __init__(self, answer):
        self.answer = answer

    def choose(self, state):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    def __repr__(self):
        return "Says()"


DTYPES = {"actions": np.uint32, "offsets": np.uint64, "winner": np.int8, "length": np.uint32, "passes": np.uint32,
          "swapped": np.bool_, "scores": np.float64, "agent_winner": np.int8, "seats_swapped": np.bool_}


def assert_arrays(result, expected):
    assert list(result) == list(expected)
    for name, values in expected.items():
        assert result[name].dtype == DTYPES[name], name
        assert result[name].tolist() == values, name


def test_native_is_having_a_callable_spec():
    assert matches.native(RandomAgent()) and matches.native(Uct(5))
    assert not matches.native(First())

    class NotCallable:
        _spec = "random"

    assert not matches.native(NotCallable())


def test_python_match_gives_each_games_arrays_with_seats_swapped_on_odd_games():
    # Tabik 2 x 2: First then Last as seat 0 in games 0 and 2, the other way round in game 1.
    result = matches._python_match(territory.Tabik(size=2), [First(), Last()], 0, 0, 3, True, True)
    assert_arrays(result, {
        "actions": [0, 12, 2, 13, 13, 7, 4, 9, 8, 13, 13, 0, 12, 2, 13, 13], "offsets": [0, 5, 11, 16],
        "winner": [1, 0, 1], "length": [5, 6, 5], "passes": [2, 2, 2], "swapped": [True, False, True],
        "scores": [[0.0, 0.0]] * 3, "agent_winner": [1, 1, 1], "seats_swapped": [False, True, False],
    })
    # Without swapping seats, or from game 1 on without the actions.
    fixed = matches._python_match(territory.Tabik(size=2), [First(), Last()], 0, 0, 2, False)
    assert_arrays(fixed, {
        "winner": [1, 1], "length": [5, 5], "passes": [2, 2], "swapped": [True, True],
        "scores": [[0.0, 0.0]] * 2, "agent_winner": [1, 1], "seats_swapped": [False, False],
    })
    later = matches._python_match(territory.Tabik(size=2), [First(), Last()], 0, 1, 2, True, False)
    assert later["seats_swapped"].tolist() == [True] and later["winner"].tolist() == [0]


def test_python_match_counts_draws_scores_and_only_the_moves_after_the_start():
    draws = matches._python_match(territory.Nume(square=2, komi=None), [First(), Last()], 0, 0, 2, True, True)
    assert_arrays(draws, {
        "actions": [4, 23, 1, 2, 23, 4, 2, 1], "offsets": [0, 4, 8],
        "winner": [-1, -1], "length": [4, 4], "passes": [0, 0], "swapped": [False, False],
        "scores": [[2.0, 2.0], [2.0, 2.0]], "agent_winner": [-1, -1], "seats_swapped": [False, True],
    })
    start = territory.Tabik(size=2)
    start.play("a1-b1")
    later = matches._python_match(start, [First(), Last()], 0, 0, 2, True, True)
    assert_arrays(later, {
        "actions": [12, 2, 13, 13, 2, 13, 13], "offsets": [0, 4, 7],
        "winner": [1, 0], "length": [4, 3], "passes": [2, 2], "swapped": [True, False],
        "scores": [[0.0, 0.0]] * 2, "agent_winner": [1, 1], "seats_swapped": [False, True],
    })
    assert start.history == ["a1-b1"]  # played on copies


def test_python_match_of_no_games_is_empty_arrays_of_each_kind():
    empty = matches._python_match(territory.Tabik(size=2), [First(), Last()], 0, 3, 3, True, True)
    assert_arrays(empty, {"actions": [], "offsets": [0], "winner": [], "length": [], "passes": [], "swapped": [],
                          "scores": [], "agent_winner": [], "seats_swapped": []})
    assert empty["scores"].shape == (0, 2)


def test_python_match_draws_each_games_moves_from_the_seed_and_the_game_index():
    # RandomAgent draws from random.Random(mix(seed, index)) in the Python loop.
    pair = [RandomAgent(), RandomAgent()]
    result = matches._python_match(territory.Tabik(size=2), pair, 5, 0, 4, True, True)
    assert_arrays(result, {
        "actions": [7, 12, 5, 13, 13, 0, 12, 2, 13, 13, 1, 12, 2, 10, 11, 13, 13, 0, 2, 13, 13],
        "offsets": [0, 5, 10, 17, 21], "winner": [1, 1, 1, 0], "length": [5, 5, 7, 4], "passes": [2, 2, 2, 2],
        "swapped": [True, True, True, False], "scores": [[0.0, 0.0]] * 4, "agent_winner": [1, 0, 1, 1],
        "seats_swapped": [False, True, False, True],
    })
    game_2 = matches._python_match(territory.Tabik(size=2), pair, 5, 2, 3, True, True)
    assert game_2["actions"].tolist() == [1, 12, 2, 10, 11, 13, 13]
    other_seed = matches._python_match(territory.Tabik(size=2), pair, 6, 0, 4, True, True)
    assert other_seed["actions"].tolist() != result["actions"].tolist()


def test_match_shard_plays_native_pairs_in_the_engine_and_others_in_python():
    start = territory.Tabik(size=3)
    pair = [RandomAgent(), Uct(8)]
    shard = matches.match_shard(start, pair, 4, True, 1, True, 1, 4)
    engine = dict(_core.run_match(start, (pair[0]._spec(), pair[1]._spec()), 4, 1, 3, True, 1, True))
    assert list(shard) == list(engine)
    for name in engine:
        assert np.array_equal(shard[name], engine[name]), name
    mixed = [RandomAgent(), First()]
    shard = matches.match_shard(start, mixed, 4, True, 1, True, 1, 4)
    python = matches._python_match(start, mixed, 4, 1, 4, True, True)
    assert list(shard) == list(python)
    for name in python:
        assert np.array_equal(shard[name], python[name]), name
    assert list(matches.match_shard(start, mixed, 4, False, None, False, 0, 1)) == [
        "winner", "length", "passes", "swapped", "scores", "agent_winner", "seats_swapped"]


def test_random_choice_takes_the_move_at_floor_u_times_l():
    state = territory.Tabik(size=2)
    moves = state.legal_moves()
    assert len(moves) == 8
    assert [matches.random_choice(state, u) for u in (0.0, 0.1249, 0.125, 0.5, 0.999)] == [
        moves[0], moves[0], moves[1], moves[4], moves[7]]
    while not state.is_over:
        state.play(state.legal_moves()[-1])
    with pytest.raises(ValueError) as error:
        matches.random_choice(state, 0.5)
    assert str(error.value) == "the game is over: there is no move to choose"


def test_play_agents_asks_choose_without_a_generator_and_match_moves_with_one():
    class Chooser(RandomAgent):
        """A subclass: its match moves are its choices, as the class does not define _match_move."""

        def choose(self, state):
            return state.legal_moves()[0]

    start = territory.Tabik(size=3)
    with_rng = matches.play_agents(start, [Chooser(), Chooser()], 0, 0, random.Random(1))
    assert with_rng.history == ["a1-b1", "a2-b2", "a3-b3", "c1-c2", "b1xc1", "b1xb2", "b2xc2", "pass", "pass"]
    assert matches.play_agents(start, [First(), First()], 0).history == with_rng.history
    # Without a generator RandomAgent chooses with its own seed; with one, from it.
    plain = matches.play_agents(start, [RandomAgent(seed=3), First()], 0, 1)
    assert plain.history == ["a1-b1", "a3-b3", "a2-b2", "c2-c3", "b2xc2", "b1xb2", "pass", "pass"]
    drawn = matches.play_agents(start, [RandomAgent(seed=3), First()], 0, 1, random.Random(8))
    assert drawn.history == ["a1-b1", "c2-b2", "a3-b3", "pass", "pass"]
    assert start.history == []


def test_agent_move_plays_and_returns_the_move():
    state = territory.Tabik(size=2)
    assert matches._agent_move(First(), 0, state, None, 0) == "a1-b1" and state.history == ["a1-b1"]
    assert matches._agent_move(RandomAgent(), 1, state, random.Random(2), 0) in ["swap", *territory.Tabik(size=2).legal_moves()]
    assert len(state.history) == 2


def test_a_failing_agent_is_named_with_the_game_and_the_moves():
    state = territory.Tabik(size=2)
    boom = RuntimeError("boom")
    with pytest.raises(AgentError) as error:
        matches._agent_move(Says(boom), 0, state, None, 4)
    assert str(error.value) == "agent 0 (Says()) raised RuntimeError: boom in game 4 after the moves: (none)"
    assert error.value.__cause__ is boom
    state.play("a1-b1")
    with pytest.raises(AgentError) as error:
        matches._agent_move(Says(3), 1, state, None, 2)
    assert str(error.value) == "agent 1 (Says()) returned 3, not a move string, in game 2 after the moves: a1-b1"
    state.play("swap")
    try:
        state.copy().play("z9-z8")
    except territory.IllegalMoveError as illegal:
        why = str(illegal)
    with pytest.raises(AgentError) as error:
        matches._agent_move(Says("z9-z8"), 0, state, None, 0)
    assert str(error.value) == (f"agent 0 (Says()) chose the illegal move 'z9-z8' in game 0 after the moves: a1-b1 swap:"
                                f" {why}")
    assert isinstance(error.value.__cause__, territory.IllegalMoveError)
    assert state.history == ["a1-b1", "swap"]
    # play_agents passes on the game index and plays agent k's seat.
    with pytest.raises(AgentError) as error:
        matches.play_agents(territory.Tabik(size=2), [First(), Says(boom)], 9)
    assert str(error.value) == "agent 1 (Says()) raised RuntimeError: boom in game 9 after the moves: a1-b1"
    with pytest.raises(AgentError) as error:
        matches.play_agents(territory.Tabik(size=2), [First(), Says(boom)], 9, 1)
    assert str(error.value) == "agent 1 (Says()) raised RuntimeError: boom in game 9 after the moves: (none)"
