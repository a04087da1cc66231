"""Constructor parameters are described and checked once, by the engine: every game's
``Class.parameters()`` (the engine's description) drives these tests, so a new game's
parameters are covered without a line here.

Every bad value is a ``territory.ParameterError`` (a ``ValueError``) "``{name} must be
{allowed}, got {repr(value)}``", its ``.parameter`` the name and ``.allowed`` the text, with
``allowed`` the engine's own text (the engine's ``ConfigError`` reads the same, with the
value written like a Python literal: see ``rust/territory/src/rules/params.rs``)."""

from __future__ import annotations

import inspect
import math

import pytest

import territory

PARAMETERS = [
    pytest.param(cls, param, id=f"{game}-{param['name']}")
    for game, cls in territory.GAMES.items()
    for param in cls.parameters()
]


def short_repr(value) -> str:
    """``repr(value)``, cut as the bindings cut it."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:40]}... ({len(text)} characters)"


def good_values(param) -> list:
    kind = param["kind"]
    if kind == "int":
        return [param["min"], param["max"], (param["min"] + param["max"]) // 2]
    if kind == "int or None":
        return [None, param["min"], param["max"]]
    if kind == "bool":
        return [True, False]
    if kind == "choice":
        return list(param["choices"])
    if kind == "half point or None":
        return [None, 0.5, 2.5, param["max"] + 0.5]
    if kind == "text":
        return [param["default"]]
    raise AssertionError(f"a parameter kind this test does not know: {kind!r}")


def bad_values(param) -> list:
    common = [[], b"x", object, 1j]
    kind = param["kind"]
    if kind in ("int", "int or None"):
        low, high = param["min"], param["max"]
        bad = [low - 1, high + 1, -(10**30), 10**30, 10**100, True, False, float(low), str(low), 2**63, -(2**63) - 1]
        return bad + ([] if kind == "int or None" else [None]) + common
    if kind == "bool":
        return [0, 1, None, "True", "true", 1.0, -1] + common
    if kind == "choice":
        return [c.upper() for c in param["choices"]] + ["", " " + param["choices"][0], None, 0, True] + common
    if kind == "half point or None":
        high = param["max"]
        return [0, 1, 0.0, 1.0, 0.25, -0.5, high + 1.5, 1e300, math.nan, math.inf, -math.inf, "0.5", True,
                10**400] + common
    if kind == "text":
        default = param["default"]
        return ["", default.upper(), default + " ", None, 1, True, default.encode(), "x" * 1000] + common
    raise AssertionError(f"a parameter kind this test does not know: {kind!r}")


@pytest.mark.parametrize("cls, param", PARAMETERS)
def test_every_bad_value_is_a_value_error_with_the_engines_text(cls, param):
    name, allowed = param["name"], param["allowed"]
    assert allowed and param["help"]
    for value in bad_values(param):
        with pytest.raises(ValueError) as info:
            cls(**{name: value})
        assert type(info.value) is territory.ParameterError
        assert (info.value.parameter, info.value.allowed) == (name, allowed)
        assert str(info.value) == f"{name} must be {allowed}, got {short_repr(value)}"
        assert len(str(info.value)) < 400


@pytest.mark.parametrize("cls, param", PARAMETERS)
def test_boundary_values_are_allowed_and_given_back(cls, param):
    name = param["name"]
    for value in good_values(param):
        state = cls(**{name: value})
        assert state.params[name] == value and type(state.params[name]) is type(value)
    assert cls.default_params()[name] == param["default"]
    assert cls(**{name: param["default"]}) == cls()


@pytest.mark.parametrize("game, cls", territory.GAMES.items())
def test_description_defaults_and_signature_agree(game, cls):
    params = cls.parameters()
    assert [p["name"] for p in params] == list(cls.default_params())
    assert cls().params == cls.default_params() == {p["name"]: p["default"] for p in params}
    signature = inspect.signature(cls)
    assert {n: p.default for n, p in signature.parameters.items()} == cls.default_params()
    assert territory.new_game(game, **cls.default_params()) == cls()


def test_the_first_bad_parameter_in_order_is_named():
    with pytest.raises(ValueError, match="^n must be"):
        territory.Nume(komi_phase=0, n=0)
    with pytest.raises(ValueError, match="^komi must be"):
        territory.Nume(komi_phase=0, komi=1.0)


def test_known_messages_unchanged():
    cases = [
        (territory.Tabik, {"size": 17}, "size must be an int from 2 to 16, got 17"),
        (territory.Tabik, {"size": "8"}, "size must be an int from 2 to 16, got '8'"),
        (territory.Tabik, {"pie": 1}, "pie must be True or False, got 1"),
        (territory.Nume, {"square": 1}, "square must be None or an int from 2 to 16, got 1"),
        (territory.Nume, {"komi": 2.0},
         "komi must be None or a number k + 0.5 with k a whole number from 0 to 2147483648, got 2.0"),
        (territory.Nume, {"komi_to": "x"}, "komi_to must be one of 'black', 'white', got 'x'"),
        (territory.Migong, {"group_size": "x"}, "group_size must be one of 'extent', 'wedges', got 'x'"),
        (territory.Migong, {"border": 3},
         "border must be 'alternate', 'blue', 'yellow' or a string of 84 letters B/Y (one per border "
         "edge, in the order of docs/games/migong.md), got 3"),
    ]
    for cls, kwargs, message in cases:
        with pytest.raises(ValueError) as info:
            cls(**kwargs)
        assert str(info.value) == message


def test_migong_border_patterns_are_read_by_the_engine():
    pattern = "BY" * 41 + "YY"
    assert territory.Migong(border=pattern).params["border"] == pattern
    for bad in ["B" * 83, "B" * 85, "BY" * 41 + "BX", "b" * 84, "B" * 83 + "\n"]:
        with pytest.raises(ValueError, match="^border must be"):
            territory.Migong(border=bad)


def written_alike(value) -> bool:
    """Whether the engine writes the value as Python's ``repr`` does (plain literals)."""
    if value is None or isinstance(value, (bool, int)):
        return not isinstance(value, int) or isinstance(value, bool) or abs(value) < 2**63
    if isinstance(value, float):
        return not math.isfinite(value) or abs(value) < 1e15
    if isinstance(value, str):
        return len(value) <= 40 and value.isprintable() and "'" not in value and '"' not in value
    return False


@pytest.mark.parametrize("cls, param", PARAMETERS)
def test_the_engines_config_error_and_the_python_message_agree(cls, param):
    """``_engine_error`` is the engine's ``ConfigError`` text, the value written by the
    engine: for every value both write alike, it is the Python message, word for word."""
    name = param["name"]
    compared = 0
    for value in bad_values(param):
        with pytest.raises(ValueError) as info:
            cls(**{name: value})
        engine = cls._engine_error(**{name: value})
        assert engine is not None and engine.startswith(f"{name} must be {param['allowed']}, got ")
        if written_alike(value):
            assert engine == str(info.value)
            compared += 1
    assert compared >= 3
    for value in good_values(param):
        assert cls._engine_error(**{name: value}) is None


@pytest.mark.parametrize("game", sorted(territory.GAMES))
def test_parameter_errors_name_their_parameter_in_both_implementations(game):
    import pickle

    from territory.reference import GAMES as REFERENCE

    cls, ref_cls = territory.GAMES[game], REFERENCE[game]
    for param in cls.parameters():
        name = param["name"]
        for make in (cls, ref_cls):
            with pytest.raises(territory.ParameterError) as info:
                make(**{name: object()})
            assert isinstance(info.value, ValueError) and info.value.parameter == name
        copy = pickle.loads(pickle.dumps(info.value))
        assert (type(copy), str(copy), copy.parameter) == (type(info.value), str(info.value), name)
    for state in (cls(), ref_cls()):
        with pytest.raises(territory.ParameterError) as info:
            state.color_of(2)
        assert info.value.parameter == "seat"
    with pytest.raises(territory.ParameterError) as info:
        territory.Tabik(size=17)
    assert (info.value.parameter, info.value.allowed) == ("size", "an int from 2 to 16")
