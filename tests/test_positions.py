"""Position strings (docs/positions.md): set-up games behave exactly like the games they
were written from, the engine and the reference write the same strings and read each
other's, and malformed or impossible positions raise ValueError saying where."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import territory
from territory import reference
from territory.reference.nume import Nume as RefNume
from territory.reference.tabik import Tabik as RefTabik

import games as test_games

NATIVE = territory.GAMES
REFERENCE = reference.GAMES
PARAMS = {name: data.PARAMS for name, data in test_games.modules().items()}


def observables(s):
    return (
        s.position(),
        s.legal_actions(),
        s.scores(),
        s.to_move,
        s.last_mover,
        s.winner,
        s.is_over,
        s.groups(),
        s.color_of(0),
    )


def random_game(cls, params, rng, stop=None):
    """A native game after random moves (to the end, or `stop` actions)."""
    s = cls(**params)
    while not s.is_over and (stop is None or len(s.history) < stop):
        s.play_random(rng.random())
    return s


@pytest.mark.parametrize("name", list(NATIVE))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_set_up_game_plays_on_like_the_original(name, data):
    params = data.draw(PARAMS[name])
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    stop = data.draw(st.integers(0, 300))
    s = random_game(NATIVE[name], params, rng, stop)
    t = NATIVE[name].from_position(s.position(), **params)
    assert t.history == []
    with pytest.raises(IndexError):
        t.copy().undo()
    seed = rng.random()
    for game in (s, t):  # the same continuation on both
        cont = random.Random(seed)
        while not game.is_over:
            game.play_random(cont.random())
    assert observables(s) == observables(t)
    assert len(s.history) - stop == len(t.history) or stop > len(s.history)


@pytest.mark.parametrize("name", list(NATIVE))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_observables_agree_at_every_step(name, data):
    params = data.draw(PARAMS[name])
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    s = NATIVE[name](**params)
    while True:
        t = NATIVE[name].from_position(s.position(), **params)
        assert observables(t) == observables(s)
        if s.is_over or (name == "migong" and len(s.history) > 40):
            break
        s.play_random(rng.random())
    # Undo in a set-up game goes back to the set-up position, not further.
    t.play_random(0.5) if not t.is_over else None
    if t.history:
        t.undo()
        assert t.position() == s.position() and t == NATIVE[name].from_position(s.position(), **params)


SMALL = {name: data.POSITIONS for name, data in test_games.modules().items()}


@pytest.mark.parametrize("name", list(NATIVE))
@pytest.mark.parametrize("seed", range(3))
def test_engine_and_reference_agree_on_positions(name, seed):
    for params in SMALL[name]:
        rng = random.Random(seed)
        s, r = NATIVE[name](**params), REFERENCE[name](**params)
        step = 0
        while True:
            assert r.position() == s.position()
            if name != "migong" or step % 10 == 0:
                # each reads the other's string and plays on identically
                from_native = REFERENCE[name].from_position(s.position(), **params)
                from_ref = NATIVE[name].from_position(r.position(), **params)
                assert from_native.legal_actions() == from_ref.legal_actions() == s.legal_actions()
                assert from_native.scores() == from_ref.scores()
                assert (from_native.to_move, from_native.last_mover) == (s.to_move, s.last_mover)
            if s.is_over:
                assert r.winner == s.winner
                break
            a = s.play_random(rng.random())
            r.apply_action(a)
            step += 1
            if name == "migong" and step > 60:
                break


def test_set_up_games_compare_by_position():
    start = territory.Tabik(size=3)
    assert territory.Tabik.from_position(start.position(), size=3) == start
    s = territory.Tabik(size=3)
    s.play("a1-b1")
    t = territory.Tabik.from_position(s.position(), size=3)
    assert t != s and t != start and t == territory.Tabik.from_position(s.position(), size=3)
    assert t.copy() == t
    r = RefTabik.from_position(s.position(), size=3)
    assert r == r.copy() and r != RefTabik(size=3)


def test_vecenv_starts_from_a_set_up_state():
    s = territory.Tabik(size=3)
    s.play("a1-b1")
    t = territory.Tabik.from_position(s.position(), size=3)
    env = territory.VecEnv(t, 4, threads=1)
    env.reset()
    assert all(env.state(i).position() == s.position() for i in range(4))


BAD = {name: data.BAD_POSITIONS for name, data in test_games.modules().items()}


@pytest.mark.parametrize("name", list(NATIVE))
@pytest.mark.parametrize("impl", ["native", "reference"])
def test_bad_positions_raise_value_error_saying_where(name, impl):
    cls = (NATIVE if impl == "native" else REFERENCE)[name]
    for text, params in BAD[name]:
        with pytest.raises(ValueError, match=r"^bad position: column \d+: ") as info:
            cls.from_position(text, **params)
        assert "column" in str(info.value), text


def test_the_error_column_points_at_the_offence():
    with pytest.raises(ValueError, match=r"column 19: .*pie field 'q'"):
        territory.Tabik.from_position("8/8/8/8/8/8/8/8 0 q 0 -")
    with pytest.raises(ValueError, match=r"column 15: .*touches no rod"):
        territory.Tabik.from_position("8/8/8/8/8/8/8/bw6 1 - 0 0")
    with pytest.raises(ValueError, match=r"column 1: .*BBBBBB on g1 does not fit"):
        territory.Migong.from_position("BBBBBB6/8/9/10/11/12/6*6/12/11/10/9/8/7 1 a 0 0")
    with pytest.raises(ValueError, match=r"not a string|must be a string"):
        territory.Nume.from_position(5)
    with pytest.raises(ValueError, match="size"):
        territory.Tabik.from_position("2/2 0 w 0 -", size=1)


def test_an_empty_board_is_only_the_start():
    """Every action but a pass or the swap places pieces, and an empty board always has
    moves: the two empty-board positions that once shared the start's key (though their
    last movers and observations differ) are refused, by the engine and the reference."""
    for cls in (territory.Tabik, RefTabik):
        for text in ("8/8/8/8/8/8/8/8 1 - 0 -", "8/8/8/8/8/8/8/8 1 - 0 0"):
            with pytest.raises(ValueError, match=r"column 17: to move field '1': the board is empty"):
                cls.from_position(text)
        assert cls.from_position("8/8/8/8/8/8/8/8 0 w 0 -") == cls()
        assert cls.from_position("8/8/8/8/8/8/8/8 0 - 0 -", pie=False) == cls(pie=False)


def test_position_errors_quote_at_most_40_characters():
    field = "x" * 10_000_000
    for cls in (territory.Nume, RefNume):
        with pytest.raises(ValueError) as info:
            cls.from_position(f"3/3/3 0 - {field} bw", square=3)
        assert len(str(info.value)) < 300 and "(10000000 characters)" in str(info.value)
        with pytest.raises(ValueError) as info:
            cls.from_position(f"3/3/b({'9' * 100_000})2 1 - 0.5b bw", square=3)
        assert len(str(info.value)) < 300


def test_documented_examples():
    s = territory.Tabik()
    assert s.position() == "8/8/8/8/8/8/8/8 0 w 0 -"
    s.play("b2-b3")
    assert s.position() == "8/8/8/8/8/1w6/1b^6/8 1 a 0 0"
    s.play("swap")
    assert s.position() == "8/8/8/8/8/1w6/1b^6/8 0 s 0 1"
    t = territory.Tabik(size=2)
    for m in ["a1-b1", "swap", "a2-b2", "pass", "pass"]:
        t.play(m)
    assert t.position() == "b>w/b>w - s 2 0"
    u = territory.Tabik.from_position("b>w/b>w - s 2 0", size=2)
    assert u.is_over and u.winner == t.winner == 1 and u.last_mover == 0
    n = territory.Nume(square=3)
    for m in ["a1=2", "c3=0", "b1"]:
        n.play(m)
    assert n.position() == "2w(0)/3/b(2)b1 1 - 0.5b bw"
    assert territory.Nume(komi_phase=True).position() == "6/7/8/9/8/7/6/5/4 0 k - bw"


@pytest.mark.parametrize("impl", ["native", "reference"])
def test_records_and_pickles_keep_the_set_up_position(impl):
    import pickle

    cls = (NATIVE if impl == "native" else REFERENCE)["tabik"]
    s = cls.from_position("3/1w1/1b^1 0 s 0 1", size=3)
    s.play("a3-b3")
    record = s.to_record()
    assert "start = 3/1w1/1b^1 0 s 0 1" in record
    loaded = territory.load(record, reference=impl == "reference")
    assert loaded == s and loaded.position() == s.position() and loaded.history == ["a3-b3"]
    if impl == "native":
        assert pickle.loads(pickle.dumps(s)) == s
    assert "start" not in cls(size=3).to_record()
    with pytest.raises(territory.RecordError, match="bad start position"):
        territory.load(record.replace("start = 3/1w1", "start = 4/1w1"))


@pytest.mark.parametrize("impl", ["native", "reference"])
@pytest.mark.parametrize("name", list(NATIVE))
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_text_gives_a_state_or_a_value_error(name, impl, data):
    cls = (NATIVE if impl == "native" else REFERENCE)[name]
    start = NATIVE[name]().position() if name != "nume" else territory.Nume(square=3).position()
    params = {"square": 3} if name == "nume" else {}
    alphabet = sorted(set(start + "bwyBY()>^*0123456789-/ é\x00"))
    text = data.draw(
        st.one_of(
            st.text(alphabet=alphabet, max_size=60),
            st.text(max_size=20),
            # a valid position with one character changed, removed or inserted
            st.tuples(st.integers(0, len(start)), st.sampled_from(alphabet), st.integers(0, 2)).map(
                lambda t: start[: t[0]] + (t[1] if t[2] else "") + start[t[0] + (t[2] != 2):]
            ),
        )
    )
    try:
        s = cls.from_position(text, **params)
    except ValueError as error:
        assert str(error).startswith("bad position: column ")
        return
    assert cls.from_position(s.position(), **params).position() == s.position()


@pytest.mark.parametrize("name", list(NATIVE))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_engine_and_reference_positions_for_any_parameters(name, data):
    params = data.draw(PARAMS[name])
    if name == "tabik":
        params["size"] = min(params["size"], 5)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    s, r = NATIVE[name](**params), REFERENCE[name](**params)
    limit = 25 if name == "migong" else 10**6
    while True:
        assert r.position() == s.position()
        if s.is_over or len(s.history) >= limit:
            break
        r.apply_action(s.play_random(rng.random()))
    t = REFERENCE[name].from_position(s.position(), **params)
    assert t.legal_actions() == s.legal_actions() and t.scores() == s.scores()


@pytest.mark.parametrize(
    "game, params",
    [("tabik", {"size": 4}), ("tabik", {"size": 3, "pie": False}), ("migong", {}), ("migong", {"pie": False}),
     ("nume", {"n": 2}), ("nume", {"square": 3, "komi_phase": True}), ("nume", {"square": 2, "komi": None})],
)
@pytest.mark.parametrize("seed", range(4))
def test_key_of_the_position_is_the_key_of_the_game(game, params, seed):
    """The incremental key of a played game equals the key of the same position set up
    from its position string, at every step (pie, passes and komi phase included)."""
    import random

    import territory

    rng = random.Random(seed)
    state = territory.new_game(game, **params)
    keys = set()
    while True:
        copy = type(state).from_position(state.position(), **params)
        assert copy.key() == state.key(), state.history
        keys.add((state.position(), state.key()))
        if state.is_over:
            break
        state.play_random(rng.random())
    assert len({k for _, k in keys}) == len(keys)  # distinct positions, distinct keys
