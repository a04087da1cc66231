"""Differential property tests: the native engine against the pure-Python reference.

For each game (Tabik, Migong, Nume) hypothesis draws parameters and moves, plays them on
a native state and on a reference state, and asserts that everything observable agrees
(docs/API.md, docs/conventions.md): legal moves and actions in order, scores, turn,
result, history, colours, groups, the board() snapshot, the text diagram and the record.
It also checks undo, copy, record round trips, the handling of bad input, bad parameters
and complete games.

A game whose native (or reference) class does not exist yet is skipped. The reference is
slow (Migong's legal_moves takes ~10 ms), so example counts are scaled by each game's cost
(strategies.Game.cost); the tests marked ``slow`` repeat the main properties with more
examples (deselect them with ``-m "not slow"``; set TERRITORY_DIFFERENTIAL_SCALE=N to
multiply their examples by N for a deeper search).
"""

from __future__ import annotations

import copy as copy_module
import math
import os
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

import territory
from territory.errors import IllegalMoveError

import games as test_games
from strategies import (
    GAME_NAMES,
    GAMES,
    Game,
    candidate_action,
    candidate_move,
    game_plan,
    index,
    random_step,
)

SETTINGS = dict(
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: example-count multipliers of the light (default) and the heavy (``slow``) variants;
#: TERRITORY_DIFFERENTIAL_SCALE=N multiplies the heavy one again for a deeper search
LIGHT = 1
HEAVY = 5 * int(os.environ.get("TERRITORY_DIFFERENTIAL_SCALE", "1"))
budgets = pytest.mark.parametrize(
    "scale",
    [pytest.param(LIGHT, id="light"), pytest.param(HEAVY, id="heavy", marks=pytest.mark.slow)],
)
games = pytest.mark.parametrize("name", GAME_NAMES)


# =========================================================================== comparing


def where(state) -> str:
    return f"\n  game: {state.game} {state.params!r}\n  history: {state.history!r}"


def same(what: str, native_value, reference_value, state) -> None:
    """Assert equality, with a readable message (the first difference for long lists)."""
    if native_value == reference_value:
        return
    detail = f"native {native_value!r} != reference {reference_value!r}"
    if isinstance(native_value, list) and isinstance(reference_value, list):
        first = next(
            (i for i, (a, b) in enumerate(zip(native_value, reference_value)) if a != b),
            min(len(native_value), len(reference_value)),
        )
        detail = (
            f"lengths native {len(native_value)}, reference {len(reference_value)}; first "
            f"difference at index {first}: native {native_value[first:first + 3]!r}, "
            f"reference {reference_value[first:first + 3]!r}"
        )
    raise AssertionError(f"{what} differs: {detail}{where(state)}")


def check_same(native, ref) -> tuple[list[str], list[int]]:
    """Everything observable (except text) agrees; returns the legal moves and actions."""
    same("history", native.history, ref.history, ref)
    same("game", native.game, ref.game, ref)
    same("params", native.params, ref.params, ref)
    same("num_actions", native.num_actions, ref.num_actions, ref)
    moves, actions = ref.legal_moves(), ref.legal_actions()
    same("legal_moves()", native.legal_moves(), moves, ref)
    same("legal_actions()", native.legal_actions(), actions, ref)
    assert len(moves) == len(actions) and actions == sorted(set(actions)), where(ref)
    for a, m in zip(actions, moves):
        same(f"action_to_move({a})", native.action_to_move(a), m, ref)
        same(f"move_to_action({m!r})", native.move_to_action(m), a, ref)
    n_scores, r_scores = native.scores(), ref.scores()
    same("scores()", n_scores, r_scores, ref)
    same("type of scores()", [type(x) for x in n_scores], [type(x) for x in r_scores], ref)
    assert type(n_scores) is tuple and len(n_scores) == 2, where(ref)
    same("to_move", native.to_move, ref.to_move, ref)
    same("is_over", native.is_over, ref.is_over, ref)
    same("winner", native.winner, ref.winner, ref)
    same("last_mover", native.last_mover, ref.last_mover, ref)
    same("color_of(0)", native.color_of(0), ref.color_of(0), ref)
    same("color_of(1)", native.color_of(1), ref.color_of(1), ref)
    same("groups()", native.groups(), ref.groups(), ref)
    same("board()", native.board(), ref.board(), ref)
    # invariants of the API, checked on the (already equal) native values
    assert (native.to_move is None) == native.is_over, where(ref)
    assert (moves == []) == native.is_over, where(ref)
    if not native.is_over:
        assert native.winner is None, where(ref)
    return moves, actions


def check_same_text(native, ref) -> None:
    same("str()", str(native), str(ref), ref)
    same("to_record()", native.to_record(), ref.to_record(), ref)


def position(state):
    """The cheap part of a snapshot (no legal-move generation): for the slow reference."""
    return (state.history, state.scores(), state.to_move, state.is_over, state.winner,
            state.last_mover, state.color_of(0), state.color_of(1), state.board())


def snapshot(state):
    """Everything observable about one state, to check that it did not change."""
    return (
        state.history,
        state.legal_moves(),
        state.legal_actions(),
        state.scores(),
        state.to_move,
        state.is_over,
        state.winner,
        state.last_mover,
        state.color_of(0),
        state.color_of(1),
        state.groups(),
        state.board(),
    )


def outcome(call, *args):
    """("ok", value) or ("illegal", (class, kind), message); any other exception fails
    the test. Both implementations give the same class and ``.kind`` (the table of
    docs/conventions.md), each in its own words."""
    try:
        return ("ok", call(*args))
    except IllegalMoveError as error:
        assert str(error), f"{call.__qualname__}{args!r} raised IllegalMoveError without a message"
        assert error.kind is not None, f"{call.__qualname__}{args!r} raised {error!r} without a kind"
        return ("illegal", (type(error).__name__, error.kind), str(error))
    except Exception as error:  # noqa: BLE001 - anything else is a bug
        raise AssertionError(
            f"{call.__qualname__}{args!r} raised {type(error).__name__}: {error} "
            "(expected IllegalMoveError or success)"
        ) from error


def agree(what: str, native_result, reference_result, state) -> None:
    """Both raised the same IllegalMoveError class with the same kind, or both succeeded
    with equal values."""
    if native_result[:2] != reference_result[:2]:
        raise AssertionError(
            f"{what}: native {native_result!r} but reference {reference_result!r}{where(state)}"
        )


# =========================================================================== playing


def pick(game: Game, step, moves: list[str], actions: list[int]):
    """The move string and action a plan step chooses among the legal moves."""
    index, how, number = step
    i = index % len(moves)
    move, action = moves[i], actions[i]
    if number is not None and game.name == "nume" and "=" in move:
        move = f"{move.partition('=')[0]}={number}"  # a legal number without an action
        how = 0
    return move, action, how


def play_step(game: Game, native, ref, step, moves, actions, source="reference") -> None:
    """Play the move a plan step picks from ``moves``/``actions`` (the legal lists of the
    ``source`` side) on both sides."""
    move, action, how = pick(game, step, moves, actions)
    for state, use_action in ((native, how in (1, 2)), (ref, how in (1, 3))):
        label = "native" if state is native else "reference"
        try:
            if use_action:
                state.apply_action(action)
            else:
                state.play(move)
        except Exception as error:
            how_played = f"apply_action({action})" if use_action else f"play({move!r})"
            raise AssertionError(
                f"{label} {how_played} of a move from the {source}'s legal_moves() raised "
                f"{type(error).__name__}: {error}"
                f"{where(state)}"
            ) from error


def play_plan(game: Game, native_cls, ref_cls, params, steps, check_every_step: bool):
    """Play a plan on both sides. Without check_every_step the moves are picked from the
    (fast) native lists, the reference checks each one as it plays it, and everything is
    compared at the end only."""
    native, ref = native_cls(**params), ref_cls(**params)
    moves, actions = check_same(native, ref) if check_every_step else legal_lists(native)
    source = "reference" if check_every_step else "native engine"
    for step in steps:
        if not moves:
            break
        play_step(game, native, ref, step, moves, actions, source)
        moves, actions = check_same(native, ref) if check_every_step else legal_lists(native)
    if not check_every_step:
        check_same(native, ref)
    record_events(native)
    return native, ref


def record_events(state) -> None:
    """Statistics (pytest --hypothesis-show-statistics): what the plans reached."""
    history = state.history
    event(f"{state.game}: game over" if state.is_over else f"{state.game}: game running")
    for kind in ("swap", "pass", "komi", "side"):
        if any(m.startswith(kind) for m in history):
            event(f"{state.game}: history has {kind}")
    if state.game == "tabik" and any("x" in m for m in history):
        event("tabik: history has a stone swap")
    if state.game == "nume" and any("=" in m and int(m.partition("=")[2]) > 100 for m in history):
        event("nume: history has a number > 100")


def legal_lists(state):
    return state.legal_moves(), state.legal_actions()


def replay(cls, params, moves):
    state = cls(**params)
    for move in moves:
        state.play(move)
    return state


def run_hypothesis(test, game: Game, examples: int, **given_kwargs) -> None:
    """Run ``test`` as a hypothesis test. The game's name keys the example database, so a
    failure saved for one game is replayed on that game (light and heavy runs share it)."""
    # a hypothesis hook mixed into the database key; harmless if ever ignored
    test._hypothesis_internal_add_digest = game.name.encode()
    settings(max_examples=examples, **SETTINGS)(given(**given_kwargs)(test))()


# =========================================================================== 1. random games


@games
@budgets
def test_random_games_agree_at_every_step(name, scale):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(plan):
        params, steps = plan
        play_plan(game, native_cls, ref_cls, params, steps, check_every_step=True)

    run_hypothesis(check, game, game.examples(60 * scale), plan=game_plan(game))


@games
def test_random_games_print_and_record_alike(name):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(plan):
        params, steps = plan
        native, ref = native_cls(**params), ref_cls(**params)
        check_same_text(native, ref)
        for step in steps:
            moves, actions = legal_lists(native)
            if not moves:
                break
            play_step(game, native, ref, step, moves, actions, "native engine")
            check_same_text(native, ref)

    run_hypothesis(check, game, game.examples(30, every_step=False), plan=game_plan(game))


@games
def test_action_space_agrees(name):
    """Every action in range converts to the same move and back, on both sides."""
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(params):
        native, ref = native_cls(**params), ref_cls(**params)
        same("num_actions", native.num_actions, ref.num_actions, ref)
        for a in range(ref.num_actions):
            move = ref.action_to_move(a)
            same(f"action_to_move({a})", native.action_to_move(a), move, ref)
            same(f"move_to_action({move!r})", native.move_to_action(move), a, ref)
            same(f"reference move_to_action({move!r})", ref.move_to_action(move), a, ref)

    run_hypothesis(check, game, game.examples(20, every_step=False), params=game.params)


# =========================================================================== 2. positions


@games
@budgets
def test_undo_matches_shorter_history(name, scale):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(plan, data):
        params, steps = plan
        native, ref = play_plan(game, native_cls, ref_cls, params, steps, check_every_step=False)
        before, history = native.copy(), native.history
        k = data.draw(st.integers(1, len(history) + 1), label="undo count")
        for _ in range(min(k, len(history))):
            native.undo()
            ref.undo()
        if k > len(history):  # one more than possible: IndexError, nothing changes
            snap = snapshot(native)
            with pytest.raises(IndexError):
                native.undo()
            with pytest.raises(IndexError):
                ref.undo()
            same("state after a failed undo", snapshot(native), snap, ref)
            k = len(history)
        kept = history[: len(history) - k]
        shorter = replay(ref_cls, params, kept)
        assert ref == shorter, f"reference undo differs from replaying {kept!r}{where(ref)}"
        check_same(native, shorter)
        check_same(native, ref)
        assert native == replay(native_cls, params, kept), where(native)
        # replaying the undone moves gives the state back
        for move in history[len(kept):]:
            native.play(move)
        assert native == before, f"undo then replay differs{where(before)}"
        check_same(native, replay(ref_cls, params, history))

    examples = game.examples(40 * scale, every_step=False)
    run_hypothesis(check, game, examples, plan=game_plan(game), data=st.data())


@games
def test_copy_is_independent(name):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(plan, data):
        params, steps = plan
        native, ref = play_plan(game, native_cls, ref_cls, params, steps, check_every_step=False)
        copies = [("copy()", native.copy(), ref.copy())]
        copies.append(("copy.copy", copy_module.copy(native), ref.copy()))
        copies.append(("copy.deepcopy", copy_module.deepcopy(native), ref.copy()))
        original = snapshot(native)
        for how, native_copy, ref_copy in copies:
            assert type(native_copy) is type(native) and native_copy == native, how
            assert ref_copy == ref, how
            check_same(native_copy, ref_copy)
            # mutate the copy: the original does not change
            if not native_copy.is_over:
                moves, actions = legal_lists(native_copy)
                step = data.draw(st.tuples(index, st.integers(0, 3), st.none()), label="step")
                play_step(game, native_copy, ref_copy, step, moves, actions, "native engine")
                assert native_copy != native, how
                same(f"original after playing on its {how}", snapshot(native), original, ref)
                check_same(native_copy, ref_copy)
            for _ in range(2):
                if native_copy.history:
                    native_copy.undo()
                same(f"original after undoing on its {how}", snapshot(native), original, ref)
        # mutate the original: the copies do not change
        native_copy = native.copy()
        kept = snapshot(native_copy)
        if native.history:
            native.undo()
        elif not native.is_over:
            native.play(native.legal_moves()[0])
        same("copy after changing the original", snapshot(native_copy), kept, ref)
        assert native_copy == replay(native_cls, params, ref.history)

    examples = game.examples(30, every_step=False)
    run_hypothesis(check, game, examples, plan=game_plan(game), data=st.data())


@games
def test_record_round_trip(name):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(plan):
        params, steps = plan
        native, ref = play_plan(game, native_cls, ref_cls, params, steps, check_every_step=False)
        text = native.to_record()
        loaded = territory.load(text)
        assert type(loaded) is native_cls, type(loaded)
        assert loaded == native, f"load(to_record()) differs{where(native)}"
        check_same(loaded, ref)
        ref_text = ref.to_record()
        ref_loaded = territory.load(ref_text, reference=True)
        assert type(ref_loaded) is ref_cls and ref_loaded == ref, where(ref)
        cross = territory.load(text, reference=True)
        same("history of the record loaded by the reference", native.history, cross.history, ref)
        assert territory.load(ref_text) == native, (
            f"the engine reads the reference's record differently{where(ref)}"
        )
        assert native_cls(**native.params) == native_cls(**params)

    run_hypothesis(check, game, game.examples(30, every_step=False), plan=game_plan(game))


# =========================================================================== 3. bad input


def try_move(native, ref, move: str) -> bool:
    """Play one move string on both; returns True if it was legal."""
    agree(f"move_to_action({move!r})", outcome(native.move_to_action, move),
          outcome(ref.move_to_action, move), ref)
    before_native, before_ref = snapshot(native), position(ref)
    result_native, result_ref = outcome(native.play, move), outcome(ref.play, move)
    agree(f"play({move!r})", result_native, result_ref, ref)
    if result_native[0] == "ok":
        note(f"legal: {move!r}")
        check_same(native, ref)
        return True
    same(f"state after the rejected move {move!r}", snapshot(native), before_native, ref)
    assert position(ref) == before_ref, f"reference changed after rejecting {move!r}{where(ref)}"
    return False


def try_action(native, ref, action) -> None:
    agree(f"action_to_move({action!r})", outcome(native.action_to_move, action),
          outcome(ref.action_to_move, action), ref)
    before_native, before_ref = snapshot(native), position(ref)
    result_native = outcome(native.apply_action, action)
    result_ref = outcome(ref.apply_action, action)
    agree(f"apply_action({action!r})", result_native, result_ref, ref)
    if result_native[0] == "ok":
        check_same(native, ref)
    else:
        same(f"state after the rejected action {action!r}", snapshot(native), before_native, ref)
        assert position(ref) == before_ref, (
            f"reference changed after rejecting {action!r}{where(ref)}"
        )


@games
@budgets
def test_bad_moves_rejected_alike(name, scale):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(plan, data):
        params, steps = plan
        native, ref = play_plan(game, native_cls, ref_cls, params, steps, check_every_step=False)
        for _ in range(data.draw(st.integers(1, 15), label="tries")):
            if data.draw(st.integers(0, 3), label="action instead of move?") == 0:
                action = data.draw(candidate_action(ref.num_actions), label="action")
                try_action(native, ref, action)
            else:
                move = data.draw(candidate_move(game, native, ref_cls), label="move")
                try_move(native, ref, move)

    examples = game.examples(100 * scale, every_step=False)
    run_hypothesis(check, game, examples, plan=game_plan(game), data=st.data())


SAMPLE_PARAMS = {name: data.SAMPLES for name, data in test_games.modules().items()}
ODD_MOVES = [None, 0, 3, 2.5, b"pass", bytearray(b"swap"), ["pass"], ("swap",), True, object()]
ODD_ACTIONS = [True, False, 0.0, 1.0, 2.5, "0", "1", None, b"\x01", [0], math.nan,
               np.int64(0), np.int32(1), np.uint8(2), np.int64(-1), np.float64(1.0)]


@games
def test_odd_types_rejected_alike(name):
    """Non-strings as moves, non-ints (and numpy ints) as actions, on several positions."""
    game = GAMES[name]
    native_cls, ref_cls = game.classes()
    rng = random.Random(2024)
    for params in SAMPLE_PARAMS[name]:
        native, ref = native_cls(**params), ref_cls(**params)
        for _ in range(rng.randrange(0, 6)):
            moves = ref.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            native.play(move)
            ref.play(move)
        for odd in ODD_MOVES:
            before = snapshot(native)
            agree(f"play({odd!r})", outcome(native.play, odd), outcome(ref.play, odd), ref)
            agree(f"move_to_action({odd!r})", outcome(native.move_to_action, odd),
                  outcome(ref.move_to_action, odd), ref)
            same(f"state after play({odd!r})", snapshot(native), before, ref)
        for odd in ODD_ACTIONS:
            agree(f"action_to_move({odd!r})", outcome(native.action_to_move, odd),
                  outcome(ref.action_to_move, odd), ref)
            try_action(native, ref, odd)
        with pytest.raises(ValueError):
            native.color_of(2)
        with pytest.raises(ValueError):
            ref.color_of(2)


BAD_PARAMS = {name: data.BAD_PARAMS for name, data in test_games.modules().items()}


@games
def test_bad_params_rejected_alike(name):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def construct(cls, kwargs):
        try:
            return ("ok", cls(**kwargs).params)
        except territory.ParameterError as error:
            assert str(error), f"{cls.__name__}(**{kwargs!r}) raised ParameterError without a message"
            assert error.parameter in kwargs, (kwargs, error.parameter)
            return ("ParameterError", error.parameter)
        except Exception as error:  # noqa: BLE001
            raise AssertionError(
                f"{cls.__name__}(**{kwargs!r}) raised {type(error).__name__}: {error}"
            ) from error

    def check(kwargs):
        result_native, result_ref = construct(native_cls, kwargs), construct(ref_cls, kwargs)
        assert result_native == result_ref, (
            f"{kwargs!r}: native {result_native} reference {result_ref}"
        )

    run_hypothesis(check, game, 150, kwargs=BAD_PARAMS[name])


# =========================================================================== 4. whole games


def rule_scores(state) -> tuple:
    """The scores computed from groups() by the rules, independently of scores()."""
    by_color: dict[str, float] = {}
    if state.game == "nume":
        colors = ("black", "white")
        prices = Counter()
        for g in state.groups():
            assert g.price == max((abs(w - g.size) for w in g.numbers), default=0)
            prices[g.color] += g.price
        komi = None
        if state.params["komi_phase"]:
            choice = next(m for m in state.history if m.startswith("komi "))
            _, value, color = choice.split()
            komi = (float(value), color)
        elif state.params["komi"] is not None:
            komi = (state.params["komi"], state.params["komi_to"])
        for color in colors:
            by_color[color] = float(prices[color]) + (komi[0] if komi and komi[1] == color else 0.0)
    else:
        colors = ("black", "white") if state.game == "tabik" else ("blue", "yellow")
        wedges = state.game == "migong" and state.params["group_size"] == "wedges"
        counts = {c: Counter(g.wedges if wedges else g.size for g in state.groups() if g.color == c)
                  for c in colors}
        for color, other in (colors, colors[::-1]):
            held = [s for s, n in counts[color].items() if n > counts[other][s]]
            by_color[color] = max(held, default=0)
    return (by_color[state.color_of(0)], by_color[state.color_of(1)])


def check_final(game: Game, native, ref) -> None:
    check_same(native, ref)
    assert native.is_over and native.to_move is None and native.legal_moves() == [], where(ref)
    assert native.legal_actions() == [], where(ref)
    s0, s1 = native.scores()
    same("scores() against the rules applied to groups()", (s0, s1), rule_scores(native), ref)
    if game.name == "nume":
        cells = len(native.board()["stones"])
        k, n = native.params["square"], native.params["n"]
        expected_cells = k * k if k is not None else 3 * n * (n + 1)
        assert cells == expected_cells, (
            f"Nume over with {cells} of {expected_cells} cells filled{where(ref)}"
        )
        has_komi = native.params["komi_phase"] or native.params["komi"] is not None
        if s0 == s1:
            assert not has_komi, f"equal scores {s0} despite a komi{where(ref)}"
            assert native.winner is None, where(ref)
        else:
            assert native.winner == (0 if s0 < s1 else 1), f"lower score must win{where(ref)}"
    else:
        assert native.history[-2:] == ["pass", "pass"], where(ref)
        if s0 != s1:
            assert native.winner == (0 if s0 > s1 else 1), f"higher score must win{where(ref)}"
        else:
            assert s0 == 0, f"tie at {s0} (only 0-0 is possible){where(ref)}"
            assert native.last_mover is not None, where(ref)
            assert native.winner == 1 - native.last_mover, (
                f"0-0: the last mover must lose{where(ref)}"
            )
    # nothing more can be played; undo reopens the game
    for move in ["pass", "swap"] + native.history[-1:]:
        result = outcome(native.play, move)
        agree(f"play({move!r}) after the end", result, outcome(ref.play, move), ref)
        assert result[0] == "illegal" and native.is_over, f"{move!r} played after the end{where(ref)}"
    native.undo()
    ref.undo()
    check_same(native, ref)
    assert not native.is_over and native.winner is None, where(ref)


@games
@budgets
def test_complete_games(name, scale):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()

    def check(params, seed):
        rng = random.Random(seed)
        native, ref = native_cls(**params), ref_cls(**params)
        check_same(native, ref)
        steps = 0
        while not native.is_over:  # moves from the native lists, checked by the reference
            moves, actions = legal_lists(native)
            play_step(game, native, ref, random_step(rng), moves, actions, "native engine")
            steps += 1
            assert steps <= game.max_length(params), f"game longer than its bound{where(ref)}"
        check_final(game, native, ref)

    run_hypothesis(check, game, game.examples(30 * scale, every_step=False), params=game.params,
                   seed=st.integers(0, 2**32 - 1))


# =========================================================================== 5. every size

# Every board size each game allows, every Migong border and group size, pie on and off,
# and Nume's komi options: the start, a few random moves, and the end of a game the
# engine played (replayed move by move on the reference, which checks each move), with
# the full comparison (legal moves and actions, both ways) and every listed move played
# and undone. The slow variants compare at every step of whole random games.

EDGE_PARAMS = {name: data.EDGES for name, data in test_games.modules().items()}


def _edge_id(params) -> str:
    return "-".join(f"{k}={'explicit' if k == 'border' and len(str(v)) == 84 else v}"
                    for k, v in params.items())


def _edge_cases(slow_unless=lambda name, params: False):
    for name, all_params in EDGE_PARAMS.items():
        for params in all_params:
            fast = slow_unless(name, params)
            marks = () if fast else (pytest.mark.slow,)
            yield pytest.param(name, params, id=f"{name}-{_edge_id(params)}", marks=marks)


def _fast_edge_case(name, params) -> bool:
    """In the fast set unless the game's test data says otherwise (its ``fast_edge``)."""
    return getattr(test_games.module(name), "fast_edge", lambda params: True)(params)


def play_every_listed_move(native, ref, moves, on_reference: bool) -> None:
    """Each listed move plays (by string and by action) and undoes, giving the position back."""
    history = native.history
    for move in moves:
        action = native.move_to_action(move)
        same(f"action_to_move(move_to_action({move!r}))", native.action_to_move(action), move, ref)
        native.play(move)
        assert native.history == history + [move], where(ref)
        native.undo()
        native.apply_action(action)
        native.undo()
        if on_reference:
            ref.play(move)
            ref.undo()
    assert native.history == history == ref.history, where(ref)


@pytest.mark.parametrize(("name", "params"), list(_edge_cases(_fast_edge_case)))
def test_every_size_agrees_at_start_and_end(name, params):
    game = GAMES[name]
    native_cls, ref_cls = game.classes()
    native, ref = native_cls(**params), ref_cls(**params)
    moves, _ = check_same(native, ref)
    check_same_text(native, ref)
    play_every_listed_move(native, ref, moves, on_reference=len(moves) <= 2000)
    # a few random moves from the start, compared at every step
    rng = random.Random(repr(params))
    for _ in range(3):
        moves, actions = check_same(native, ref)
        play_step(game, native, ref, random_step(rng), moves, actions, "reference")
    # the end of a game the engine plays from the start: replay all but its last few
    # moves on both (the reference checks each), then compare at every step to the end
    full = territory.replay_playout(name, 7, 0, **params).history
    assert len(full) <= game.max_length(native.params), f"{name} {params}: longer than its bound"
    native, ref = native_cls(**params), ref_cls(**params)
    for move in full[:-6]:
        native.play(move)
        ref.play(move)
    moves, _ = check_same(native, ref)
    play_every_listed_move(native, ref, moves, on_reference=True)
    for move in full[-6:]:
        moves, _ = check_same(native, ref)
        assert move in moves, f"{move!r} of the engine's game is not listed{where(ref)}"
        native.play(move)
        ref.play(move)
    check_final(game, native, ref)
    check_same_text(native, ref)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), list(_edge_cases()))
def test_every_size_whole_random_games(name, params):
    """A whole random game compared at every step, moves picked by the reference."""
    game = GAMES[name]
    native_cls, ref_cls = game.classes()
    rng = random.Random(f"whole {params!r}")
    native, ref = native_cls(**params), ref_cls(**params)
    steps = 0
    moves, actions = check_same(native, ref)
    while moves:
        play_step(game, native, ref, random_step(rng), moves, actions, "reference")
        steps += 1
        assert steps <= game.max_length(ref.params), f"game longer than its bound{where(ref)}"
        moves, actions = check_same(native, ref)
    check_final(game, native, ref)
