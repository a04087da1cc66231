"""Every error is the documented kind (issue 9).

- ``InvalidMoveError`` (a subclass of ``IllegalMoveError``) for text that is not a move of
  the game with these parameters at all, ``IllegalMoveError`` itself for a real move not
  legal here; the native engine and the reference raise the same class on the same input.
- Messages quote at most a short prefix of a huge input.
- A state used while another call holds it raises ``StateInUseError``.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import territory
from territory import IllegalMoveError, InvalidMoveError, StateInUseError
from territory.reference.migong import Migong as RefMigong
from territory.reference.nume import Nume as RefNume
from territory.reference.tabik import Tabik as RefTabik

NATIVE = {"tabik": territory.Tabik, "nume": territory.Nume, "migong": territory.Migong}
REFERENCE = {"tabik": RefTabik, "nume": RefNume, "migong": RefMigong}

#: (game, parameters) pairs whose positions the tests try moves in: small boards (the
#: reference is slow) and the largest ones (off-board cells are near the edge there).
SETUPS = [
    ("tabik", {"size": 2, "pie": True}),
    ("tabik", {"size": 4, "pie": False}),
    ("tabik", {"size": 16, "pie": True}),
    ("nume", {"n": 1}),
    ("nume", {"square": 3, "komi_phase": True}),
    ("nume", {"square": 16, "komi": None}),
    ("migong", {}),
    ("migong", {"pie": False, "border": "yellow"}),
]


def kind(call, *args) -> str:
    """"ok", "invalid" or "illegal"; any other exception fails the test."""
    try:
        call(*args)
    except InvalidMoveError as error:
        assert str(error)
        return "invalid"
    except IllegalMoveError as error:
        assert str(error)
        return "illegal"
    return "ok"


def positions(game: str, params: dict, seed: int, plies: int):
    """Pairs (native, reference) after the same random moves: the start, some plies in,
    and (for small boards) the end."""
    native, ref = NATIVE[game](**params), REFERENCE[game](**params)
    rng = random.Random(seed)
    yield native.copy(), ref.copy()
    for ply in range(plies):
        moves = native.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        native.play(move)
        ref.play(move)
        if ply in (0, 3):
            yield native.copy(), ref.copy()
    yield native, ref


def finished(game: str, params: dict, seed: int = 1):
    native = NATIVE[game](**params)
    rng = random.Random(seed)
    while not native.is_over:
        native.play(rng.choice(native.legal_moves()))
    ref = REFERENCE[game](**params)
    for move in native.history:
        ref.play(move)
    return native, ref


def same_kind(native, ref, move) -> str:
    n = kind(native.play, move)
    if n == "ok":
        native.undo()
    r = kind(ref.play, move)
    if r == "ok":
        ref.undo()
    assert n == r, f"play({move!r}): native {n}, reference {r}\n{native.history}"
    return n


def same_action_kind(native, ref, action) -> str:
    n = kind(native.apply_action, action)
    if n == "ok":
        native.undo()
    r = kind(ref.apply_action, action)
    if r == "ok":
        ref.undo()
    assert n == r, f"apply_action({action!r}): native {n}, reference {r}\n{native.history}"
    return n


# ---------------------------------------------------------------- named cases, both sides

# (game, params, moves played first, move tried, expected kind)
CASES = [
    # Tabik
    ("tabik", {"size": 4}, [], "zz", "invalid"),
    ("tabik", {"size": 4}, [], "", "invalid"),
    ("tabik", {"size": 4}, [], "b2 -b3", "invalid"),
    ("tabik", {"size": 4}, [], "a0-a1", "invalid"),
    ("tabik", {"size": 4}, [], "a01-a2", "invalid"),
    ("tabik", {"size": 4}, [], "e1-e2", "invalid"),  # off the 4 x 4 board
    ("tabik", {"size": 16}, [], "q16-p16", "invalid"),
    ("tabik", {"size": 16}, [], "p16-p" + "9" * 5000, "invalid"),
    ("tabik", {"size": 4}, [], "Swap", "invalid"),
    ("tabik", {"size": 4}, [], "a1-c1", "illegal"),  # not adjacent
    ("tabik", {"size": 4}, [], "a1-a1", "illegal"),
    ("tabik", {"size": 4}, [], "a1xa2", "illegal"),  # no stones to swap
    ("tabik", {"size": 4}, [], "swap", "illegal"),  # seat 0's turn
    ("tabik", {"size": 4, "pie": False}, ["a1-a2"], "swap", "illegal"),  # pie rule off
    ("tabik", {"size": 4}, [], "pass", "illegal"),
    ("tabik", {"size": 4}, ["a1-a2"], "a2-a3", "illegal"),  # occupied
    ("tabik", {"size": 4}, ["a1-a2"], "a1xa2", "illegal"),  # rod
    ("tabik", {"size": 16}, [], "o16-p16", "ok"),
    # Nume
    ("nume", {"n": 1}, [], "d1=" + "9" * 5000, "invalid"),
    ("nume", {"n": 1}, [], "c3=" + "9" * 5000, "invalid"),  # c3 is not a cell of n = 1
    ("nume", {"n": 1}, [], "c1=2147483648", "invalid"),
    ("nume", {"n": 1}, [], "c1=2147483647", "ok"),
    ("nume", {"n": 1}, [], "c1=07", "invalid"),
    ("nume", {"n": 1}, [], "c1=-1", "invalid"),
    ("nume", {"n": 1}, [], "c1=", "invalid"),
    ("nume", {"n": 1}, [], "c1=x", "invalid"),
    ("nume", {"n": 1}, [], "c3", "invalid"),
    ("nume", {"n": 1}, [], "c1", "illegal"),  # a new group needs a number
    ("nume", {"n": 1}, [], "komi 2.5 white", "illegal"),  # no komi phase
    ("nume", {"n": 1}, [], "komi 7.5 white", "invalid"),  # above 6 cells
    ("nume", {"n": 1}, [], "komi " + "9" * 5000 + ".5 white", "invalid"),
    ("nume", {"n": 1}, [], "komi 2.5 red", "invalid"),
    ("nume", {"n": 1}, [], "komi 02.5 white", "invalid"),
    ("nume", {"n": 1}, [], "side black", "illegal"),
    ("nume", {"n": 1}, [], "side blue", "invalid"),
    ("nume", {"n": 1, "komi_phase": True}, [], "c1=3", "illegal"),  # komi first
    ("nume", {"n": 1, "komi_phase": True}, [], "side white", "illegal"),
    ("nume", {"n": 1, "komi_phase": True}, [], "komi 6.5 white", "ok"),
    ("nume", {"n": 1, "komi_phase": True}, [], "komi 7.5 white", "invalid"),
    ("nume", {"n": 1, "komi_phase": True}, ["komi 1.5 white"], "komi 1.5 white", "illegal"),
    ("nume", {"n": 1, "komi_phase": True}, ["komi 1.5 white"], "c1=3", "illegal"),
    ("nume", {"square": 2}, ["a1=1"], "a1=1", "illegal"),  # occupied
    ("nume", {"square": 2}, ["a1=1", "b2=0"], "a2=5", "illegal"),  # joins: no number
    ("nume", {"square": 16}, [], "p16=3", "ok"),
    ("nume", {"square": 16}, [], "q16=3", "invalid"),
    # Migong
    ("migong", {}, [], "g7:BBBBBB", "invalid"),  # the central border
    ("migong", {}, [], "a1:BBBBBB", "invalid"),  # off the board
    ("migong", {}, [], "h7:BBBBBX", "invalid"),
    ("migong", {}, [], "h7:BYBYBYB", "invalid"),
    ("migong", {}, [], "h7", "invalid"),
    ("migong", {}, [], "h7:BBBYBB:", "invalid"),
    ("migong", {}, [], "h7:BBBBBB", "illegal"),  # does not fit the border
    ("migong", {}, [], "h7:YYYYYY", "illegal"),  # not in Blue's set
    ("migong", {}, [], "h7:BBBYBB", "ok"),
    ("migong", {}, [], "swap", "illegal"),
    ("migong", {"pie": False}, ["h7:BBBYBB"], "swap", "illegal"),
    ("migong", {}, ["h7:BBBYBB"], "h7:BYBYYY", "illegal"),  # occupied
    ("migong", {}, [], "pass", "illegal"),
]


@pytest.mark.parametrize("game, params, before, move, expected", CASES)
def test_named_cases(game, params, before, move, expected):
    for cls in (NATIVE[game], REFERENCE[game]):
        state = cls(**params)
        for m in before:
            state.play(m)
        history = state.history
        got = kind(state.play, move)
        assert got == expected, f"{cls.__module__}.{cls.__name__}.play({move[:50]!r}): {got}"
        if got != "ok":
            assert state.history == history
            with pytest.raises(IllegalMoveError) as info:
                state.play(move)
            assert len(str(info.value)) < 300, str(info.value)


def test_invalid_is_illegal_is_value_error():
    assert issubclass(InvalidMoveError, IllegalMoveError)
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(StateInUseError, RuntimeError)
    assert territory.errors.InvalidMoveError is InvalidMoveError


@pytest.mark.parametrize("game, params", SETUPS, ids=lambda x: str(x))
def test_bad_actions_and_types_are_invalid(game, params):
    native, ref = NATIVE[game](**params), REFERENCE[game](**params)
    n = native.num_actions
    for action in (-1, n, n + 1, 10**30, 10**5000, True, "3", 3.0, None, [1]):
        for state in (native, ref):
            assert kind(state.apply_action, action) == "invalid", (state, action)
            assert kind(state.action_to_move, action) == "invalid", (state, action)
    for move in (3, None, b"pass", ["pass"]):
        for state in (native, ref):
            assert kind(state.play, move) == "invalid", (state, move)
            assert kind(state.move_to_action, move) == "invalid", (state, move)


@pytest.mark.parametrize("game, params", SETUPS, ids=lambda x: str(x))
def test_every_action_same_kind(game, params):
    """Each action (all of them on small boards, a sample on large ones) in a few
    positions: both sides accept or refuse it the same way."""
    rng = random.Random(7)
    for native, ref in positions(game, params, seed=3, plies=6):
        n = native.num_actions
        actions = range(n) if n <= 400 else rng.sample(range(n), 150) + native.legal_actions()[:20]
        for action in actions:
            got = same_action_kind(native, ref, action)
            assert got != "invalid"
            assert (got == "ok") == (action in native.legal_actions())


@pytest.mark.parametrize("game, params", [s for s in SETUPS if s[1].get("size", 0) != 16
                                          and s[1].get("square", 0) != 16], ids=lambda x: str(x))
def test_after_the_end_real_moves_are_illegal_and_junk_invalid(game, params):
    native, ref = finished(game, params)
    assert native.is_over and ref.is_over
    for move in ("zz", "", "a0", "komi", "h7:XXXXXX", "g7:BBBBBB"):
        assert same_kind(native, ref, move) == "invalid"
    for action in range(0, native.num_actions, max(1, native.num_actions // 60)):
        assert same_action_kind(native, ref, action) == "illegal"


# Text made of the pieces moves are made of, so that many draws are nearly moves.
TOKENS = [
    "a", "b", "c", "d", "g", "h", "m", "p", "q", "z", "A", "0", "1", "2", "3", "7", "9", "13",
    "16", "17", "256", "-", "x", ":", "=", "B", "Y", "BYBYBY", "BBBYBB", "YYYYYY", "komi ",
    "side ", ".5", " ", "black", "white", "swap", "pass", "\n", "é", "9" * 30,
]
move_text = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=6).map("".join),
    st.text(max_size=12),
)


@pytest.mark.parametrize("game, params", SETUPS, ids=lambda x: str(x))
def test_random_text_same_kind(game, params):
    states = list(positions(game, params, seed=11, plies=5))

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)
    @given(index=st.integers(0, len(states) - 1), text=move_text, legal=st.integers(0, 10**6))
    def check(index, text, legal):
        native, ref = states[index]
        same_kind(native, ref, text)
        moves = native.legal_moves()
        if moves:
            # A legal move, slightly changed.
            move = moves[legal % len(moves)]
            for changed in (move + text, text + move, move[:-1] + text, move.replace("1", text, 1)):
                same_kind(native, ref, changed)
        for method in ("move_to_action",):
            n = kind(getattr(native, method), text)
            r = kind(getattr(ref, method), text)
            assert n == r, f"{method}({text!r}): native {n}, reference {r}"

    check()


@pytest.mark.parametrize("game, params", SETUPS[:1] + SETUPS[3:4] + SETUPS[6:7], ids=lambda x: str(x))
@pytest.mark.parametrize("huge", ["9" * 5000, "x" * 100_000, "h7:" + "B" * 5000, "\n" * 5000])
def test_messages_quote_a_short_prefix(game, params, huge):
    for cls in (NATIVE[game], REFERENCE[game]):
        state = cls(**params)
        for text in (huge, "a1=" + huge, "komi " + huge + ".5 white", "b2-" + huge):
            with pytest.raises(InvalidMoveError) as info:
                state.play(text)
            assert len(str(info.value)) < 400, (cls, str(info.value)[:500])
        with pytest.raises(InvalidMoveError) as info:
            state.apply_action(huge)
        assert len(str(info.value)) < 400


def test_constructor_messages_quote_a_short_prefix():
    for cls in (territory.Migong, RefMigong):
        with pytest.raises(ValueError) as info:
            cls(border="B" * 100_000)
        assert len(str(info.value)) < 400
    for cls in (territory.Tabik, RefTabik):
        with pytest.raises(ValueError) as info:
            cls(size=10**5000)
        assert len(str(info.value)) < 400


# ---------------------------------------------------------------- states and threads


class Callback:
    """An int-like value whose ``__index__`` runs ``action`` first (a callback run by a
    call while it holds the state)."""

    def __init__(self, value, action):
        self.value, self.action = value, action

    def __index__(self):
        self.action()
        return self.value


def test_state_used_from_a_callback_of_its_own_call():
    state = territory.Tabik(size=4)
    errors = []

    def play_meanwhile():
        try:
            state.play("a1-a2")
        except StateInUseError as error:
            errors.append(error)

    # color_of reads the seat while the state is held: playing then is refused, clearly.
    assert state.color_of(Callback(0, play_meanwhile)) == "black"
    assert len(errors) == 1
    assert "thread" in str(errors[0]) and "copy()" in str(errors[0])
    assert state.history == []
    # apply_action reads its argument before it holds the state: a callback may use it.
    state.apply_action(Callback(0, lambda: state.legal_moves()))
    assert state.history == ["a1-b1"]


def test_state_shared_across_threads_raises_a_clear_error():
    """Thread A holds the state (in a callback that waits); thread B tries to play."""
    state = territory.Nume(n=1)
    held, done = threading.Event(), threading.Event()
    outcome = []

    def wait_inside():
        held.set()
        assert done.wait(10)

    def thread_b():
        assert held.wait(10)
        try:
            state.play("c1=2")
            outcome.append("played")
        except StateInUseError as error:
            outcome.append(error)
        finally:
            done.set()

    b = threading.Thread(target=thread_b)
    b.start()
    state.color_of(Callback(1, wait_inside))
    b.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], StateInUseError), outcome
    # Copies are independent: one per thread works.
    copies = [state.copy() for _ in range(4)]
    threads = [threading.Thread(target=c.play, args=("c1=2",)) for c in copies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(c.history == ["c1=2"] for c in copies) and state.history == []
