"""The games as OpenSpiel games (territory.openspiel, docs/openspiel.md), checked with
OpenSpiel's own tools: its conformance test (random_sim_test), its C++ MCTS bot and
evaluate_bots, and step by step against the native states."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import territory

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'territory-games[openspiel]')")
territory_openspiel = pytest.importorskip("territory.openspiel")

#: OpenSpiel game strings and the native parameters they mean: defaults and corners.
CASES = [
    ("territory_tabik", {}),
    ("territory_tabik(size=2)", {"size": 2}),
    ("territory_tabik(size=3,pie=False)", {"size": 3, "pie": False}),
    ("territory_tabik(size=6)", {"size": 6}),
    ("territory_nume(n=1)", {"n": 1}),
    ("territory_nume(n=2,komi=0.0)", {"n": 2, "komi": None}),
    ("territory_nume(square=3,komi=2.5,komi_to=white)", {"square": 3, "komi": 2.5, "komi_to": "white"}),
    ("territory_nume(n=1,komi_phase=True)", {"n": 1, "komi_phase": True}),
    ("territory_nume", {}),
    ("territory_migong", {}),
    ("territory_migong(pie=False,border=blue,group_size=wedges)", {"pie": False, "border": "blue", "group_size": "wedges"}),
]


def test_every_registered_game_is_an_openspiel_game():
    names = set(pyspiel.registered_names())
    for name, cls in territory.GAMES.items():
        assert f"territory_{name}" in names
        game = pyspiel.load_game(f"territory_{name}")
        kind = game.get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        native = cls()
        assert set(game.get_parameters()) == set(native.params)
        assert game.num_distinct_actions() == native.num_actions
        assert game.max_game_length() == native.max_game_length
        assert game.num_players() == 2 and game.min_utility() == -1 and game.max_utility() == 1
        assert game.utility_sum() == 0
        assert game.observation_tensor_shape() == list(native.observation_shape)


@pytest.mark.parametrize(("spec", "params"), CASES)
def test_parameters_reach_the_native_game(spec, params):
    state = pyspiel.load_game(spec).new_initial_state()
    assert state.native.params == territory.new_game(state.native.game, **params).params


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="size must be an int from 2 to 16"):
        pyspiel.load_game("territory_tabik(size=1)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("territory_tabik(sizes=4)")
    with pytest.raises(ValueError, match="komi"):
        pyspiel.load_game("territory_nume(komi=1.0)")


@pytest.mark.parametrize(("spec", "params"), CASES)
def test_openspiel_conformance(spec, params):
    """OpenSpiel's own RandomSimTest: sorted unique actions, clones, serialisation
    round trips, returns, history and game length."""
    sims = 1 if spec.startswith("territory_migong") or spec == "territory_nume" else 5
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize(("spec", "params"), CASES)
def test_state_agrees_with_native_at_every_step(spec, params):
    game = pyspiel.load_game(spec)
    rng = random.Random(spec)
    state = game.new_initial_state()
    native = territory.new_game(state.native.game, **params)
    assert state.native is not native
    while True:
        to_move = native.to_move
        assert state.current_player() == (pyspiel.PlayerId.TERMINAL if to_move is None else to_move)
        assert state.is_terminal() == native.is_over
        assert state.returns() == list(native.returns())
        assert state.legal_actions() == native.legal_actions()
        assert [state.action_to_string(a) for a in state.legal_actions()] == native.legal_moves()
        for seat in (0, 1):
            expected = native.observation(seat)
            assert np.array_equal(np.asarray(state.observation_tensor(seat)).reshape(expected.shape), expected)
        assert str(state) == native.position()
        if native.is_over:
            break
        action = rng.choice(native.legal_actions())
        state.apply_action(action)
        native.apply_action(action)
    assert state.history() == [native.move_to_action(m) for m in native.history]
    assert native.winner == (None if state.returns()[0] == 0 else (0 if state.returns()[0] > 0 else 1))


def test_serialize_goes_through_the_position_string():
    game = pyspiel.load_game("territory_tabik(size=4)")
    state = game.new_initial_state()
    for move in ("a1-a2", "swap", "b1-b2"):
        state.apply_action(state.native.move_to_action(move))
    restored = game.deserialize_state(state.serialize())
    assert restored.native.position() == state.native.position()
    assert restored.history() == state.history()
    assert restored.legal_actions() == state.legal_actions()
    assert restored.native.color_of(0) == "white"
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.native.history) == 3  # a clone is independent


@pytest.mark.parametrize("spec", ["territory_tabik(size=3)", "territory_nume(square=2,komi=0.0)",
                                  "territory_nume(n=1,komi_phase=True)", "territory_migong(border=blue)"])
def test_games_and_states_pickle_and_play_identically(spec):
    """As OpenSpiel's own Python games do: a pickled game loads as the same game."""
    game = pyspiel.load_game(spec)
    loaded = pickle.loads(pickle.dumps(game))
    assert type(loaded) is type(game) and str(loaded) == str(game)
    assert loaded.native_params == game.native_params
    rng = random.Random(spec)
    state, other = game.new_initial_state(), loaded.new_initial_state()
    for _ in range(30):
        assert other.legal_actions() == state.legal_actions() and other.returns() == state.returns()
        assert other.observation_tensor(0) == state.observation_tensor(0) and str(other) == str(state)
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        other.apply_action(action)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()


def test_the_information_state_is_the_history_as_the_game_type_says():
    game = pyspiel.load_game("territory_tabik(size=3)")
    kind = game.get_type()
    assert kind.provides_information_state_string and not kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor
    state = game.new_initial_state()
    assert state.information_state_string(0) == ""
    # Two move orders to the same position: one observation, two information states.
    first, second = game.new_initial_state(), game.new_initial_state()
    for state, moves in ((first, ["a1-b1", "b3-c3", "a2-a3"]), (second, ["a2-a3", "b3-c3", "a1-b1"])):
        for move in moves:
            state.apply_action(state.native.move_to_action(move))
    assert first.observation_string(0) == second.observation_string(0) == str(first)
    assert first.information_state_string(1) == first.history_str() != second.information_state_string(1)
    with pytest.raises(Exception, match="no information-state tensor"):
        first.information_state_tensor(0)


def mcts_against_random(game, mcts_seat: int, seed: int, simulations: int) -> list[float]:
    """One game of OpenSpiel's C++ MCTSBot (random rollouts) against a uniform random bot
    through evaluate_bots. The evaluator must outlive the bot (the bot does not own it)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    mcts = pyspiel.MCTSBot(game, evaluator, 1.4, simulations, 10, False, seed, False)
    bots = [pyspiel.make_uniform_random_bot(seat, seed) for seat in (0, 1)]
    bots[mcts_seat] = mcts
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    del mcts, evaluator
    return returns


@pytest.mark.parametrize("spec", ["territory_tabik(size=3)", "territory_nume(n=1)", "territory_tabik(size=4,pie=False)",
                                  "territory_nume(square=2,komi_phase=True)"])
def test_cpp_mcts_and_evaluate_bots_play_full_games(spec):
    game = pyspiel.load_game(spec)
    for seat in (0, 1):
        returns = mcts_against_random(game, seat, seed=seat, simulations=60)
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_mcts_step_with_policy_works_where_step_would_crash():
    """docs/openspiel.md: MCTSBot.step segfaults on Python games; step_with_policy works."""
    game = pyspiel.load_game("territory_tabik(size=3)")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, 50, 10, False, 0, False)
    state = game.new_initial_state()
    policy, action = bot.step_with_policy(state)
    assert action in state.legal_actions() and dict(policy)[action] > 0
    del bot, evaluator


def test_mcts_beats_random_on_small_tabik():
    game = pyspiel.load_game("territory_tabik(size=3)")
    wins = sum(mcts_against_random(game, seed % 2, seed, 300)[seed % 2] > 0 for seed in range(10))
    assert wins >= 7


# --- exact: the game types, classes, registration and parameters (mutation testing) -------

#: Each game's OpenSpiel parameters with their defaults (a None default as 0).
SPEC_DEFAULTS = {
    "tabik": {"size": 8, "pie": True},
    "nume": {"n": 4, "square": 0, "komi": 0.5, "komi_to": "black", "komi_phase": False},
    "migong": {"pie": True, "border": "alternate", "group_size": "extent"},
}


@pytest.mark.parametrize("game", sorted(territory.GAMES))
def test_game_type_is_written_out_exactly(game):
    kind = territory_openspiel.game_type(game)
    assert (kind.short_name, kind.long_name) == (f"territory_{game}", f"territory {game.capitalize()}")
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 2)
    assert (kind.provides_information_state_string, kind.provides_information_state_tensor) == (True, False)
    assert (kind.provides_observation_string, kind.provides_observation_tensor) == (True, True)
    assert kind.parameter_specification == SPEC_DEFAULTS[game]
    spec = kind.parameter_specification
    assert {k: type(v) for k, v in spec.items()} == {k: type(v) for k, v in SPEC_DEFAULTS[game].items()}
    assert pyspiel.load_game(f"territory_{game}").get_type() == kind


def test_a_none_default_is_zero_of_the_parameters_kind():
    spec_default = territory_openspiel._spec_default
    assert spec_default({"name": "square", "kind": "int or None", "default": None}) == 0
    assert type(spec_default({"name": "square", "kind": "int or None", "default": None})) is int
    half = spec_default({"name": "komi", "kind": "half point or None", "default": None})
    assert half == 0.0 and type(half) is float
    assert spec_default({"name": "komi", "kind": "half point or None", "default": 2.5}) == 2.5
    assert spec_default({"name": "pie", "kind": "bool", "default": False}) is False


def test_native_params_turn_zero_into_none_only_where_none_is_allowed():
    native_params = territory_openspiel.native_params
    assert native_params("nume", {"n": 0, "square": 0, "komi": 0.0, "komi_to": "black", "komi_phase": False}) == {
        "n": 0, "square": None, "komi": None, "komi_to": "black", "komi_phase": False}
    assert native_params("nume", {"square": False, "komi": 2.5}) == {"square": False, "komi": 2.5}
    assert native_params("tabik", {"size": 0, "pie": False}) == {"size": 0, "pie": False}
    assert native_params("migong", {}) == {}


@pytest.mark.parametrize("game", sorted(territory.GAMES))
def test_game_classes_are_made_whole(game):
    cls = territory_openspiel._game_class(game)
    assert cls.__name__ == f"Territory{game.capitalize()}Game" and cls.__bases__ == (territory_openspiel.TerritoryGame,)
    assert cls.game_name == game and cls.__doc__ == f"{game.capitalize()} as an OpenSpiel game."
    assert cls._type == territory_openspiel.game_type(game)
    made = cls()
    assert made.native_params == territory.GAMES[game]().params and made.get_type().short_name == f"territory_{game}"
    assert getattr(territory_openspiel, cls.__name__) is territory_openspiel.GAME_CLASSES[game]


def test_register_registers_each_game_not_yet_registered(monkeypatch):
    registered = []
    names = [n for n in pyspiel.registered_names() if n != "territory_nume"]
    monkeypatch.setattr(pyspiel, "registered_names", lambda: names)
    monkeypatch.setattr(pyspiel, "register_game", lambda kind, cls: registered.append((kind, cls)))
    territory_openspiel._register()
    nume = territory_openspiel.GAME_CLASSES["nume"]
    assert len(registered) == 1 and registered[0][0] is nume._type and registered[0][1] is nume


def test_game_info_and_observers_exactly():
    game = pyspiel.load_game("territory_tabik(size=3)")
    assert game.max_chance_outcomes() == 0 and game.num_distinct_actions() == territory.Tabik(size=3).num_actions
    observer = game.make_py_observer()
    shape = territory.Tabik(size=3).observation_shape
    assert observer.tensor.dtype == np.float32 and observer.tensor.shape == (int(np.prod(shape)),)
    assert observer.dict["observation"].shape == shape
    assert np.shares_memory(observer.tensor, observer.dict["observation"])
    state = game.new_initial_state()
    observer.set_from(state, 1)
    assert np.array_equal(observer.dict["observation"], state.native.observation(1))
    assert observer.string_from(state, 0) == state.native.position()
    with pytest.raises(ValueError) as error:
        game.make_py_observer(None, {"x": 1})
    assert str(error.value) == "territory observers take no parameters, got {'x': 1}"
    history = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert isinstance(history, territory_openspiel.HistoryObserver) and history.tensor.shape == (0,)
    with pytest.raises(ValueError) as error:
        history.set_from(state, 0)
    assert str(error.value) == "territory games provide no information-state tensor: use observation_tensor"
