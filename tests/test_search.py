"""Agents, matches, the solver and position keys (issue 11; keys from issue 14)."""

from __future__ import annotations

import math
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import territory
from territory import AgentError, NodeLimitError, RandomAgent, Uct, parse_agent, play_match, solve
from territory.agents import MatchResults, _elo, match_games
from territory.cli import main

SMALL = [
    ("tabik", {"size": 2, "pie": True}),
    ("tabik", {"size": 2, "pie": False}),
    ("tabik", {"size": 3, "pie": True}),
    ("tabik", {"size": 3, "pie": False}),
    ("nume", {"square": 2, "komi": None}),
    ("nume", {"square": 2, "komi": 0.5}),
    ("nume", {"n": 1, "komi": None}),
    ("nume", {"n": 1, "komi": 0.5}),
]


def start(game, params):
    return territory.GAMES[game](**params) if hasattr(territory, "GAMES") else getattr(territory, game.capitalize())(**params)


def random_position(game, params, rng, max_moves):
    s = start(game, params)
    for _ in range(rng.randrange(max_moves + 1)):
        if s.is_over:
            break
        s.play(rng.choice(s.legal_moves()))
    return s


# ---------------------------------------------------------------- keys


def test_keys_follow_positions_not_move_orders():
    a, b = territory.Tabik(size=4, pie=False), territory.Tabik(size=4, pie=False)
    for m in ["a1-b1", "c3-d3", "a4-a3"]:
        a.play(m)
    for m in ["a4-a3", "c3-d3", "a1-b1"]:
        b.play(m)
    assert a.key() == b.key() and a != b
    assert isinstance(a.key(), int) and 0 <= a.key() < 2**64
    key = a.key()
    a.play("b2-c2")
    assert a.key() != key
    a.undo()
    assert a.key() == key == a.copy().key()


@pytest.mark.parametrize("game", ["tabik", "nume", "migong"])
def test_keys_distinct_across_random_positions(game):
    # Positions of one run of random games: equal keys only for equal positions.
    seen: dict[int, tuple] = {}
    rng = random.Random(3)
    for _ in range(30 if game == "migong" else 100):
        s = start(game, {"size": 5} if game == "tabik" else {"n": 2} if game == "nume" else {})
        while not s.is_over:
            s.play(rng.choice(s.legal_moves()))
            board = s.board()
            described = (repr(sorted(board.items(), key=str)), s.to_move, s.color_of(0), s.last_mover,
                         tuple(s.legal_moves()))
            assert seen.setdefault(s.key(), described) == described


# ---------------------------------------------------------------- solver


def minimax(s) -> int:
    """Plain minimax without pruning: the value for the player to move."""
    me, best = s.to_move, -2
    for m in s.legal_moves():
        s.play(m)
        if s.is_over:
            v = 0 if s.winner is None else (1 if s.winner == me else -1)
        else:
            v = minimax(s) if s.to_move == me else -minimax(s)
        s.undo()
        best = max(best, v)
    return best


def reachable(s, seen, out):
    if s.is_over or s.key() in seen:
        return
    seen.add(s.key())
    out.append(s.copy())
    for m in s.legal_moves():
        s.play(m)
        reachable(s, seen, out)
        s.undo()


@pytest.mark.parametrize("pie", [True, False])
def test_solver_agrees_with_minimax_on_every_tabik_2x2_position(pie):
    positions: list = []
    reachable(territory.Tabik(size=2, pie=pie), set(), positions)
    assert len(positions) > 10
    for p in positions:
        assert solve(p).value == minimax(p.copy()), p.history


def test_solver_agrees_with_minimax_on_nume_square_2x2_positions():
    # Every position two or more stones in (the Rust tests check every position).
    positions: list = []
    reachable(territory.Nume(square=2, komi=None), set(), positions)
    deep = [p for p in positions if len(p.history) >= 2]
    assert len(deep) > 100
    for p in deep[::7]:
        assert solve(p).value == minimax(p.copy()), p.history


@pytest.mark.parametrize("game,params", SMALL)
def test_small_games_solve_from_the_start_and_from_positions(game, params):
    s = start(game, params)
    sol = solve(s)
    assert sol.value in (-1, 0, 1) and sol.nodes > 0
    assert sol.best_moves == [m for m, v in sol.move_values.items() if v == sol.value]
    assert list(sol.move_values) == s.legal_moves()
    # Each move's value is the negated value of the position after it (seats alternate
    # in these games), and the solution of a later position is consistent.
    for move in s.legal_moves()[:6]:
        s.play(move)
        if not s.is_over:
            assert solve(s).value == -sol.move_values[move]
        s.undo()


def test_solver_values_pinned():
    """The values in docs/solved.md."""
    assert solve(territory.Tabik(size=2, pie=False)).value == 1
    assert solve(territory.Tabik(size=2, pie=True)).value == -1
    assert solve(territory.Tabik(size=3, pie=False)).value == -1
    assert solve(territory.Tabik(size=3, pie=True)).value == -1
    nume = solve(territory.Nume(square=2, komi=None))
    assert (nume.value, nume.best_moves) == (0, ["a1=2", "b1=2", "a2=2", "b2=2"])
    assert solve(territory.Nume(square=2, komi=0.5)).value == -1
    for komi in (None, 0.5):
        hexagon = solve(territory.Nume(n=1, komi=komi))
        assert (hexagon.value, hexagon.best_moves) == (1, ["b1=3", "a2=3", "b2=3"])


def test_solver_limits_and_errors():
    with pytest.raises(NodeLimitError, match="max_nodes"):
        solve(territory.Tabik(size=4), max_nodes=1000)
    s = territory.Tabik(size=2, pie=False)
    while not s.is_over:
        s.play(s.legal_moves()[0])
    with pytest.raises(ValueError, match="over"):
        solve(s)
    with pytest.raises(ValueError, match="max_nodes"):
        solve(territory.Tabik(size=2), max_nodes=0)
    with pytest.raises(ValueError, match="native"):
        solve("tabik")


# ---------------------------------------------------------------- UCT


def one_winning_move_positions(count):
    """Positions (from seeded random play on the small boards) where the player to move
    has exactly one winning move among at least four, by the solver."""
    rng = random.Random(1)
    found = []
    while len(found) < count:
        game, params = SMALL[rng.randrange(len(SMALL))]
        s = random_position(game, params, rng, 5)
        if s.is_over:
            continue
        sol = solve(s)
        if sol.value == 1 and len(sol.best_moves) == 1 and len(sol.move_values) >= 4:
            found.append((s, sol.best_moves[0]))
    return found


def test_uct_finds_the_only_winning_move():
    # A hand-built one: Tabik 3x3 with pie, after a2-a3 only b2-c2 (of 17) wins.
    s = territory.Tabik(size=3, pie=True)
    s.play("a2-a3")
    assert solve(s).best_moves == ["b2-c2"] and solve(s).value == 1
    assert Uct(iterations=3000).choose(s) == "b2-c2"
    for position, best in one_winning_move_positions(25):
        assert Uct(iterations=3000, seed=5).choose(position) == best, position.history


@pytest.mark.parametrize("game,params", [("tabik", {"size": 3, "pie": False}), ("nume", {"n": 1, "komi": 0.5}),
                                         ("tabik", {"size": 2, "pie": True})])
def test_uct_root_value_converges_to_the_solver_value(game, params):
    s = start(game, params)
    exact = solve(s).value
    errors = [abs(Uct(iterations=n, seed=1).analyse(s).value - exact) for n in (100, 3000, 60000)]
    assert errors[2] < 0.25 and errors[2] < errors[0], errors


def test_uct_same_seed_same_answer():
    s = territory.Tabik(size=5)
    s.play("c3-c4")
    for threads in (1, 2):
        a = Uct(iterations=2000, seed=7, threads=threads).analyse(s)
        b = Uct(iterations=2000, seed=7, threads=threads).analyse(s)
        assert a == b
        assert sum(a.visits) == 2000 and a.moves == s.legal_moves()
        assert -1 <= a.value <= 1 and all(-1 <= v <= 1 for v in a.values)
    assert Uct(iterations=2000, seed=7).analyse(s) != Uct(iterations=2000, seed=8).analyse(s)


def test_uct_and_random_agent_input_checks():
    for bad in [dict(iterations=0), dict(c=-1.0), dict(c=float("nan")), dict(threads=0), dict(seed=-1),
                dict(iterations=True)]:
        with pytest.raises(ValueError):
            Uct(**bad)
    over = territory.Tabik(size=2, pie=False)
    while not over.is_over:
        over.play(over.legal_moves()[0])
    with pytest.raises(ValueError, match="over"):
        Uct(10).choose(over)
    with pytest.raises(ValueError, match="over"):
        RandomAgent().choose(over)
    s = territory.Migong()
    assert RandomAgent(seed=3).choose(s) == RandomAgent(seed=3).choose(s) in s.legal_moves()
    assert Uct(iterations=50).choose(s) in s.legal_moves()


def test_agent_specs():
    assert isinstance(parse_agent("random"), RandomAgent)
    assert parse_agent("uct:2000").iterations == 2000
    assert parse_agent("uct").iterations == 1000
    for bad in ["uct:", "uct:0", "uct:x", "alphazero", "random:3", ""]:
        with pytest.raises(ValueError):
            parse_agent(bad)
    with pytest.raises(ValueError):
        parse_agent(42)


# ---------------------------------------------------------------- matches


def test_uct_beats_random_quick():
    r = play_match("tabik", ["uct:300", "random"], 12, seed=2, size=4)
    assert r.agent_wins[0] >= 11, r.agent_wins
    s = r.summary()
    assert s["agent0_win_rate"] >= 11 / 12 and s["elo_difference"] > 0
    low, high = s["agent0_win_rate_ci95"]
    assert low < s["agent0_win_rate"] <= high


def test_elo_and_its_interval_on_results_that_are_not_a_sweep():
    # 400 log10(p / (1 - p)): p = 3/4 gives 400 log10(3).
    assert _elo(0.75) == pytest.approx(190.8485, abs=1e-4) and _elo(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert _elo(0.5) == 0 and _elo(0.0) == -math.inf and _elo(1.0) == math.inf
    # 5 wins, 2 losses, 1 draw: agent 0 scores 5.5 of 8, p = 0.6875; Wilson (z = 1.96):
    # centre (p + z^2/16) / (1 + z^2/8) = 0.62667, half-width 0.27092.
    s = MatchResults("tabik", {}, 0, 8, agents=("a", "b"), agent_wins=(5, 2, 1)).summary()
    assert s["agent0_win_rate"] == 0.6875 and s["agent1_win_rate"] == 0.3125
    assert s["agent0_win_rate_ci95"] == pytest.approx((0.355755, 0.897592), abs=1e-6)
    assert s["agent1_win_rate_ci95"] == pytest.approx((0.102408, 0.644245), abs=1e-6)
    assert s["elo_difference"] == pytest.approx(400 * math.log10(2.2))  # 136.97
    assert s["elo_ci95"] == pytest.approx((-103.1599, 377.0980), abs=1e-4)  # the interval's ends, in Elo
    mirror = MatchResults("tabik", {}, 0, 8, agents=("b", "a"), agent_wins=(2, 5, 1)).summary()
    assert mirror["elo_difference"] == pytest.approx(-s["elo_difference"])
    assert mirror["elo_ci95"] == pytest.approx((-377.0980, 103.1599), abs=1e-4)


@pytest.mark.slow
def test_uct_2000_beats_random_on_tabik_6x6():
    r = play_match("tabik", [Uct(iterations=2000), RandomAgent()], 40, seed=0, size=6)
    assert r.agent_wins[0] >= 36, r.agent_wins
    assert list(r.seats_swapped) == [i % 2 == 1 for i in range(40)]


def test_match_results_shape_and_bookkeeping():
    r = play_match("nume", ["uct:100", "random"], 10, seed=4, n=1, komi=None)
    assert len(r.winner) == len(r.length) == len(r.agent_winner) == 10 and r.scores.shape == (10, 2)
    for i in range(10):
        seat0 = 1 if i % 2 else 0
        expected = -1 if r.winner[i] == -1 else int(r.winner[i] != seat0)
        assert r.agent_winner[i] == expected
    assert sum(r.agent_wins) == 10
    assert r.agent_wins == (int((r.agent_winner == 0).sum()), int((r.agent_winner == 1).sum()),
                            int((r.agent_winner == -1).sum()))
    fixed = play_match("tabik", ["random", "random"], 6, swap_seats=False, size=3)
    assert not fixed.seats_swapped.any()
    empty = play_match("tabik", ["random", "uct:10"], 0)
    assert len(empty.winner) == 0 and empty.agent_wins == (0, 0, 0)


def test_matches_are_reproducible_across_threads_ranges_and_executors():
    kwargs = dict(seed=9, size=4)
    one = play_match("tabik", ["uct:200", "random"], 16, threads=1, **kwargs)
    two = play_match("tabik", ["uct:200", "random"], 16, threads=2, **kwargs)
    with ThreadPoolExecutor(2) as pool:
        sharded = play_match("tabik", ["uct:200", "random"], 16, executor=pool, **kwargs)
    parts = [match_games("tabik", ["uct:200", "random"], 9, lo, hi, size=4) for lo, hi in [(0, 5), (5, 16)]]
    for name in ("winner", "length", "scores", "agent_winner", "seats_swapped"):
        assert np.array_equal(getattr(one, name), getattr(two, name))
        assert np.array_equal(getattr(one, name), getattr(sharded, name))
        assert np.array_equal(getattr(one, name), np.concatenate([p[name] for p in parts]))
    other = play_match("tabik", ["uct:200", "random"], 16, seed=10, size=4)
    assert not np.array_equal(one.length, other.length)


class FirstMove:
    def choose(self, state):
        return state.legal_moves()[0]


class Raises:
    def choose(self, state):
        raise RuntimeError("boom")


class Illegal:
    def choose(self, state):
        return "z9-z8"


class NotAString:
    def choose(self, state):
        return 3


def test_python_agents_play_and_fail_clearly():
    r = play_match("tabik", [FirstMove(), "random"], 4, size=3)
    assert sum(r.agent_wins) == 4
    again = play_match("tabik", [FirstMove(), "random"], 4, size=3)
    assert np.array_equal(r.length, again.length)
    # A Python agent against UCT, from a given position.
    s = territory.Nume(n=1)
    s.play("a1=3")
    r = play_match(s, [FirstMove(), Uct(50)], 2)
    assert all(length == 5 for length in r.length)
    for agent, pattern in [(Raises(), "agent 1 .*raised RuntimeError: boom in game 0 after the moves"),
                           (Illegal(), "agent 1 .*illegal move 'z9-z8' in game 0 after the moves: [a-c][1-3]-.*off the 3 x 3 board"),
                           (NotAString(), "agent 1 .*returned 3, not a move string")]:
        with pytest.raises(AgentError, match=pattern):
            play_match("tabik", ["random", agent], 2, swap_seats=False, size=3)
    with pytest.raises(ValueError, match="two agents"):
        play_match("tabik", ["random"], 2)
    with pytest.raises(ValueError, match="unknown agent"):
        play_match("tabik", ["random", "minimax"], 2)


# ---------------------------------------------------------------- CLI


def test_cli_match_and_solve(capsys, tmp_path):
    assert main(["match", "tabik", "--agents", "uct:200", "random", "--games", "6", "--size", "4",
                 "--json", str(tmp_path / "m.json")]) == 0
    out = capsys.readouterr().out
    assert "agent 0  Uct(iterations=200" in out and "Elo difference" in out
    assert main(["solve", "nume", "--square", "2", "--komi", "none"]) == 0
    out = capsys.readouterr().out
    assert "value       +0 (draw" in out and "best moves  a1=2, b1=2, a2=2, b2=2" in out
    s = territory.Tabik(size=3)
    s.play("a2-a3")
    (tmp_path / "g.txt").write_text(s.to_record())
    assert main(["solve", "tabik", "--record", str(tmp_path / "g.txt")]) == 0
    assert "best moves  b2-c2  (1 of 17)" in capsys.readouterr().out
    assert main(["solve", "tabik", "--size", "4", "--max-nodes", "100"]) == 2
    assert "100" in capsys.readouterr().err  # the node limit, named
    assert main(["match", "tabik", "--agents", "uct:0", "random"]) == 2
    assert "--agents" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solver_and_uct_on_migong_endgames(seed):
    rng = random.Random(seed)
    s = territory.Migong()
    while not s.is_over:
        s.play(rng.choice(s.legal_moves()))
    for _ in range(6):
        s.undo()
    sol = solve(s, max_nodes=10**6)
    assert sol.value == minimax(s.copy())
    a = Uct(iterations=3000, seed=seed).analyse(s)
    if sol.value == 1:
        assert a.best in sol.best_moves


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True])
def test_a_bad_analyse_seed_is_a_value_error(seed):
    """Uct(10).analyse(s, seed=-1) raised OverflowError from the bindings."""
    state = territory.Tabik(size=3)
    with pytest.raises(ValueError, match=r"seed must be an int from 0 to 18446744073709551615, got"):
        territory.Uct(10).analyse(state, seed=seed)
    assert state.history == []


# --- stopping a search from another thread (territory.Stop) ---------------------------------


@pytest.mark.parametrize("search", [
    lambda state, stop: Uct(10**7).analyse(state, stop=stop),
    lambda state, stop: Uct(10**7, threads=2).analyse(state, stop=stop),
    lambda state, stop: solve(territory.Tabik(size=6), memory=2**24, stop=stop),
], ids=["uct", "uct threads=2", "solve"])
def test_a_stop_set_from_another_thread_ends_a_search_at_once(search):
    stop = territory.Stop()
    assert not stop.is_set() and repr(stop) == "Stop(set=False)"
    threading.Timer(0.3, stop.set).start()
    began = time.monotonic()
    with pytest.raises(territory.StoppedError, match="stopped"):
        search(territory.Migong(), stop)
    assert time.monotonic() - began < 1.0 and stop.is_set()
    # A set Stop stops a short search as well; an unset one changes nothing.
    with pytest.raises(territory.StoppedError):
        Uct(100).analyse(territory.Tabik(size=4), stop=stop)
    s = territory.Tabik(size=4)
    assert Uct(500, seed=3).analyse(s, stop=territory.Stop()) == Uct(500, seed=3).analyse(s)


@pytest.mark.parametrize("agent", ["uct", "uct threads=2", "puct"])
def test_finish_set_from_another_thread_ends_a_search_with_a_legal_move(agent):
    """"Move now": ``finish`` ends a search of minutes within 0.1 s with the move it has,
    and ``progress`` meanwhile reports growing counts and legal best moves."""
    state = territory.Tabik(size=6)
    searcher = {
        "uct": Uct(10**7), "uct threads=2": Uct(10**7, threads=2), "puct": territory.Puct("tabik-6", 10**7),
    }[agent]
    finish, reports, ended = territory.Stop(), [], {}

    def later():
        time.sleep(0.5)
        ended["set"] = time.monotonic()
        finish.set()

    threading.Thread(target=later).start()
    move = searcher.choose(state, finish=finish, progress=lambda *r: reports.append(r))
    returned = time.monotonic()
    assert move in state.legal_moves() and state.history == []
    assert returned - ended["set"] < 0.1, returned - ended["set"]
    assert len(reports) >= 3, reports
    counts = [done for done, _, _ in reports]
    assert counts == sorted(counts) and counts[-1] > counts[0] > 0
    assert all(best in state.legal_moves() and -1 <= value <= 1 for _, best, value in reports)


def test_a_stop_ends_a_puct_search_with_stopped_error_and_an_unset_finish_changes_nothing():
    state, stop = territory.Tabik(size=6), territory.Stop()
    threading.Timer(0.3, stop.set).start()
    began = time.monotonic()
    with pytest.raises(territory.StoppedError, match="stopped"):
        territory.Puct("tabik-6", 10**7).analyse(state, stop=stop)
    assert time.monotonic() - began < 1.0
    puct = territory.Puct("tabik-6", 300, seed=2)
    visits, value = puct.analyse(state)
    watched = puct.analyse(state, stop=territory.Stop(), finish=territory.Stop(), progress=lambda *_: None)
    assert (watched[0] == visits).all() and watched[1] == value
    assert puct.choose(state) == puct.choose(state, finish=territory.Stop())
    analysis = Uct(2000, seed=2).analyse(state)
    assert Uct(2000, seed=2).analyse(state, finish=territory.Stop(), progress=lambda *_: None) == analysis
    for bad in (True, "finish"):
        with pytest.raises(ValueError, match="finish must be a territory.Stop"):
            puct.analyse(state, finish=bad)
        with pytest.raises(ValueError, match="progress must be a function"):
            Uct(10).analyse(state, progress=bad)


def test_a_progress_callback_that_raises_stops_the_search_with_its_error():
    def fail(*_):
        raise RuntimeError("enough")

    for searcher in (Uct(10**7), territory.Puct("tabik-6", 10**7)):
        began = time.monotonic()
        with pytest.raises(RuntimeError, match="enough"):
            searcher.analyse(territory.Tabik(size=6), progress=fail)
        assert time.monotonic() - began < 1.0


def test_stop_must_be_a_stop():
    for bad in (True, 1, "stop", object()):
        with pytest.raises(ValueError, match="territory.Stop"):
            Uct(10).analyse(territory.Tabik(size=3), stop=bad)
        with pytest.raises(ValueError, match="territory.Stop"):
            solve(territory.Tabik(size=2), stop=bad)


def test_a_model_orders_the_solver_s_moves_without_changing_the_solution(tmp_path, capsys):
    from territory.model import Model
    from territory.puct import Puct

    # Random networks order the moves of small boards differently at every depth.
    for state in (territory.Tabik(size=3), territory.Tabik(size=3, pie=False), territory.Nume(square=2, komi=None)):
        plain = solve(state)
        model = Model.new(state, hidden=8, seed=3)
        for order, depth in ((model, 2), (Puct(model), 64), (model, 0)):
            ordered = solve(state, order=order, order_depth=depth)
            assert (ordered.value, ordered.best_moves, ordered.move_values) == (
                plain.value, plain.best_moves, plain.move_values)
            if depth == 0:
                assert ordered.nodes == plain.nodes  # no position is shallower than 0 moves
    # The shipped model on Tabik 4x4, from a position three placements in.
    state = territory.Tabik(size=4)
    for move in ("b2-c2", "a1-a2", "d4-d3"):
        state.play(move)
    plain, ordered = solve(state), solve(state, order="tabik-4")
    assert (ordered.value, ordered.move_values) == (plain.value, plain.move_values)
    with pytest.raises(ValueError, match="the model was trained for tabik"):
        solve(territory.Tabik(size=3), order="tabik-4")
    with pytest.raises(ValueError, match="order must be a Model"):
        solve(territory.Tabik(size=3), order=3)
    with pytest.raises(ValueError, match="order_depth"):
        solve(territory.Tabik(size=3), order=Model.new(territory.Tabik(size=3), hidden=4), order_depth=-1)
    model_file = tmp_path / "t3.npz"
    Model.new(territory.Tabik(size=3), hidden=4).save(model_file)
    assert main(["solve", "tabik", "--size", "3", "--order", str(model_file), "--order-depth", "3"]) == 0
    assert "value       -1 (loss" in capsys.readouterr().out
    assert main(["solve", "tabik", "--size", "3", "--order", "tabik-4"]) == 2
    assert "not for tabik (size=3, pie=True)" in capsys.readouterr().err
