"""Design metrics (territory.evaluate), fair komi, openings and their plots.

The hand-made records below are small enough to follow on paper; every expected value
is worked out in the comments from the definitions in docs/metrics.md.
"""

from __future__ import annotations

import builtins
import importlib
import json
import math
import random
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import territory
from territory import _core

# The package (the attribute territory.evaluate is the function), and the modules of
# the analyses for their internals.
ev = importlib.import_module("territory.evaluate")
runs = importlib.import_module("territory.evaluate.runs")
komi_module = importlib.import_module("territory.evaluate.komi")


def actions(state, moves):
    s = state.copy()
    out = []
    for m in moves:
        out.append(s.move_to_action(m))
        s.play(m)
    return out


# Nume on a 2 x 2 square (komi 0.5 to Black, lower score wins; seat 0 is Black).
#   S0 empty, Black to move: 4 cells x numbers 0..4                  20 moves, B 0.5 W 0
#   a1=1: Black group {a1}, price |1 - 1| = 0
#   S1 White: 3 cells x 5 numbers                                     15 moves, B 0.5 W 0
#   b2=4: White group {b2}, price |4 - 1| = 3
#   S2 Black: b1 and a2 join a1's group (no number)                    2 moves, B 0.5 W 3
#   b1: Black {a1, b1}, price |1 - 2| = 1
#   S3 White: a2 joins b2                                              1 move,  B 1.5 W 3
#   a2: White {b2, a2}, price |4 - 2| = 2; final B 1.5, W 2: Black (seat 0) wins.
# Seat 0's lead (White's score minus Black's) before each move: -0.5, -0.5, 2.5, 1.5.
NUME_GAME = ["a1=1", "b2=4", "b1", "a2"]

# Tabik 2 x 2 without pie: every state scores 0 : 0 (both colours always have equal
# groups), the last move before the passes is seat 1's, so seat 0 wins.
#   S0 8 placements; a1-b1; S1 2 placements (edge a2-b2); b2-a2;
#   S2 2 stone swaps (a1-a2, b1-b2 have no rod); a1xa2; S3 1 swap (b1xb2); b1xb2;
#   S4 pass only; pass; S5 pass only; pass.
TABIK_GAME = ["a1-b1", "b2-a2", "a1xa2", "b1xb2", "pass", "pass"]


def nume_trace():
    start = territory.Nume(square=2)
    return ev.trace_games(start, [actions(start, NUME_GAME)], threads=1)


def tabik_trace():
    start = territory.Tabik(size=2, pie=False)
    return ev.trace_games(start, [actions(start, TABIK_GAME)], threads=1)


def test_hand_made_nume_game_per_game_record():
    t = {k: v[0] for k, v in nume_trace().items()}
    assert t["winner"] == 0 and t["moves"] == 4 and t["turns"] == 4 and t["passes"] == 0
    assert list(t["scores"]) == [1.5, 2.0] and t["final_lead"] == 0.5
    assert t["branching_sum"] == 20 + 15 + 2 + 1
    assert t["branching_sq_sum"] == 400 + 225 + 4 + 1
    assert t["branching_max"] == 20
    assert t["decisions"] == 3
    # Leaders: seat 1, seat 1, seat 0, seat 0; the first state counts as a change (Ludii).
    assert t["lead_changes"] == 2
    assert t["lead_sum"] == 3.0 and t["lead_sq_sum"] == 0.25 + 0.25 + 6.25 + 2.25
    # Drama: the winner's shortfall below the best, max(0, -2 * lead): 1, 1, 0, 0.
    assert t["drama_sum"] == 2.0 and t["drama_max"] == 1.0
    # Threshold: the loser's best evaluation, max(-lead) = 0.5; the winner first exceeds
    # it in S2 (lead 2.5).
    assert t["decisive_at"] == 2


def test_hand_made_nume_game_metrics():
    m = ev.compute_metrics(nume_trace())
    assert m["BranchingFactor"].estimate == 9.5
    assert m["BranchingFactorVariance"].estimate == pytest.approx(157.5 - 9.5**2)
    assert m["DecisionMoves"].estimate == 0.75
    assert m["LeadChange"].estimate == 0.5
    assert m["Stability"].estimate == pytest.approx(2 * (2.25 - 0.75**2))
    assert m["Drama"].estimate == 0.5
    assert m["DramaMax"].estimate == 1.0
    assert m["DecisivenessMoves"].estimate == 0.5
    assert m["DurationMoves"].estimate == 4 and m["DurationTurns"].estimate == 4
    assert m["AdvantageP1"].estimate == 1.0 and m["Completion"].estimate == 1.0


def test_hand_made_tabik_game():
    t = {k: v[0] for k, v in tabik_trace().items()}
    assert t["winner"] == 0 and t["moves"] == 6 and t["turns"] == 6 and t["passes"] == 2
    assert t["branching_sum"] == 8 + 2 + 2 + 1 + 1 + 1 and t["branching_max"] == 8
    assert t["decisions"] == 3
    # Both seats lead (tied) in every state: one change, from the empty set before S0.
    assert t["lead_changes"] == 1 and t["lead_sum"] == 0 and t["lead_sq_sum"] == 0
    assert t["drama_sum"] == 0
    # The winner's evaluation (0) never exceeds the loser's best (0): the whole game.
    assert t["decisive_at"] == 6


def test_metrics_over_two_hand_made_games():
    both = {k: np.concatenate([a, b]) for (k, a), b in zip(nume_trace().items(), tabik_trace().values())}
    m = ev.compute_metrics(both)
    assert m["DurationMoves"].estimate == 5.0
    assert m["DurationMovesStdDev"].estimate == 1.0  # population std dev of 4 and 6
    assert m["DecisionMoves"].estimate == pytest.approx((0.75 + 0.5) / 2)
    assert m["LeadChange"].estimate == pytest.approx((0.5 + 1 / 6) / 2)
    assert m["DecisivenessMoves"].estimate == pytest.approx((0.5 + 1.0) / 2)
    low, high = m["DurationMoves"].interval
    half = 1.959963984540054 * math.sqrt(2.0) / math.sqrt(2)  # sample sd of (4, 6) is sqrt(2)
    assert (low, high) == pytest.approx((5 - half, 5 + half))


def made_traces(winners, moves, turns, branching_max):
    """Traces of games with these winners and lengths, the other fields 0."""
    n = len(winners)
    zeros = {k: np.zeros(n) for k in ("branching_sum", "branching_sq_sum", "decisions", "lead_changes", "lead_sum",
                                     "lead_sq_sum", "drama_sum", "drama_max", "decisive_at")}
    return {**zeros, "winner": np.array(winners, dtype=np.int8), "moves": np.array(moves, dtype=np.uint32),
            "turns": np.array(turns, dtype=np.uint32), "branching_max": np.array(branching_max, dtype=np.float64)}


def test_balance_completion_and_durations_on_made_traces():
    # 10 games: seat 0 wins 3, seat 1 wins 6, one draw. d = 0.3 - 0.6 = -0.3: Balance
    # 1 - |d| = 0.7. se of d = sqrt((p0 + p1 - d^2) / n) = sqrt(0.081) = 0.28460; d's
    # interval -0.3 -+ 1.96 se = [-0.8578, 0.2578] holds 0, so Balance's is [1 - 0.8578, 1].
    m = ev.compute_metrics(made_traces([0] * 3 + [1] * 6 + [-1], [4] * 5 + [6] * 5, [4] * 5 + [2] * 5, [8] * 9 + [18]))
    assert m["Balance"].estimate == pytest.approx(0.7)
    assert m["Balance"].interval == pytest.approx((1 - 0.3 - 1.959964 * math.sqrt(0.081), 1.0))
    assert m["AdvantageP1"].estimate == 0.3 and m["AdvantageP1"].interval == territory.playouts.wilson_interval(3, 10)
    assert m["Completion"].estimate == 0.9 and m["Completion"].interval == territory.playouts.wilson_interval(9, 10)
    assert m["Drawishness"].estimate == 0.1 and m["Drawishness"].interval == territory.playouts.wilson_interval(1, 10)
    assert m["Timeouts"].estimate == 0 and m["Timeouts"].interval == territory.playouts.wilson_interval(0, 10)
    assert m["DurationMoves"].estimate == 5 and m["DurationMovesStdDev"].estimate == 1.0
    assert m["DurationTurns"].estimate == 3 and m["DurationTurnsStdDev"].estimate == 1.0
    assert m["BranchingFactorMax"].estimate == 9.0
    # The sample sd of five 4s and five 6s is sqrt(10 / 9).
    half = 1.959964 * math.sqrt(10 / 9) / math.sqrt(10)
    assert m["DurationMoves"].interval == pytest.approx((5 - half, 5 + half))
    # 100 games, 80 to 20 either way: d = +-0.6, se sqrt((1 - 0.36) / 100) = 0.08: d's
    # interval [0.4432, 0.7568] misses 0, so Balance's is [1 - 0.7568, 1 - 0.4432].
    for winners in ([0] * 80 + [1] * 20, [1] * 80 + [0] * 20):
        m = ev.compute_metrics(made_traces(winners, [5] * 100, [5] * 100, [3] * 100))
        assert m["Balance"].estimate == pytest.approx(0.4)
        assert m["Balance"].interval == pytest.approx((0.4 - 1.959964 * 0.08, 0.4 + 1.959964 * 0.08))
        assert m["DurationMovesStdDev"].estimate == 0 and m["DurationMoves"].interval == (5.0, 5.0)


def test_one_game_has_no_interval_for_a_mean():
    m = ev.compute_metrics(made_traces([1], [7], [7], [2]))
    assert m["DurationMoves"].estimate == 7 and m["DurationMoves"].interval == (-math.inf, math.inf)
    assert m["Balance"].estimate == 0.0 and m["AdvantageP1"].estimate == 0.0


def test_pie_swap_and_turns():
    start = territory.Tabik(size=2, pie=True)
    # a1-b1, swap (seat 1 now plays Black), then placements and swaps to the end.
    s = start.copy()
    for m in ["a1-b1", "swap"]:
        s.play(m)
    while not s.is_over:
        s.play(s.legal_moves()[0])
    t = ev.trace_games(start, [[s.move_to_action(m) for m in s.history]], threads=1)
    assert bool(t["swapped"][0]) and t["moves"][0] == len(s.history) and t["turns"][0] == len(s.history)
    assert t["winner"][0] == s.winner


def python_trace(start, moves):
    """A plain re-computation of the per-game record from the Python API."""
    s = start.copy()
    sign = -1.0 if s.game == "nume" else 1.0
    leads, branching = [], []
    for m in moves:
        branching.append(len(s.legal_moves()))
        a, b = s.scores()
        leads.append(sign * (a - b))
        s.play(m)
    w = s.winner
    ew = [(1 if w == 0 else -1) * d for d in leads] if w is not None else None
    changes, before = 0, None
    for d in leads:
        now = {0} if d > 0 else {1} if d < 0 else {0, 1}
        changes += now != before
        before = now
    threshold = max(-e for e in ew) if ew else -math.inf
    decisive = next((i for i, e in enumerate(ew) if e > threshold), len(moves)) if ew else 0
    drama = [max(0.0, -2 * e) for e in ew] if ew else [abs(d) for d in leads]
    return {"winner": -1 if w is None else w, "branching_sum": sum(branching), "decisions": sum(b > 1 for b in branching),
            "lead_changes": changes, "lead_sum": sum(leads), "drama_sum": sum(drama), "decisive_at": decisive}


@pytest.mark.parametrize("game,params", [("tabik", {"size": 4}), ("nume", {"n": 2, "komi": None}), ("migong", {})])
def test_random_traces_match_a_python_recomputation(game, params):
    start = territory.new_game(game, **params)
    games = 2 if game == "migong" else 12
    t = _core.trace_random(start, 5, 0, games, 1)
    for i in range(games):
        replayed = territory.replay_playout(game, 5, i, **params)
        expected = python_trace(start, replayed.history)
        for key, value in expected.items():
            assert t[key][i] == pytest.approx(value), (key, i)


@pytest.mark.parametrize("game,params", [("tabik", {"size": 5}), ("nume", {"n": 2, "komi": None}), ("migong", {})])
def test_advantage_p1_is_seat0_win_share_of_random_playouts(game, params):
    games = 300 if game == "migong" else 3000
    e = territory.evaluate(game, games=games, seed=11, threads=2, **params)
    r = territory.random_playouts(game, games, seed=11, **params)
    assert np.array_equal(e.traces["winner"], r.winner)
    assert np.array_equal(e.traces["moves"], r.length)
    s = r.summary()
    # Ludii counts a draw as no win for player 1.
    assert e.metrics["AdvantageP1"].estimate == s["seat0_wins"] / games
    assert e.metrics["Drawishness"].estimate == s["draws"] / games
    assert e.metrics["AdvantageP1"].interval == pytest.approx(territory.playouts.wilson_interval(s["seat0_wins"], games))
    if game == "nume":
        assert s["draws"] > 0  # komi=None: draws happen, and the test sees them


def test_results_do_not_depend_on_sharding_or_threads():
    local = territory.evaluate("tabik", games=700, seed=3, threads=1, size=5)
    with ThreadPoolExecutor(3) as pool:
        sharded = territory.evaluate("tabik", games=700, seed=3, executor=pool, threads=2, size=5)
    for name in ev.TRACE_FIELDS:
        assert np.array_equal(local.traces[name], sharded.traces[name])
    assert local.to_dict()["metrics"] == sharded.to_dict()["metrics"]


def test_json_and_text():
    e = territory.evaluate("nume", games=50, seed=1, n=2)
    data = json.loads(e.to_json())
    assert set(data["metrics"]) >= {"AdvantageP1", "Balance", "Completion", "Drawishness", "Timeouts", "DurationTurns",
                                    "DurationMoves", "BranchingFactor", "DecisionMoves", "LeadChange", "Stability",
                                    "Drama", "DecisivenessMoves"}
    low, high = data["metrics"]["AdvantageP1"]["interval"]
    assert 0 <= low <= data["metrics"]["AdvantageP1"]["estimate"] <= high <= 1
    assert "AdvantageP1" in str(e)


# --- agents -------------------------------------------------------------------------------


class SeededAgent:
    """A stand-in for territory.Uct: uniform random moves from its own seeded stream."""

    def __init__(self, iterations=1, seed=0, **_):
        self.iterations, self.rng = iterations, random.Random(seed)

    def choose(self, state):
        return self.rng.choice(state.legal_moves())


def test_agent_spec_parsing():
    """evaluate reads agents with agents.parse_agent, plus factories."""
    assert type(runs._parse("random")) is territory.RandomAgent
    uct = runs._parse(" UCT:2000 ")
    assert type(uct) is territory.Uct and uct.iterations == 2000 and runs._agent_name(uct) == "uct:2000"
    for bad in ["uct:0", "uct:x", "minimax", ""]:
        with pytest.raises(ValueError, match="agent"):
            runs._parse(bad)
    with pytest.raises(ValueError, match="agent must be"):
        runs._parse(3)
    factory = lambda seed: SeededAgent(seed=seed)  # noqa: E731
    assert runs._parse(factory) is factory
    with pytest.raises(ValueError, match="agent must be"):
        territory.agents.parse_agent(factory)  # play_match takes no factories


def test_agent_games_by_choose():
    """A factory's games run move by move through choose(), seeded per game and seat."""
    factory = lambda seed: SeededAgent(seed=seed)  # noqa: E731
    e = territory.evaluate("tabik", agent=factory, games=6, seed=2, size=3)
    again = territory.evaluate("tabik", agent=factory, games=6, seed=2, size=3)
    assert np.array_equal(e.traces["winner"], again.traces["winner"])  # seeded per game
    # Game 4 replayed by hand with the agents' per-game seeds.
    start = territory.Tabik(size=3)
    agents = [SeededAgent(seed=ev.agent_seed(2, 4, s)) for s in range(2)]
    played = territory.agents.play_agents(start, agents, 4)
    assert e.traces["moves"][4] == len(played.history)
    assert e.metrics["Completion"].estimate == 1.0


def test_uct_evaluation_runs_as_native_matches():
    """evaluate("uct:50") plays game i as game i of play_match(uct, uct, swap_seats=False)
    in Rust (fast), traced from the recorded actions; the games differ."""
    began = time.perf_counter()
    e = territory.evaluate("tabik", agent="uct:50", games=8, seed=5, size=4)
    assert time.perf_counter() - began < 2.0  # a Python choose() loop takes far longer
    assert e.agent == "uct:50"
    match = territory.play_match("tabik", ["uct:50", "uct:50"], 8, seed=5, swap_seats=False, size=4)
    start = territory.Tabik(size=4)
    assert np.array_equal(e.traces["winner"], match.winner)
    assert e.traces["moves"].tolist() == [len(a) for a in match.actions] == match.length.tolist()
    traced = ev.trace_games(start, match.actions)
    assert all(np.array_equal(traced[k], e.traces[k]) for k in ev.TRACE_FIELDS)
    assert len({tuple(a.tolist()) for a in match.actions}) == 8  # not one game repeated
    same = territory.evaluate("tabik", agent=territory.Uct(iterations=50), games=8, seed=5, size=4, threads=1)
    assert all(np.array_equal(same.traces[k], e.traces[k]) for k in ev.TRACE_FIELDS)


def test_skill_trace_value_by_hand():
    assert ev.skill_trace_value([1.0, 1.0]) == pytest.approx(1.0)
    # Line through (0, .2), (1, .1), (2, 0) predicts -0.2 at x = 4: clamped to 0; the
    # area is .2^2 + .1^2.
    assert ev.skill_trace_value([0.2, 0.1, 0.0]) == pytest.approx(0.05)
    assert ev.skill_trace_value([-0.5]) == 0.0


def test_skill_trace_runs_as_matches():
    e = territory.evaluate("tabik", games=10, seed=3, size=3, skill_trace=True, skill_levels=2, skill_games=4)
    assert e.skill_trace["levels"] == [1, 2] and len(e.skill_trace["strong_results"]) == 2
    assert e.metrics["SkillTrace"].estimate == ev.skill_trace_value(e.skill_trace["strong_results"])
    # Level 1 is the native match of UCT 4 (agent 0) against UCT 2, seats swapped.
    match = territory.play_match("tabik", [territory.Uct(4), territory.Uct(2)], 4, seed=territory._seeds.mix(3, 1, start=territory._seeds.GOLDEN), size=3)
    wins, losses, _ = match.agent_wins
    assert e.skill_trace["strong_results"][1] == (wins - losses) / 4


# --- fair komi ----------------------------------------------------------------------------


def test_logistic_fit_recovers_known_curve():
    komi = np.arange(-10.5, 11.0, 1.0)
    n = np.full(len(komi), 1e6)
    p = 1 / (1 + np.exp(-(1.0 - 0.5 * komi)))
    (a, b), cov = ev.fit_logistic(komi, n * p, n)
    assert (a, b) == pytest.approx((1.0, -0.5), abs=1e-9)
    fit = komi_module._fit_komi("x", komi, n * p, 10**6)
    assert fit.estimate == pytest.approx(2.0)
    assert fit.interval[0] < 2.0 < fit.interval[1] and fit.interval[1] - fit.interval[0] < 0.1


def test_fair_komi_random():
    k = territory.fair_komi(games=400, seed=4, komi_values=[-6.5, -0.5, 0.5, 6.5], n=2, threads=1)
    assert k.curve["komi"] == [-6.5, -0.5, 0.5, 6.5]
    # The games at the third komi value (0.5, to Black) are games 800..1199 of seed 4.
    out = _core.run_playouts(territory.Nume(n=2, komi=0.5), 4, 800, 400, 1)
    assert k.curve["black_wins"][2] == int((out["winner"] == 0).sum())
    # -6.5 means 6.5 to White: Black's win rate falls as the komi rises.
    rates = k.curve["win_rate"]
    assert rates[0] > rates[-1]
    low, high = k.interval
    assert low < k.estimate < high
    assert json.loads(k.to_json())["fits"][0]["agent"] == "random"


def test_fair_komi_bad_parameters():
    with pytest.raises(ValueError, match="komi_values"):
        territory.fair_komi(komi_values=[])
    with pytest.raises(ValueError, match="komi_values"):
        territory.fair_komi(komi_values=[0.5])
    with pytest.raises(ValueError, match="k \\+ 0.5"):
        territory.fair_komi(komi_values=[1.0, 2.5])
    with pytest.raises(ValueError, match="games"):
        territory.fair_komi(games=0)
    with pytest.raises(ValueError, match="komi_phase"):
        territory.fair_komi(komi_phase=True)
    with pytest.raises(ValueError, match="agent spec"):
        territory.fair_komi(agent="strong")


# --- openings -----------------------------------------------------------------------------


def test_openings_tabik():
    o = territory.openings("tabik", games_per_opening=60, seed=1, size=3)
    start = territory.Tabik(size=3)
    assert o.moves == [m for m in start.legal_moves() if m != "swap"]
    assert o.swap is not None and len(o.swap) == len(o.moves)
    # The swap branch of the k-th first move is games (2k + 1) * 60 .. of seed 1.
    k = 5
    after = start.copy()
    after.play(o.moves[k])
    after.play("swap")
    out = _core.run_playouts(after, 1, (2 * k + 1) * 60, 60, 1)
    assert o.swap[k] == (out["winner"] == 0).mean()
    assert all(n <= 60 for n in o.play_on_games)
    assert set(o.by_cell()) <= {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}


def test_openings_subset_nume_and_migong_default():
    first = territory.Nume(n=2).legal_moves()
    o = territory.openings("nume", games_per_opening=20, moves=[first[7], first[0]], n=2)
    assert o.moves == [first[7], first[0]] and o.swap is None
    m = ev.default_opening_moves(territory.Migong())
    assert len(m) == ev.DEFAULT_OPENING_SAMPLE and len(set(m)) == len(m)
    with pytest.raises(ValueError, match="not a legal first move"):
        territory.openings("tabik", moves=["a1-c1"], size=3)
    with pytest.raises(ValueError, match="moves is empty"):
        territory.openings("tabik", moves=[], size=3)


# --- bad parameters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,match",
    [({"games": 0}, "games"), ({"games": -3}, "games"), ({"games": 2.5}, "games"), ({"agent": "alphazero"}, "agent spec"),
     ({"threads": 0}, "threads"), ({"seed": -1}, "seed"), ({"size": 1}, "size")],
)
def test_evaluate_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        territory.evaluate("tabik", **kwargs)


def test_evaluate_bad_game():
    with pytest.raises(ValueError, match="game must be"):
        territory.evaluate("chess")


def test_trace_rejects_illegal_actions():
    start = territory.Tabik(size=3)
    with pytest.raises(ValueError, match="game 1, action 0"):
        ev.trace_games(start, [actions(start, territory.replay_playout("tabik", 0, 0, size=3).history), [10**6], [0]])
    with pytest.raises(ValueError, match="game 0, action 1: the game is not over"):
        ev.trace_games(start, [[0]])
    with pytest.raises(ValueError, match="game 0, action 1: .*"):
        ev.trace_games(start, [[0, 0]])


# --- plots --------------------------------------------------------------------------------


def test_plots_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    e = territory.evaluate("tabik", games=200, size=4)
    e.plot(tmp_path / "eval.png")
    k = territory.fair_komi(games=100, komi_values=[-2.5, -0.5, 0.5, 2.5], n=2)
    k.plot(tmp_path / "komi.svg")
    o = territory.openings("migong", games_per_opening=2, moves=territory.Migong().legal_moves()[:40])
    o.plot(tmp_path / "open.png")
    territory.openings("nume", games_per_opening=5, n=2).plot(tmp_path / "nume.svg")
    png = (tmp_path / "eval.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    assert (tmp_path / "open.png").stat().st_size > 10_000
    for name in ("komi.svg", "nume.svg"):
        text = (tmp_path / name).read_text()
        assert text.lstrip().startswith("<?xml") and "<svg" in text and len(text) > 10_000
    with pytest.raises(ValueError, match=".png or .svg"):
        e.plot(tmp_path / "eval.pdf")


def test_plot_without_matplotlib(monkeypatch, tmp_path):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    e = territory.evaluate("tabik", games=10, size=3)
    with pytest.raises(ImportError, match=r'pip install "territory-games\[plot\]"'):
        e.plot(tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


# --- command line -------------------------------------------------------------------------


def test_cli_evaluate_komi_openings(tmp_path, capsys):
    from territory.cli import main

    out = tmp_path / "e.json"
    assert main(["evaluate", "tabik", "--size", "4", "--games", "300", "--seed", "2", "--threads", "1", "--json", str(out)]) == 0
    (data,) = json.loads(out.read_text())
    assert data["format"] == 1
    direct = territory.evaluate("tabik", games=300, seed=2, size=4)
    assert data["metrics"]["AdvantageP1"]["estimate"] == direct.metrics["AdvantageP1"].estimate
    assert "DecisivenessMoves" in capsys.readouterr().out
    assert main(["komi", "--n", "2", "--games", "100", "--komi-min", "-2.5", "--komi-max", "2.5"]) == 0
    assert "fair komi" in capsys.readouterr().out
    assert main(["openings", "tabik", "--size", "3", "--games", "10", "--moves", "a1-b1,b2-b3"]) == 0
    assert "b2-b3" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["evaluate", "tabik", "--games", "0"], ["evaluate", "tabik", "--agent", "nobody"], ["komi", "--komi-min", "3", "--komi-max", "1"],
     ["komi", "--komi-min", "2"], ["openings", "tabik", "--moves", "z9-z8"], ["evaluate", "tabik", "--plot", "x.pdf"],
     ["komi", "--n", "9"], ["komi", "--square", "1"], ["komi", "--size", "4"]],
)
def test_cli_bad_arguments(argv, capsys):
    from territory.cli import main

    try:
        code = main(argv)
    except SystemExit as exit_info:  # argparse's own checks
        code = exit_info.code
    assert code == 2
    assert "error" in capsys.readouterr().err


def test_interrupt_stops_between_batches():
    """Ctrl-C arrives as KeyboardInterrupt between batches; here the progress callback
    raises it after the first batch, and the run stops there."""
    seen = []

    def progress(done, total, seconds):
        seen.append(done)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        territory.evaluate("tabik", games=1_000_000, progress=progress)
    assert len(seen) == 1 and seen[0] < 1_000_000


def test_komi_and_openings_with_an_executor():
    with ThreadPoolExecutor(2) as pool:
        k1 = territory.fair_komi(games=300, komi_values=[-1.5, 0.5, 2.5], n=2, executor=pool)
        o1 = territory.openings("tabik", games_per_opening=30, size=3, executor=pool)
    k2 = territory.fair_komi(games=300, komi_values=[-1.5, 0.5, 2.5], n=2, threads=1)
    o2 = territory.openings("tabik", games_per_opening=30, size=3, threads=1)
    assert k1.curve == k2.curve and k1.estimate == k2.estimate
    assert (o1.play_on, o1.swap) == (o2.play_on, o2.swap)


def test_openings_with_an_agent_factory():
    o = territory.openings("tabik", agent=lambda seed: SeededAgent(seed=seed), games_per_opening=4, size=2)
    assert len(o.moves) == 8 and o.swap is not None
    assert all(0 <= r <= 1 for r in o.play_on + o.swap)


def test_turns_count_runs_of_one_seat():
    # Komi phase: seat 0 sets komi, seat 1 takes Black and so also places the first
    # stone: seat 1 moves twice running, so 6 actions make 5 turns.
    start = territory.Nume(square=2, komi_phase=True)
    game = ["komi 0.5 black", "side black", "a1=1", "b2=4", "b1", "a2"]
    t = ev.trace_games(start, [actions(start, game)], threads=1)
    assert t["moves"][0] == 6 and t["turns"][0] == 5
    # Branching in the komi phase: komi k = 0..4 to either colour (10), then 2 sides.
    assert t["branching_sum"][0] == 10 + 2 + 20 + 15 + 2 + 1


def test_cli_komi_board_options_are_the_engines(capsys):
    """``komi``'s --n and --square come from Nume's own parameter description."""
    from territory.cli import main

    with pytest.raises(SystemExit):
        main(["komi", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for param in territory.Nume.parameters():
        if param["name"] in ("n", "square"):
            assert f"{param['allowed']} (nume: default" in help_text
    assert "--komi-to" not in help_text


def test_cli_komi_bad_board_names_the_engine_rule(capsys):
    from territory.cli import main

    assert main(["komi", "--n", "9", "--games", "10"]) == 2
    assert "--n: n must be an int from 1 to 8, got 9" in capsys.readouterr().err


# --- given a state ------------------------------------------------------------------------


def test_a_state_set_up_by_from_position_is_evaluated_from_its_position():
    """evaluate() rebuilt a given state as the game's start plus its move history, so a
    state set up by from_position was evaluated from the empty board."""
    t = territory.Tabik.from_position("3/1w1/1b^1 0 s 0 1", size=3)
    assert t.history == []
    given = territory.evaluate(t, games=500, seed=1)
    empty = territory.evaluate("tabik", games=500, seed=1, size=3)
    assert not np.array_equal(given.traces["moves"], empty.traces["moves"])
    # The games are the random playouts from that position, with the same seed.
    playouts = _core.run_playouts(t, 1, 0, 500, 1)
    assert np.array_equal(given.traces["moves"], playouts["length"])
    assert np.array_equal(given.traces["winner"], playouts["winner"])
    assert given.params == {"size": 3, "pie": True}


def test_openings_from_a_state_studies_its_next_moves():
    t = territory.Tabik.from_position("3/1w1/1b^1 0 s 0 1", size=3)
    o = territory.openings(t, games_per_opening=20, seed=1)
    assert o.moves == [m for m in t.legal_moves() if m != "pass"]
    assert o.moves != territory.openings("tabik", games_per_opening=20, seed=1, size=3).moves


@pytest.mark.parametrize("analysis", [territory.evaluate, territory.openings])
def test_what_play_match_refuses_is_refused(analysis):
    """A finished state gave metrics of 0-move games; parameters given with a state
    silently overrode its own."""
    over = territory.replay_playout("tabik", 0, 0, size=3)
    with pytest.raises(ValueError, match="game is over"):
        territory.play_match(over, ["random", "random"], 2)
    with pytest.raises(ValueError, match="game is over"):
        analysis(over, seed=1)
    with pytest.raises(ValueError, match="game parameters are only taken with a game name"):
        analysis(territory.Tabik(size=3), size=5)
    with pytest.raises(ValueError, match="game must be"):
        analysis("chess")


def test_games_are_bounded():
    """games=10**30 was accepted and grew memory until killed."""
    for call in (
        lambda: territory.evaluate("tabik", games=10**30, size=2),
        lambda: territory.openings("tabik", games_per_opening=10**30, size=2),
        lambda: territory.fair_komi(games=10**30, n=1),
    ):
        with pytest.raises(ValueError, match=rf"must be an int from 1 to {ev.MAX_GAMES}, got 10{{30}}|got {10**30}"):
            call()


def test_komi_values_are_checked_by_the_engine():
    with pytest.raises(ValueError, match=r"komi value 2\.0: komi must be"):
        territory.fair_komi(games=1, n=1, komi_values=[-1.5, 2.0])
    with pytest.raises(ValueError, match="komi values must be numbers, got '1.5'"):
        territory.fair_komi(games=1, n=1, komi_values=["1.5", 2.5])
    with pytest.raises(ValueError, match="komi values must be numbers, got True"):
        territory.fair_komi(games=1, n=1, komi_values=[True, 2.5])
