"""The game registry: ``territory.GAMES`` comes from the engine's list, ``new_game``
builds any game by name and reports every mistake as a ValueError naming it,
``default_params()`` gives each class's parameters in order, and the presentation the
package attaches to the native classes keeps ``isinstance``, pickling and copying."""

from __future__ import annotations

import copy
import pickle

import pytest

import games as test_games
import territory
import territory._core as core
from territory import reference

#: Each game's parameters and defaults, in the order of its docs/games/<game>.md (its test
#: data, tests/games/<game>.py).
DEFAULTS = {name: data.DEFAULTS for name, data in test_games.modules().items()}


def test_every_game_has_its_test_data():
    """The games are the registry's, in name order, and each has its test module
    (tests/games/<game>.py) with every piece of test data the shared tests read."""
    assert list(core.GAMES) == sorted(core.GAMES)
    assert test_games.names() == list(core.GAMES)
    for name, data in test_games.modules().items():
        missing = [piece for piece in test_games.REQUIRED if not hasattr(data, piece)]
        assert not missing, f"tests/games/{name}.py lacks {', '.join(missing)}"


def test_games_come_from_the_engine():
    assert list(core.GAMES) == list(DEFAULTS)  # every game, in name order
    assert territory.GAMES == core.GAMES
    assert territory.GAMES["tabik"] is territory.Tabik and territory.GAMES["nume"] is territory.Nume
    for name, cls in territory.GAMES.items():
        assert getattr(territory, cls.__name__) is cls and cls.__module__ == "territory"
    for name, cls in territory.GAMES.items():
        assert cls.game == name
    assert list(reference.GAMES) == list(territory.GAMES)
    for name, cls in reference.GAMES.items():
        assert cls.game == name


@pytest.mark.parametrize("games", [territory.GAMES, reference.GAMES], ids=["native", "reference"])
def test_default_params_in_documented_order(games):
    for name, cls in games.items():
        params = cls.default_params()
        assert list(params.items()) == list(DEFAULTS[name].items())
        assert cls(**params) == cls()
        params["pie" if "pie" in params else "n"] = 0  # a fresh dict each time
        assert cls.default_params() == DEFAULTS[name]


def test_new_game_builds_every_game():
    for name, cls in territory.GAMES.items():
        state = territory.new_game(name)
        assert type(state) is cls and state == cls()
    state = territory.new_game("tabik", size=5, pie=False)
    assert state.params == {"size": 5, "pie": False}
    assert territory.new_game("nume", square=16).params["square"] == 16


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("chess", {}, f"game must be one of {', '.join(DEFAULTS)}, got 'chess'"),
        (3, {}, "game must be one of"),
        ("Tabik", {}, "game must be one of"),
        ("tabik", {"size": 17}, "size must be an int from 2 to 16, got 17"),
        ("tabik", {"size": "8"}, "size must be"),
        ("migong", {"border": "red"}, "border must be"),
        ("nume", {"komi": 2.0}, "komi must be"),
    ],
)
def test_new_game_names_the_problem(name, params, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        territory.new_game(name, **params)


@pytest.mark.parametrize("name", list(territory.GAMES))
def test_attached_presentation_keeps_the_native_class(name):
    state = territory.new_game(name)
    move = state.legal_moves()[0]
    state.play(move)
    assert isinstance(state, territory.GAMES[name])
    assert isinstance(state, territory.GameState)
    assert isinstance(reference.GAMES[name](), territory.GameState)
    for clone in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert type(clone) is type(state) and clone == state
    assert str(state).startswith(f"{name.capitalize()}(")
    assert repr(state).startswith(f"<territory.{name.capitalize()}(")
    assert territory.load(state.to_record()) == state
    assert state.svg().startswith("<svg") and state._repr_svg_() == state.svg()
    assert all(isinstance(g, territory.Group) and isinstance(g.cells, tuple) for g in state.groups())


def test_the_bindings_import_no_python_module():
    """Presentation is attached from Python; the bindings only reach the exceptions."""
    import pathlib

    source = pathlib.Path(__file__).resolve().parents[1] / "rust" / "territory-py" / "src"
    for path in source.glob("*.rs"):
        text = path.read_text()
        assert '.import("territory' not in text, path  # numpy is not ours to attach


@pytest.mark.parametrize(
    "name, params",
    [("tabik", {"size": 3}), ("tabik", {"size": 16}), ("migong", {"border": "blue"}),
     ("nume", {"n": 2}), ("nume", {"square": 3, "komi_phase": True})],
)
def test_engine_and_reference_agree_on_move_cells_and_geometry(name, params):
    """The pictures read move_cells(), geometry() and the Migong border from the game:
    both implementations answer the same along a seeded random game."""
    import random

    rng = random.Random(7)
    native, ref = territory.new_game(name, **params), reference.GAMES[name](**params)
    assert native.geometry() == ref.geometry()
    if name == "migong":
        assert native.border_colors() == ref.border_colors()
        assert native.border_edges() == ref.border_edges()
    steps = 0
    while not native.is_over and steps < 40:
        moves = native.legal_moves()
        for move in moves[:: max(1, len(moves) // 50)]:
            assert native.move_cells(move) == ref.move_cells(move), move
        move = rng.choice(moves)
        native.play(move)
        ref.play(move)
        steps += 1
    for move in native.history:
        assert native.move_cells(move) == ref.move_cells(move), move


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("tabik", {"board": 8}, "unknown tabik parameter 'board'; tabik takes the parameters size, pie"),
        ("nume", {"size": 8}, "unknown nume parameter 'size'"),
    ],
)
def test_an_unknown_parameter_is_a_type_error_everywhere(name, params, message):
    """An unexpected keyword is TypeError, as Python raises it, from every entry point that
    takes game parameters (it was ValueError from new_game, random_playouts, play_match and
    evaluate, TypeError from the classes, VecEnv and from_position)."""
    start = territory.new_game(name)
    calls = [
        lambda: territory.new_game(name, **params),
        lambda: territory.GAMES[name](**params),
        lambda: territory.GAMES[name].from_position(start.position(), **params),
        lambda: territory.VecEnv(name, 2, **params),
        lambda: territory.random_playouts(name, 2, **params),
        lambda: territory.play_match(name, ["random", "random"], 2, **params),
        lambda: territory.evaluate(name, games=2, **params),
        lambda: territory.openings(name, games_per_opening=1, **params),
    ]
    for call in calls:
        with pytest.raises(TypeError):
            call()
    with pytest.raises(TypeError, match=message):
        territory.new_game(name, **params)


def test_a_game_without_a_diagram_shows_its_position(monkeypatch):
    """An unknown game was drawn as Migong; now it is its position text."""
    state = territory.Tabik(size=3)
    state.play(state.legal_moves()[0])
    from territory.games import tabik

    monkeypatch.delattr(tabik, "diagram")
    assert str(state).endswith("\n" + state.position())


@pytest.mark.parametrize("name", list(DEFAULTS))
def test_the_class_tells_its_win_rule_passes_and_swaps(name):
    """What the Python layer asks instead of naming games: the engine's win rule and
    whether a move is a pass or the pie swap."""
    for seed in range(3):
        state = territory.replay_playout(name, seed, 0)
        black, white = state.scores()
        if state.winner is not None and black != white:
            better = 0 if (black < white) == type(state).lower_score_wins else 1
            assert state.winner == better
    assert territory.GAMES["nume"].lower_score_wins and not territory.GAMES["tabik"].lower_score_wins
    state = territory.new_game(name)
    for _ in range(6):
        moves = state.legal_moves()
        assert [state.is_pass(m) for m in moves] == [m == "pass" for m in moves]
        assert [state.is_swap(m) for m in moves] == [m == "swap" for m in moves]
        state.play(moves[len(moves) // 2] if "swap" not in moves else "swap")
    with pytest.raises(territory.InvalidMoveError):
        state.is_pass("zz99")
