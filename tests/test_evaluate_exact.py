"""Exact outcomes of territory.evaluate's analyses: defaults, bounds and their messages,
what is passed on to the runs and matches, the results' dicts and texts in full
(docs/testing.md, mutation testing of python/territory/evaluate/).

Each test is fast: hand-made traces and results, small boards, or the runs and matches
replaced by recorders that hand back known outcomes."""

from __future__ import annotations

import importlib
import json
import math
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
import pytest

import territory
from territory._seeds import GOLDEN, mix
from territory.playouts import wilson_interval

ev = importlib.import_module("territory.evaluate")
metrics = importlib.import_module("territory.evaluate.metrics")
stats = importlib.import_module("territory.evaluate.stats")
plots = importlib.import_module("territory.evaluate.plots")

Metric = stats.Metric


def message(text):
    """A pytest ``match`` for exactly ``text``."""
    return "^" + __import__("re").escape(text) + "$"


# --- stats ----------------------------------------------------------------------------


def test_z95_is_the_two_sided_95_percent_normal_quantile():
    assert stats.Z95 == 1.959963984540054
    assert math.erf(stats.Z95 / math.sqrt(2)) == pytest.approx(0.95, abs=1e-15)


def test_metric_defaults_dict_and_text():
    m = Metric(0.25)
    assert (m.estimate, m.interval, m.note) == (0.25, None, "")
    assert m.to_dict() == {"estimate": 0.25, "interval": None, "note": ""}
    assert str(m) == "0.25"
    assert str(Metric(1 / 3)) == "0.3333"
    full = Metric(123456.0, (1e-5, 2.5), "a note")
    assert full.to_dict() == {"estimate": 123456.0, "interval": [1e-05, 2.5], "note": "a note"}
    assert str(full) == "1.235e+05 [1e-05, 2.5]"
    # Values JSON cannot hold (nan, infinities) are written as null, numpy floats as floats.
    odd = Metric(math.nan, (-math.inf, np.float32(0.5)), "n")
    assert odd.to_dict() == {"estimate": None, "interval": [None, 0.5], "note": "n"}
    assert type(odd.to_dict()["interval"][1]) is float
    assert json.dumps(odd.to_dict()) == '{"estimate": null, "interval": [null, 0.5], "note": "n"}'


def test_json_float():
    assert stats._json_float(None) is None
    assert stats._json_float(math.nan) is None
    assert stats._json_float(math.inf) is None and stats._json_float(-math.inf) is None
    assert stats._json_float(2) == 2.0 and type(stats._json_float(2)) is float
    assert type(stats._json_float(np.float64(0.5))) is float


def test_proportion_and_mean():
    p = stats._proportion(3, 4, "three of four")
    assert (p.estimate, p.interval, p.note) == (0.75, wilson_interval(3, 4), "three of four")
    assert stats._proportion(3, 4).note == ""
    empty = stats._proportion(0, 0)
    assert math.isnan(empty.estimate) and all(math.isnan(v) for v in empty.interval)
    # Mean 2, sample sd 1 (values 1, 2, 3): half-width 1.96 / sqrt(3).
    m = stats._mean(np.array([1, 2, 3], dtype=np.uint32), "n")
    half = stats.Z95 / math.sqrt(3)
    assert m.estimate == 2.0 and m.interval == pytest.approx((2 - half, 2 + half), rel=1e-15) and m.note == "n"
    assert stats._mean([5]).interval == (-math.inf, math.inf) and stats._mean([5]).note == ""
    none = stats._mean([], "x")
    assert math.isnan(none.estimate) and all(math.isnan(v) for v in none.interval) and none.note == "x"
    two = stats._mean([4.0, 6.0])
    assert two.interval == pytest.approx((5 - stats.Z95, 5 + stats.Z95), rel=1e-15)


# --- compute_metrics ------------------------------------------------------------------

NOTES = {
    "AdvantageP1": "share of games won by seat 0 (draws count 0)",
    "Balance": "1 - |win rate of seat 0 - win rate of seat 1|",
    "Completion": "share of games with a winner",
    "Drawishness": "share of games drawn",
    "Timeouts": "share of games stopped by a move limit (these games always end)",
    "DurationMoves": "actions per game (passes and the pie swap included)",
    "DurationMovesStdDev": "population std dev over games",
    "DurationTurns": "turns per game (runs of actions by one seat)",
    "DurationTurnsStdDev": "population std dev over games",
    "BranchingFactor": "legal moves per state, mean in a game, averaged over games",
    "BranchingFactorVariance": "variance of legal moves within a game, averaged",
    "BranchingFactorMax": "largest number of legal moves in a game, averaged",
    "DecisionMoves": "share of actions chosen among more than one legal move",
    "LeadChange": "changes of the leading seat (by score) per action",
    "Stability": "sum over seats of the variance of the score lead (points^2)",
    "Drama": "mean shortfall of the eventual winner's score lead below the best (points)",
    "DramaMax": "largest such shortfall in a game (points)",
    "DecisivenessMoves": "share of the game played before the winner's lead passes the loser's best lead",
}


def traces(**fields):
    """Two games' traces: the fields given, the others as below."""
    base = dict(
        winner=np.array([0, 1], dtype=np.int8), moves=np.array([4, 2], dtype=np.uint32), turns=np.array([3, 2], dtype=np.uint32),
        branching_sum=np.array([12.0, 4.0]), branching_sq_sum=np.array([40.0, 10.0]), branching_max=np.array([5.0, 3.0]),
        decisions=np.array([2.0, 1.0]), lead_changes=np.array([2.0, 1.0]), lead_sum=np.array([4.0, -2.0]),
        lead_sq_sum=np.array([8.0, 4.0]), drama_sum=np.array([2.0, 1.0]), drama_max=np.array([1.0, 0.5]),
        decisive_at=np.array([1.0, 2.0]),
    )
    return {**base, **fields}


def test_metric_notes_and_order():
    m = ev.compute_metrics(traces())
    assert list(m) == list(NOTES)
    assert {name: metric.note for name, metric in m.items()} == NOTES
    # The standard deviations have no interval.
    assert m["DurationMovesStdDev"].interval is None and m["DurationTurnsStdDev"].interval is None


def test_each_metric_from_two_made_games():
    # Game 0: 4 moves, branching 12/4 = 3, squares 40/4 = 10 (variance 1); game 1: 2 moves,
    # branching 2, squares 5 (variance 1).
    m = ev.compute_metrics(traces())
    est = {name: metric.estimate for name, metric in m.items()}
    assert est["AdvantageP1"] == 0.5 and est["Completion"] == 1.0 and est["Drawishness"] == 0.0
    assert est["Balance"] == 1.0 and est["Timeouts"] == 0.0
    assert est["DurationMoves"] == 3.0 and est["DurationMovesStdDev"] == 1.0
    assert est["DurationTurns"] == 2.5 and est["DurationTurnsStdDev"] == 0.5
    assert est["BranchingFactor"] == 2.5 and est["BranchingFactorVariance"] == 1.0 and est["BranchingFactorMax"] == 4.0
    assert est["DecisionMoves"] == 0.5  # 2/4 and 1/2
    assert est["LeadChange"] == 0.5  # 2/4 and 1/2
    # Lead means 1 and -1, mean squares 2 and 2: variances 1 and 1, Stability 2 * 1.
    assert est["Stability"] == 2.0
    assert est["Drama"] == 0.5 and est["DramaMax"] == 0.75  # 2/4 and 1/2; 1 and 0.5
    assert est["DecisivenessMoves"] == 0.625  # 1/4 and 2/2
    # Intervals: mean -+ 1.96 * sample sd / sqrt(2).
    half = stats.Z95 * math.sqrt(0.5) / math.sqrt(2)  # values 2.5 -+ 0.5: sample sd sqrt(0.5)
    assert m["DurationTurns"].interval == pytest.approx((2.5 - half, 2.5 + half), rel=1e-15)
    assert m["AdvantageP1"].interval == wilson_interval(1, 2)
    assert m["Completion"].interval == wilson_interval(2, 2)
    assert m["Drawishness"].interval == wilson_interval(0, 2) == m["Timeouts"].interval
    # d = 0, se = sqrt(1 / 2): d's interval [-1.386, 1.386] holds 0 and passes 1.
    assert m["Balance"].interval == (0.0, 1.0)


def test_variances_are_clipped_at_zero_and_moves_at_one():
    # Squares below the squared mean (rounding in a real trace) give a variance of 0, not
    # a negative one; a game of 0 moves divides by 1.
    m = ev.compute_metrics(traces(branching_sq_sum=np.array([30.0, 1.0]), lead_sq_sum=np.array([2.0, 0.0]),
                                  moves=np.array([0, 1], dtype=np.uint32)))
    # moves 1 and 1: branching 12 and 4; squares 30 and 1: variances max(30 - 144, 0) and max(1 - 16, 0).
    assert m["BranchingFactor"].estimate == 8.0
    assert m["BranchingFactorVariance"].estimate == 0.0
    # Leads 4 and -2, mean squares 2 and 0: max(2 - 16, 0) and max(0 - 4, 0).
    assert m["Stability"].estimate == 0.0
    assert m["DecisionMoves"].estimate == 1.5 and m["LeadChange"].estimate == 1.5
    assert m["Drama"].estimate == 1.5 and m["DecisivenessMoves"].estimate == 1.5
    assert m["DurationMoves"].estimate == 0.5  # the moves themselves are not clipped
    assert m["DurationMovesStdDev"].estimate == 0.5


def test_no_games_give_nan():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning for an empty mean or std
        m = ev.compute_metrics({k: v[:0] for k, v in traces().items()})
    assert list(m) == list(NOTES)
    for name, metric in m.items():
        assert math.isnan(metric.estimate), name
    assert m["DurationMovesStdDev"].interval is None
    assert all(math.isnan(v) for v in m["DurationMoves"].interval)
    assert m["Balance"].interval == (0.0, 1.0)


def test_balance_interval_bounds():
    # All games drawn: d = 0 and se = 0, Balance 1 with the interval [1, 1].
    m = ev.compute_metrics(traces(winner=np.array([-1, -1], dtype=np.int8)))
    assert (m["Balance"].estimate, m["Balance"].interval) == (1.0, (1.0, 1.0))
    assert m["Completion"].estimate == 0.0 and m["Drawishness"].estimate == 1.0
    # Seat 0 wins all: d = 1, se = 0: Balance 0 with [0, 0].
    m = ev.compute_metrics(traces(winner=np.array([0, 0], dtype=np.int8)))
    assert (m["Balance"].estimate, m["Balance"].interval) == (0.0, (0.0, 0.0))
    # 3 to 1 of 4: d = 0.5, se = sqrt((1 - 0.25) / 4); d's interval misses 0.
    m = ev.compute_metrics(traces(winner=np.array([0, 0, 1, 0], dtype=np.int8), moves=np.full(4, 2, dtype=np.uint32),
                                  turns=np.full(4, 2, dtype=np.uint32), **{k: np.ones(4) for k in (
                                      "branching_sum", "branching_sq_sum", "branching_max", "decisions", "lead_changes",
                                      "lead_sum", "lead_sq_sum", "drama_sum", "drama_max", "decisive_at")}))
    se = math.sqrt(0.75 / 4)
    low, high = 0.5 - stats.Z95 * se, 0.5 + stats.Z95 * se
    assert low < 0 < high
    assert m["Balance"].estimate == 0.5
    assert m["Balance"].interval == pytest.approx((max(0.0, 1 - high), 1.0), rel=1e-15)


# --- Evaluation -----------------------------------------------------------------------


def made_evaluation(**kw):
    fields = dict(game="tabik", params={"size": 2, "pie": False}, agent="uct:8", games=12345, seed=7,
                  metrics={"Mean": Metric(2.5, (1.25, 3.75), "a mean"), "Spread": Metric(-0.5, None, "no interval")},
                  traces={"winner": np.zeros(3)}, seconds=1.256, skill_trace={"value": 0.5})
    return metrics.Evaluation(**{**fields, **kw})


def test_evaluation_dict_json_and_text():
    e = made_evaluation()
    expected = {"game": "tabik", "params": {"size": 2, "pie": False}, "agent": "uct:8", "games": 12345, "seed": 7,
                "seconds": 1.256,
                "metrics": {"Mean": {"estimate": 2.5, "interval": [1.25, 3.75], "note": "a mean"},
                            "Spread": {"estimate": -0.5, "interval": None, "note": "no interval"}},
                "skill_trace": {"value": 0.5}}
    assert e.to_dict() == expected
    assert list(e.to_dict()) == list(expected)
    assert e.to_json() == json.dumps(expected, indent=2)
    assert e.to_json(None) == json.dumps(expected)
    assert str(e) == (
        "tabik (size=2, pie=False), agent uct:8, 12,345 games, seed 7, 1.26 s\n"
        "  Mean                          2.5000  [1.2500, 3.7500]\n"
        "  Spread                       -0.5000"
    )
    assert str(made_evaluation(params={"name": "x"}, metrics={})) == "tabik (name='x'), agent uct:8, 12,345 games, seed 7, 1.26 s"


def test_evaluation_defaults():
    e = metrics.Evaluation("g", {}, "a", 1, 0, {}, {})
    assert e.seconds == 0.0 and e.skill_trace is None
    assert e.to_dict()["seconds"] == 0.0 and e.to_dict()["skill_trace"] is None


@pytest.mark.parametrize("plotter, made, path", [("plot_evaluation", lambda: made_evaluation(), "out.svg"),
                                                ("plot_openings", lambda: made_openings(), "o.png")])
def test_a_results_plot_hands_itself_and_the_path_to_plots(monkeypatch, plotter, made, path):
    seen = []
    monkeypatch.setattr(plots, plotter, lambda *args: seen.append(args))
    results = made()
    results.plot(path)
    assert len(seen) == 1 and seen[0][0] is results and seen[0][1] == path


# --- evaluate ---------------------------------------------------------------------------


def test_evaluate_defaults_are_1000_random_games_with_seed_0():
    e = territory.evaluate("tabik", size=2)
    assert (e.game, e.params, e.agent, e.games, e.seed, e.skill_trace) == ("tabik", {"size": 2, "pie": True}, "random", 1000, 0, None)
    r = territory.random_playouts("tabik", 1000, seed=0, size=2)
    assert np.array_equal(e.traces["winner"], r.winner) and np.array_equal(e.traces["moves"], r.length)
    assert list(e.metrics) == list(NOTES)
    assert e.metrics["AdvantageP1"].estimate == r.summary()["seat0_wins"] / 1000
    assert 0.0 < e.seconds < 60.0


def test_evaluate_bounds_and_their_messages():
    assert territory.evaluate("tabik", games=1, size=2).games == 1
    e = territory.evaluate("tabik", games=2, seed=2**64 - 1, size=2)
    assert e.seed == 2**64 - 1
    r = territory.random_playouts("tabik", 2, seed=2**64 - 1, size=2)
    assert np.array_equal(e.traces["winner"], r.winner)
    cases = [
        (dict(games=0), "games must be an int from 1 to 100000000, got 0"),
        (dict(games=10**8 + 1), "games must be an int from 1 to 100000000, got 100000001"),
        (dict(seed=-1), "seed must be an int from 0 to 18446744073709551615, got -1"),
        (dict(seed=2**64), "seed must be an int from 0 to 18446744073709551615, got 18446744073709551616"),
        (dict(threads=0), "threads must be an int from 1 to "),
    ]
    for kwargs, text in cases:
        with pytest.raises(ValueError, match="^" + __import__("re").escape(text)):
            territory.evaluate("tabik", size=2, **kwargs)


class Recorder:
    """Stands in for a function of the analysis: records each call and hands back
    ``result(*args, **kwargs)``."""

    def __init__(self, result):
        self.calls, self.result = [], result

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return self.result(*args, **kwargs)


def test_evaluate_passes_its_settings_on(monkeypatch):
    real = metrics._traces
    runs = Recorder(real)
    monkeypatch.setattr(metrics, "_traces", runs)
    skill = Recorder(lambda *a, **k: {"levels": [1], "strong_results": [0.25], "value": 0.375})
    monkeypatch.setattr(metrics, "compute_skill_trace", skill)
    seen = []
    with ThreadPoolExecutor(1) as pool:
        e = territory.evaluate("tabik", agent="uct:3", games=3, seed=9, executor=pool, threads=2, skill_trace=True,
                               skill_levels=5, skill_games=6, progress=lambda *a: seen.append(a), size=2)
    ((args, kwargs),) = runs.calls
    assert args[0].game == "tabik" and type(args[1]) is territory.Uct and args[1].iterations == 3 and args[2:] == (3, 9)
    assert kwargs == {"threads": 2, "executor": pool, "progress": kwargs["progress"]}
    assert kwargs["progress"] is not None and seen
    ((args, kwargs),) = skill.calls
    assert args[0].game == "tabik" and args[1:] == (5, 6, 9) and kwargs == {"threads": 2, "executor": pool}
    assert e.skill_trace == {"levels": [1], "strong_results": [0.25], "value": 0.375}
    assert e.metrics["SkillTrace"] == Metric(0.375, None, "Ludii's skill trace: UCT k vs 2k, k doubling")
    assert list(e.metrics)[-1] == "SkillTrace" and e.agent == "uct:3"
    # The defaults: 8 levels of 10 games.
    skill.calls.clear()
    territory.evaluate("tabik", games=1, skill_trace=True, size=2)
    ((args, kwargs),) = skill.calls
    assert args[1:] == (8, 10, 0) and kwargs == {"threads": None, "executor": None}


def fake_match(wins):
    """A ``play_match`` stand-in whose matches end with ``wins`` (strong wins, losses, draws)."""
    return lambda *args, **kwargs: SimpleNamespace(agent_wins=wins)


def test_skill_trace_plays_uct_2k_against_k_with_seats_swapped(monkeypatch):
    matches = Recorder(fake_match((3, 1, 0)))
    monkeypatch.setattr(metrics, "play_match", matches)
    start = territory.Tabik(size=2)
    pool = object()
    skill = ev.compute_skill_trace(start, 3, 4, 11, threads=2, executor=pool)
    assert skill == {"levels": [1, 2, 4], "strong_results": [0.5, 0.5, 0.5], "value": ev.skill_trace_value([0.5] * 3)}
    assert len(matches.calls) == 3
    for level, (args, kwargs) in enumerate(matches.calls):
        first, (strong, weak), games = args
        assert first is start and games == 4
        assert type(strong) is territory.Uct and strong.iterations == 2 ** (level + 1)
        assert type(weak) is territory.Uct and weak.iterations == 2**level
        assert (strong.seed, strong.threads, weak.seed, weak.threads) == (0, 1, 0, 1)
        assert kwargs == {"seed": mix(11, level, start=GOLDEN), "threads": 2, "swap_seats": True, "executor": pool, "keep_actions": False}
    # The defaults: all threads, no executor; results (wins - losses) / games.
    matches = Recorder(fake_match((1, 2, 1)))
    monkeypatch.setattr(metrics, "play_match", matches)
    assert ev.compute_skill_trace(start, 1, 4, 0)["strong_results"] == [-0.25]
    assert matches.calls[0][1]["threads"] is None and matches.calls[0][1]["executor"] is None


def test_skill_trace_bounds(monkeypatch):
    monkeypatch.setattr(metrics, "play_match", fake_match((1, 0, 0)))
    start = territory.Tabik(size=2)
    assert ev.compute_skill_trace(start, 1, 1, 0)["levels"] == [1]
    # The last level's strong agent has 2**23 iterations, within UCT's 10,000,000 (30
    # levels were accepted, and from the 24th on Uct refused its iterations).
    assert metrics.MAX_SKILL_LEVELS == 23 and 2**23 <= territory.agents.MAX_UCT_ITERATIONS < 2**24
    assert ev.compute_skill_trace(start, 23, ev.MAX_GAMES, 0)["levels"] == [2**k for k in range(23)]
    for levels, games, text in [(0, 1, "skill_levels must be an int from 1 to 23, got 0"),
                                (24, 1, "skill_levels must be an int from 1 to 23, got 24"),
                                (1, 0, "skill_games must be an int from 1 to 100000000, got 0"),
                                (1, 10**8 + 1, "skill_games must be an int from 1 to 100000000, got 100000001")]:
        with pytest.raises(ValueError, match=message(text)):
            ev.compute_skill_trace(start, levels, games, 0)


def test_skill_trace_value_cases():
    with pytest.raises(ValueError, match=message("skill trace needs at least one level")):
        ev.skill_trace_value([])
    # One level: the line is flat at the result: 0.5 + 0.5 * 0.5^2.
    assert ev.skill_trace_value([0.5]) == 0.625
    # Line 0.1 + 0.1 x predicts 0.4 at x = 3; area 0.01 + 0.04.
    assert ev.skill_trace_value([0.1, 0.2]) == pytest.approx(0.4 + 0.6 * 0.05, rel=1e-12)
    # Line -1/15 + 0.1 x predicts 1/3 at x = 4; the negative result adds no area: 0.01 + 0.01.
    assert ev.skill_trace_value([-0.1, 0.1, 0.1]) == pytest.approx(1 / 3 + (2 / 3) * 0.02, rel=1e-12)
    assert ev.skill_trace_value(np.array([1, 0])) == pytest.approx(0.0 + 1.0 * 1.0)  # predicts -1 at x = 3: clamped to 0
    # A prediction above 1 is clamped to 1.
    assert ev.skill_trace_value([0.5, 0.9]) == 1.0
    assert type(ev.skill_trace_value([0.5])) is float


# --- komi -----------------------------------------------------------------------------

komi = importlib.import_module("territory.evaluate.komi")


def test_komi_game_is_the_first_that_declares_a_komi(monkeypatch):
    assert komi.komi_game() == "nume" and komi._swept() == ("komi", "komi_to")
    assert komi._komi_params({"n": 2}, -1.5) == {"n": 2, "komi": 1.5, "komi_to": "white"}
    monkeypatch.setattr(komi, "GAMES", ["tabik", "migong", "nume", "tabik"])
    assert komi.komi_game() == "nume"
    monkeypatch.setattr(komi, "GAMES", ["tabik", "migong"])
    with pytest.raises(LookupError, match=message("no game declares a komi")):
        komi.komi_game()


def test_fit_logistic_solves_the_score_equations_with_the_fisher_covariance():
    # Few games: the fit is the maximum-likelihood one (the score X^T (wins - n p) is 0)
    # and its covariance the inverse Fisher information X^T diag(n p (1 - p)) X.
    x = np.array([-2.5, -0.5, 0.5, 3.5])
    n = np.array([10, 12, 8, 10])
    wins = np.array([8, 7, 3, 1])
    (a, b), cov = ev.fit_logistic(x, wins, n)
    p = 1 / (1 + np.exp(-(a + b * x)))
    X = np.column_stack([np.ones(4), x])
    assert np.abs(X.T @ (wins - n * p)).max() < 1e-9
    fisher = X.T @ (X * (n * p * (1 - p))[:, None])
    assert np.allclose(cov, np.linalg.inv(fisher), rtol=1e-9, atol=0)
    assert b < 0
    # A flat curve: b = 0, a = logit(rate), found from the start (0, 0) when the rate is 1/2.
    (a, b), cov = ev.fit_logistic(np.array([-1.0, 1.0]), np.array([5, 5]), np.array([10, 10]))
    assert (a, b) == (0.0, 0.0) and np.allclose(cov, np.linalg.inv(np.array([[5.0, 0.0], [0.0, 5.0]])), rtol=1e-9)


def test_fit_logistic_where_the_likelihood_has_no_maximum_or_no_slope():
    """The fit's edges: a sweep Black wins above komi 1.5 and never below (separable: the
    likelihood grows without end) stops after its 100 Newton steps with the crossing in
    the gap, where those steps leave it (pinned); a sweep at one komi cannot place a
    slope: its variances are huge and still positive. Saturated (two komi, two
    coefficients), the fit is the empirical rates, as it should be."""
    (a, b), cov = ev.fit_logistic(np.array([0, 1, 2, 3]), np.array([0, 0, 4, 4]), np.array([4, 4, 4, 4]))
    assert (a, b) == pytest.approx((-94.03461436, 62.84629548), rel=1e-8)
    assert 1 < -a / b < 2 and -a / b == pytest.approx(1.49626344, abs=1e-8)
    assert np.all(np.diag(cov) > 1e11)
    (a, b), cov = ev.fit_logistic(np.array([0.5, 0.5, 0.5]), np.array([1, 2, 3]), np.array([4, 4, 4]))
    assert (a, b) == (0.0, 0.0)
    assert np.all(np.diag(cov) > 1e11) and np.linalg.eigvalsh(cov).min() > -1e-3 * np.abs(cov).max()
    (a, b), _ = ev.fit_logistic(np.array([0, 1]), np.array([1, 3]), np.array([4, 4]))
    assert (a, a + b) == pytest.approx((math.log(1 / 3), math.log(3)), rel=1e-12)


def test_komi_fit_fitted_band_dict_and_defaults():
    fit = komi.KomiFit("random", 2.0, (1.5, 2.5), (1.0, -0.5), [[0.04, 0.01], [0.01, 0.02]], {"komi": [0.0]})
    rate, low, high = fit.fitted([0, 2])
    sigmoid = lambda e: 1 / (1 + math.exp(-e))  # noqa: E731
    # eta = 1 - 0.5 k: 1 and 0; se = sqrt(x^T C x): 0.2 at k = 0, sqrt(0.04 + 0.04 + 0.08) = 0.4 at k = 2.
    assert rate.tolist() == pytest.approx([sigmoid(1.0), 0.5], rel=1e-15)
    assert low.tolist() == pytest.approx([sigmoid(1 - stats.Z95 * 0.2), sigmoid(-stats.Z95 * 0.4)], rel=1e-14)
    assert high.tolist() == pytest.approx([sigmoid(1 + stats.Z95 * 0.2), sigmoid(stats.Z95 * 0.4)], rel=1e-14)
    assert fit.to_dict() == {"agent": "random", "estimate": 2.0, "interval": [1.5, 2.5], "coefficients": [1.0, -0.5],
                             "covariance": [[0.04, 0.01], [0.01, 0.02]], "curve": {"komi": [0.0]}}
    assert list(fit.to_dict()) == ["agent", "estimate", "interval", "coefficients", "covariance", "curve"]


def test_fit_komi_curve_and_delta_method_interval():
    values = np.array([-1.5, 0.5, 2.5])
    wins = np.array([3, 2, 1])
    fit = komi._fit_komi("uct:4", values, wins, 4)
    (a, b), cov = ev.fit_logistic(values, wins, np.full(3, 4.0))
    assert fit.agent == "uct:4" and fit.coefficients == (a, b) and fit.covariance == cov.tolist()
    assert fit.estimate == -a / b == pytest.approx(0.5)
    g = np.array([-1 / b, a / b**2])
    se = math.sqrt(g @ cov @ g)
    assert fit.interval == pytest.approx((-a / b - stats.Z95 * se, -a / b + stats.Z95 * se), rel=1e-12)
    assert list(fit.curve) == ["komi", "games", "black_wins", "win_rate", "ci_low", "ci_high", "fitted"]
    assert fit.curve["komi"] == [-1.5, 0.5, 2.5] and fit.curve["games"] == [4, 4, 4]
    assert all(type(g) is int for g in fit.curve["games"])  # counts: "4" in the JSON, not "4.0"
    assert fit.curve["black_wins"] == [3, 2, 1] and fit.curve["win_rate"] == [0.75, 0.5, 0.25]
    assert fit.curve["ci_low"] == [wilson_interval(w, 4)[0] for w in (3, 2, 1)]
    assert fit.curve["ci_high"] == [wilson_interval(w, 4)[1] for w in (3, 2, 1)]
    assert fit.curve["fitted"] == pytest.approx([0.75, 0.5, 0.25], rel=1e-9)
    assert all(type(v) is float for v in (fit.estimate, *fit.interval, *fit.coefficients))
    # The same rate at every komi: no slope, no crossing.
    flat = komi._fit_komi("random", values, np.array([2, 2, 2]), 4)
    assert math.isnan(flat.estimate) and all(math.isnan(v) for v in flat.interval)
    assert flat.coefficients == (0.0, 0.0)


def made_fair_komi():
    fits = [komi.KomiFit("random", -0.333, (-0.391, -0.27), (0.1, 0.3), [[1.0, 0.0], [0.0, 1.0]], {"komi": [0.5]}),
            komi.KomiFit("uct:8", 12.5, (10.0, 15.0), (0.2, 0.4), [[2.0, 0.0], [0.0, 2.0]], {"komi": [1.5]})]
    return komi.FairKomi({"n": 2}, 2000, 3, fits, 0.5)


def test_fair_komi_result_dict_json_text_and_plot(monkeypatch):
    k = made_fair_komi()
    assert (k.estimate, k.interval, k.curve, k.game) == (-0.333, (-0.391, -0.27), {"komi": [0.5]}, "nume")
    expected = {"game": "nume", "params": {"n": 2}, "games_per_komi": 2000, "seed": 3, "seconds": 0.5,
                "fits": [f.to_dict() for f in k.fits]}
    assert k.to_dict() == expected and list(k.to_dict()) == list(expected)
    assert k.to_json() == json.dumps(expected, indent=2) and k.to_json(None) == json.dumps(expected)
    assert str(k) == (
        "nume fair komi (komi added to Black's score; negative: to White's), 2,000 games per komi value, seed 3\n"
        "  random       fair komi    -0.33   95% CI [-0.39, -0.27]\n"
        "  uct:8        fair komi    12.50   95% CI [10.00, 15.00]"
    )
    assert komi.FairKomi({}, 1, 0, []).seconds == 0.0
    seen = []
    monkeypatch.setattr(plots, "plot_komi", lambda *args: seen.append(args))
    k.plot("k.svg")
    assert len(seen) == 1 and seen[0][0] is k and seen[0][1] == "k.svg"


def test_fair_komi_defaults():
    assert komi.DEFAULT_KOMI == tuple(k + 0.5 for k in range(-21, 21)) and len(komi.DEFAULT_KOMI) == 42
    assert komi.DEFAULT_KOMI[0] == -20.5 and komi.DEFAULT_KOMI[-1] == 20.5
    k = territory.fair_komi(n=1)
    assert (k.games, k.seed, len(k.fits), k.fits[0].agent) == (2000, 0, 1, "random")
    assert k.params == {"n": 1, "square": None, "komi_phase": False}
    assert k.curve["komi"] == list(komi.DEFAULT_KOMI) and k.curve["games"] == [2000] * 42
    # The games at komi j are games 2000 j .. of seed 0.
    out = territory._core.run_playouts(territory.Nume(n=1, komi=20.5, komi_to="white"), 0, 0, 2000, 1)
    assert k.curve["black_wins"][0] == int((out["winner"] == 0).sum())
    assert 0.0 < k.seconds < 60.0


def fake_outcomes(black_wins):
    """A ``_traces`` stand-in: at game ``first`` of ``games``, ``black_wins[first // games]``
    wins for seat 0, the rest for seat 1."""
    def traces(start, agent, games, seed, *, first, **kwargs):
        w = black_wins[first // games]
        return {"winner": np.array([0] * w + [1] * (games - w), dtype=np.int8)}
    return traces


def test_fair_komi_passes_its_settings_on(monkeypatch):
    runs = Recorder(fake_outcomes([3, 2, 1, 3, 2, 1]))
    monkeypatch.setattr(komi, "_traces", runs)
    progress = lambda *a: None  # noqa: E731
    with ThreadPoolExecutor(1) as pool:
        k = territory.fair_komi(["random", "uct:2"], games=4, seed=5, executor=pool, komi_values=[2.5, -1.5, 0.5],
                                threads=2, progress=progress, n=1)
    assert [f.agent for f in k.fits] == ["random", "uct:2"]
    assert k.params == {"n": 1, "square": None, "komi_phase": False}
    assert k.fits[0].curve["komi"] == [-1.5, 0.5, 2.5] and k.fits[0].curve["black_wins"] == [3, 2, 1]
    assert k.fits[1].curve["black_wins"] == [3, 2, 1]
    assert len(runs.calls) == 6
    for i, (args, kwargs) in enumerate(runs.calls):
        a, j = divmod(i, 3)
        start, agent, games, seed = args
        assert (start.params["komi"], start.params["komi_to"]) == [(1.5, "white"), (0.5, "black"), (2.5, "black")][j]
        assert (type(agent) is territory.Uct) == (a == 1) and (games, seed) == (4, 5)
        assert kwargs == {"first": 4 * j, "threads": 2, "executor": pool, "progress": progress, "outcomes_only": True,
                          "done_before": 4 * (3 * a + j), "grand_total": 24}
    runs.calls.clear()
    territory.fair_komi(games=4, komi_values=[-1.5, 0.5, 2.5], n=1)
    assert [kw["threads"] for _, kw in runs.calls] == [None] * 3 and runs.calls[0][1]["executor"] is None
    assert runs.calls[0][1]["progress"] is None


def test_fair_komi_messages():
    cases = [
        (dict(komi=1.5), "fair_komi sweeps komi itself; do not pass komi="),
        (dict(komi_to="black"), "fair_komi sweeps komi_to itself; do not pass komi_to="),
        (dict(komi_phase=True), "fair_komi needs komi_phase=False: with a komi phase the players choose the komi"),
        (dict(komi_values=[0.5, 0.5]), "komi_values must hold at least two distinct values k + 0.5 to fit a curve, got [0.5]"),
        (dict(komi_values=[]), "komi_values must hold at least two distinct values k + 0.5 to fit a curve, got []"),
        (dict(agent=[]), "agent list is empty"),
        (dict(games=0), "games must be an int from 1 to 100000000, got 0"),
        (dict(seed=2**64), "seed must be an int from 0 to 18446744073709551615, got 18446744073709551616"),
        (dict(komi_values=["1.5", 2.5]), "komi values must be numbers, got '1.5'"),
        (dict(komi_values=[0.5, False]), "komi values must be numbers, got False"),
        (dict(komi_values=[0.5, 1.0]), "komi value 1.0: komi must be None or a number k + 0.5 with k a whole number from 0 to 2147483648, got 1.0"),
        (dict(komi_values=[0.5, 3]), "komi value 3: komi must be None or a number k + 0.5 with k a whole number from 0 to 2147483648, got 3.0"),
    ]
    for kwargs, text in cases:
        with pytest.raises(ValueError, match=message(text)):
            territory.fair_komi(**{"games": 1, "n": 1, **kwargs})
    with pytest.raises(ValueError, match=message("threads must be an int from 1 to ")[:-1]):
        territory.fair_komi(games=1, n=1, threads=0)
    # Numpy numbers are numbers; the bounds of games and seed are taken.
    k = territory.fair_komi(games=1, seed=2**64 - 1, n=1, komi_values=[np.float64(-0.5), np.int64(1) + 0.5, 0.5])
    assert k.curve["komi"] == [-0.5, 0.5, 1.5] and k.games == 1 and k.seed == 2**64 - 1
    assert komi._komi_start({"n": 1}, np.float32(2.5))[0] == 2.5


# --- openings -------------------------------------------------------------------------

fm = importlib.import_module("territory.evaluate.first_moves")


def made_openings(**kw):
    fields = dict(game="tabik", params={"size": 2, "pie": True}, agent="random", games_per_opening=1500, seed=4,
                  moves=["a1-b1", "b1-a1", "a2-b2"], play_on=[0.25, 0.75, 0.5],
                  play_on_interval=[(0.125, 0.375), (0.625, 0.875), (0.375, 0.625)], play_on_games=[4, 4, 2],
                  swap=[0.5, 0.0, 1.0], swap_interval=[(0.25, 0.75), (0.0, 0.5), (0.5, 1.0)], swap_games=[2, 6, 0],
                  legal_first_moves=8, seconds=2.0)
    return fm.Openings(**{**fields, **kw})


def test_openings_by_cell_pools_the_moves_of_a_cell():
    o = made_openings()
    # a1: a1-b1 (0.25 of 4); b1: b1-a1 (0.75 of 4); a2: a2-b2 (0.5 of 2).
    assert o.by_cell() == {"a1": 0.25, "b1": 0.75, "a2": 0.5}
    assert o.by_cell("play_on") == o.by_cell()
    # Swap: a2-b2 has no games and is left out.
    assert o.by_cell("swap") == {"a1": 0.5, "b1": 0.0}
    pooled = made_openings(moves=["a1-b1", "a1-a2", "b2-a2"], play_on=[0.25, 1.0, 0.5], play_on_games=[4, 2, 0])
    assert pooled.by_cell() == {"a1": (0.25 * 4 + 1.0 * 2) / 6}
    for which in ("swap", "anything else"):
        with pytest.raises(ValueError, match=message("tabik with these parameters has no pie swap")):
            made_openings(swap=None, swap_interval=None, swap_games=None).by_cell(which)
    with pytest.raises(ValueError, match=message("tabik with these parameters has no pie swap")):
        made_openings(swap_games=None).by_cell("swap")


def test_openings_dict_json_and_text():
    o = made_openings()
    rows = [{"move": "a1-b1", "play_on": 0.25, "play_on_interval": [0.125, 0.375], "play_on_games": 4,
             "swap": 0.5, "swap_interval": [0.25, 0.75], "swap_games": 2},
            {"move": "b1-a1", "play_on": 0.75, "play_on_interval": [0.625, 0.875], "play_on_games": 4,
             "swap": 0.0, "swap_interval": [0.0, 0.5], "swap_games": 6},
            {"move": "a2-b2", "play_on": 0.5, "play_on_interval": [0.375, 0.625], "play_on_games": 2,
             "swap": 1.0, "swap_interval": [0.5, 1.0], "swap_games": 0}]
    expected = {"game": "tabik", "params": {"size": 2, "pie": True}, "agent": "random", "games_per_opening": 1500, "seed": 4,
                "legal_first_moves": 8, "seconds": 2.0, "openings": rows}
    assert o.to_dict() == expected and list(o.to_dict()) == list(expected) and list(o.to_dict()["openings"][0]) == list(rows[0])
    assert o.to_json() == json.dumps(expected, indent=2) and o.to_json(None) == json.dumps(expected)
    assert str(o) == (
        "tabik openings, agent random, 1,500 games per branch, 3 of 8 first moves, seed 4\n"
        "  move            play on            95% CI     swap            95% CI\n"
        "  b1-a1             0.750   [0.625, 0.875]    0.000   [0.000, 0.500]\n"
        "  a2-b2             0.500   [0.375, 0.625]    1.000   [0.500, 1.000]\n"
        "  a1-b1             0.250   [0.125, 0.375]    0.500   [0.250, 0.750]"
    )
    plain = made_openings(swap=None, swap_interval=None, swap_games=None)
    assert [list(row) for row in plain.to_dict()["openings"]] == [["move", "play_on", "play_on_interval", "play_on_games"]] * 3
    assert str(plain).splitlines()[1:3] == ["  move            play on            95% CI", "  b1-a1             0.750   [0.625, 0.875]"]
    # The swap columns need the rates, their intervals and (in the dict) their game counts.
    for partial in (dict(swap=None), dict(swap_interval=None), dict(swap_games=None)):
        assert [list(row) for row in made_openings(**partial).to_dict()["openings"]] == [["move", "play_on", "play_on_interval", "play_on_games"]] * 3
    assert str(made_openings(swap=None)) == str(plain)
    # Numpy floats JSON cannot write are written as floats.
    assert json.loads(made_openings(play_on=[np.float32(0.25), 0.75, 0.5]).to_json())["openings"][0]["play_on"] == 0.25
    assert fm.Openings("g", {}, "a", 1, 0, [], [], [], [], None, None, None, 0).seconds == 0.0


def test_default_opening_moves_and_its_sample(monkeypatch):
    nume = territory.Nume(n=1)
    every = [m for m in nume.legal_moves() if not nume.is_pass(m) and not nume.is_swap(m)]
    assert fm._first_moves(nume) == every and len(every) == 42
    tabik = territory.Tabik(size=2)
    assert "swap" not in fm._first_moves(tabik) and len(fm._first_moves(tabik)) == 8
    played = territory.Tabik(size=2, pie=False)
    for m in ["a1-b1", "b2-a2", "a1xa2", "b1xb2"]:
        played.play(m)
    assert played.legal_moves() == ["pass"] and fm._first_moves(played) == []
    assert (fm.MAX_DEFAULT_OPENINGS, fm.DEFAULT_OPENING_SAMPLE) == (1000, 252)
    assert fm.default_opening_moves(nume) == every
    migong = territory.Migong()
    moves = fm._first_moves(migong)
    picks = sorted(set(np.linspace(0, len(moves) - 1, 252).round().astype(int).tolist()))
    sample = fm.default_opening_moves(migong)
    assert sample == [moves[i] for i in picks] and len(sample) == 252
    assert sample[0] == moves[0] and sample[-1] == moves[-1]
    # At the bound every move is taken; one past it, the sample.
    monkeypatch.setattr(fm, "MAX_DEFAULT_OPENINGS", 42)
    assert fm.default_opening_moves(nume) == every
    monkeypatch.setattr(fm, "MAX_DEFAULT_OPENINGS", 41)
    monkeypatch.setattr(fm, "DEFAULT_OPENING_SAMPLE", 5)
    # linspace(0, 41, 5) = 0, 10.25, 20.5, 30.75, 41: rounded 0, 10, 20, 31, 41.
    assert fm.default_opening_moves(nume) == [every[i] for i in (0, 10, 20, 31, 41)]
    monkeypatch.setattr(fm, "DEFAULT_OPENING_SAMPLE", 60)  # more picks than moves: each once, in order
    assert fm.default_opening_moves(nume) == every


def test_default_opening_moves_takes_every_move_up_to_its_bound(monkeypatch):
    # Nume n=1 has 42 first moves: with the bound at 42 all are taken, at 41 a sample of 5.
    nume = territory.Nume(n=1)
    every = fm._first_moves(nume)
    monkeypatch.setattr(fm, "DEFAULT_OPENING_SAMPLE", 5)
    monkeypatch.setattr(fm, "MAX_DEFAULT_OPENINGS", 42)
    assert fm.default_opening_moves(nume) == every and len(every) == 42
    monkeypatch.setattr(fm, "MAX_DEFAULT_OPENINGS", 41)
    assert fm.default_opening_moves(nume) == [every[i] for i in (0, 10, 20, 31, 41)]


def test_rate_counts_draws_half():
    rate, interval, n = fm._rate(np.array([0, 0, 1, -1], dtype=np.int8))
    assert (rate, interval, n) == (2.5 / 4, wilson_interval(2.5, 4), 4)
    rate, interval, n = fm._rate(np.array([], dtype=np.int8))
    assert math.isnan(rate) and n == 0 and all(math.isnan(v) for v in interval)
    assert type(fm._rate(np.array([1], dtype=np.int8))[0]) is float


def fake_branches(outcomes):
    """A ``_traces`` stand-in: game ``first``'s branch (``first // games``) ends as
    ``outcomes[branch]`` = (winners, swapped)."""
    def traces(start, agent, games, seed, *, first, **kwargs):
        winners, swapped = outcomes[first // games]
        return {"winner": np.array(winners, dtype=np.int8), "swapped": np.array(swapped, dtype=bool)}
    return traces


def test_openings_passes_its_settings_on_and_leaves_swapped_games_out(monkeypatch):
    # Tabik 2 x 2: legal first moves a1-b1 (k = 0), b1-a1 (1), ...; branches 2k (play on)
    # and 2k + 1 (swap).
    start = territory.Tabik(size=2)
    legal = fm._first_moves(start)
    k1, k0 = legal.index("b1-a1"), legal.index("a1-b1")
    outcomes = {2 * k1: ([0, 1, -1, 0], [False, False, False, True]), 2 * k1 + 1: ([1, 1, 0, -1], [False] * 4),
                2 * k0: ([1, 1, 1, 1], [True, True, False, False]), 2 * k0 + 1: ([0, 0, 0, 0], [False] * 4)}
    runs = Recorder(fake_branches(outcomes))
    monkeypatch.setattr(fm, "_traces", runs)
    seen = []
    with ThreadPoolExecutor(1) as pool:
        o = territory.openings(start, games_per_opening=4, seed=6, executor=pool, threads=2, moves=iter(["b1-a1", "a1-b1"]),
                               progress=lambda *a: seen.append(a))
    # b1-a1 plays on: 0, 1, draw (the swapped game left out): 1.5 of 3; swap: 1.5 of 4.
    assert o.moves == ["b1-a1", "a1-b1"] and o.play_on == [0.5, 0.0] and o.play_on_games == [3, 2]
    assert o.play_on_interval == [wilson_interval(1.5, 3), wilson_interval(0.0, 2)]
    assert o.swap == [1.5 / 4, 1.0] and o.swap_games == [4, 4]
    assert o.swap_interval == [wilson_interval(1.5, 4), wilson_interval(4.0, 4)]
    assert (o.game, o.params, o.agent, o.games_per_opening, o.seed, o.legal_first_moves) == ("tabik", {"size": 2, "pie": True}, "random", 4, 6, 8)
    assert 0.0 < o.seconds < 60.0
    expected = [(k1, "b1-a1", False, 0), (k1, "b1-a1", True, 4), (k0, "a1-b1", False, 8), (k0, "a1-b1", True, 12)]
    assert len(runs.calls) == 4
    for (args, kwargs), (k, move, swapped, done) in zip(runs.calls, expected):
        after, agent, games, seed = args
        assert after.history == ([move, "swap"] if swapped else [move]) and type(agent) is territory.RandomAgent
        assert (games, seed) == (4, 6)
        assert kwargs == {"first": (2 * k + swapped) * 4, "threads": 2, "executor": pool, "progress": kwargs["progress"],
                          "outcomes_only": True, "done_before": done, "grand_total": 16}
        assert kwargs["progress"] is not None
    assert start.history == []  # the branches are played on copies
    # The last report: all done.
    assert len(seen) == 1 and seen[0][:2] == (16, 16) and 0.0 < seen[0][2] < 60.0
    # Without a pie rule: one branch per move, no swap rates.
    runs.calls.clear()
    nume = territory.Nume(n=1)
    k = fm._first_moves(nume).index("b1=2")
    monkeypatch.setattr(fm, "_traces", Recorder(fake_branches({2 * k: ([0, -1], [False, False])})))
    o = territory.openings(nume, games_per_opening=2, moves=["b1=2"])
    assert (o.play_on, o.swap, o.swap_interval, o.swap_games) == ([0.75], None, None, None)
    ((args, kwargs),) = fm._traces.calls
    assert kwargs["threads"] is None and kwargs["executor"] is None and kwargs["progress"] is None
    assert (kwargs["done_before"], kwargs["grand_total"], args[3]) == (0, 4, 0)


def test_openings_defaults_and_messages():
    o = territory.openings("tabik", size=2)
    assert (o.games_per_opening, o.seed, o.agent, o.legal_first_moves) == (200, 0, "random", 8)
    assert o.moves == fm.default_opening_moves(territory.Tabik(size=2)) and len(o.play_on) == 8
    k = 3
    after = territory.Tabik(size=2)
    after.play(o.moves[k])
    out = territory._core.run_playouts(after, 0, 2 * k * 200, 200, 1)
    kept = out["winner"][~out["swapped"].astype(bool)]
    assert o.play_on[k] == fm._rate(kept)[0] and o.play_on_games[k] == len(kept)
    cases = [
        (dict(moves=[]), "moves is empty: give at least one legal first move"),
        (dict(moves=["a1-b1", "a1-c1"]), "'a1-c1' is not a legal first move of tabik here"),
        (dict(moves=["swap"]), "'swap' is not a legal first move of tabik here"),
        (dict(games_per_opening=0), "games_per_opening must be an int from 1 to 100000000, got 0"),
        (dict(games_per_opening=10**8 + 1), "games_per_opening must be an int from 1 to 100000000, got 100000001"),
        (dict(seed=-1), "seed must be an int from 0 to 18446744073709551615, got -1"),
        (dict(seed=2**64), "seed must be an int from 0 to 18446744073709551615, got 18446744073709551616"),
    ]
    for kwargs, text in cases:
        with pytest.raises(ValueError, match=message(text)):
            territory.openings("tabik", size=2, **kwargs)
    with pytest.raises(ValueError, match="^threads must be an int from 1 to "):
        territory.openings("tabik", size=2, threads=0)
    one = territory.openings("tabik", games_per_opening=1, seed=2**64 - 1, size=2, moves=["a1-b1"])
    assert one.games_per_opening == 1 and one.seed == 2**64 - 1 and one.swap_games == [1]


# --- runs -----------------------------------------------------------------------------

runs = importlib.import_module("territory.evaluate.runs")


class Named:
    name = "the-name"

    def choose(self, state):
        return state.legal_moves()[0]


class Unnamed:
    def choose(self, state):
        return state.legal_moves()[-1]


def test_agents_their_names_and_seeds():
    assert runs.TRACE_FIELDS[:3] == ("winner", "moves", "turns") and len(runs.TRACE_FIELDS) == 17 and runs.MAX_GAMES == 10**8
    assert runs.agent_seed(5, 3, 1) == mix(5, 3, 1, start=GOLDEN) != runs.agent_seed(5, 3, 0)
    assert runs._agent_name(territory.RandomAgent()) == "random"
    assert runs._agent_name(territory.Uct(50)) == "uct:50"
    assert runs._agent_name(territory.Uct(50, seed=3)) == repr(territory.Uct(50, seed=3))
    assert runs._agent_name(territory.Uct(50, threads=2)) == repr(territory.Uct(50, threads=2))
    assert runs._agent_name(Named()) == "the-name" and runs._agent_name(Unnamed()) == "Unnamed"
    assert runs._is_random(territory.RandomAgent()) and not runs._is_random(territory.Uct(5)) and not runs._is_random("random")
    named = Named()
    assert runs._agent_for(named, 7) is named
    assert runs._agent_for(lambda seed: ("made", seed), 7) == ("made", 7)


def test_puct_is_played_with_root_noise_and_named_by_its_spec():
    puct = territory.Puct("tabik-4", 5)
    played = runs._parse(puct, "evaluate")
    assert played is not puct and type(played) is territory.Puct and played.noise_fraction == 0.25
    assert runs._agent_name(played) == "puct:tabik-4:5"
    with pytest.raises(ValueError, match="^openings needs distinct games"):
        runs._parse(territory.Puct("tabik-4", 5, noise_fraction=0), "openings")
    with pytest.raises(ValueError, match="^an analysis needs distinct games"):
        runs._parse(territory.Puct("tabik-4", 5, noise_fraction=0))
    model = territory.Puct("tabik-4", 5).model
    assert runs._agent_name(territory.Puct(model, 5)) == "Puct"
    # The model is checked against the game before any game is played.
    with pytest.raises(ValueError, match="trained for tabik"):
        runs._traces(territory.Tabik(size=5), played, 1, 0)


def test_concat_and_trace_games_with_no_games():
    parts = [{"a": np.array([1, 2]), "b": np.array([0.5])}, {"a": np.array([3]), "b": np.array([1.5, 2.5])}]
    joined = runs._concat(parts)
    assert list(joined) == ["a", "b"] and joined["a"].tolist() == [1, 2, 3] and joined["b"].tolist() == [0.5, 1.5, 2.5]
    empty = runs.trace_games(territory.Tabik(size=2), [])
    assert set(runs.TRACE_FIELDS) <= set(empty) and all(len(empty[k]) == 0 for k in runs.TRACE_FIELDS)


def test_run_sharded_locally_and_on_an_executor(monkeypatch):
    work = lambda start, stop: {"i": np.arange(start, stop)}  # noqa: E731
    reports = []
    out = runs._run_sharded(work, 10, progress=lambda *a: reports.append(a[:2]), done_before=5, grand_total=40, shard=3)
    assert out["i"].tolist() == list(range(10))
    assert reports == [(8, 40), (11, 40), (14, 40), (15, 40)]  # batches of 3: done_before added, grand total kept
    reports.clear()
    runs._run_sharded(work, 4, progress=lambda *a: reports.append(a[:2]))
    assert reports[-1] == (4, 4)
    # No games: one empty call keeps every field.
    calls = []
    none = runs._run_sharded(lambda start, stop: calls.append((start, stop)) or {"i": np.arange(start, stop)}, 0)
    assert calls == [(0, 0)] and none["i"].tolist() == []
    with ThreadPoolExecutor(2) as pool:
        assert runs._run_sharded(work, 0, executor=pool)["i"].tolist() == []
        reports.clear()
        out = runs._run_sharded(work, 10, executor=pool, shard=4, progress=lambda *a: reports.append(a[:2]), done_before=2, grand_total=20)
        assert out["i"].tolist() == list(range(10)) and reports[-1] == (12, 20)
    # What is handed on: first_batch and shard locally, shard and max_shard to the executor's run.
    seen = []
    monkeypatch.setattr(runs.distributed, "in_batches", lambda *a, **k: seen.append(("local", a, k)) or iter([work(0, 1)]))
    monkeypatch.setattr(runs.distributed, "run_sharded", lambda *a, **k: seen.append(("sharded", a, k)) or "combined")
    runs._run_sharded(work, 7)
    assert seen[-1] == ("local", (work, 7), {"first": 64, "fixed": None, "progress": None})
    runs._run_sharded(work, 7, first_batch=2, shard=5)
    assert seen[-1] == ("local", (work, 7), {"first": 2, "fixed": 5, "progress": None})
    pool = object()
    assert runs._run_sharded(work, 7, executor=pool) == "combined"
    assert seen[-1] == ("sharded", (pool, work, (), 7), {"combine": runs._concat, "shard_size": None, "progress": None, "max_shard": 1 << 16})
    runs._run_sharded(work, 7, executor=pool, shard=3, max_shard=64)
    assert seen[-1][2]["shard_size"] == 3 and seen[-1][2]["max_shard"] == 64


def test_traces_hands_each_kind_of_agent_its_work(monkeypatch):
    seen = []
    monkeypatch.setattr(runs, "_run_sharded", lambda work, total, **kw: seen.append((work, total, kw)) or "traced")
    start = territory.Tabik(size=2)
    pool = object()
    progress = lambda *a: None  # noqa: E731
    assert runs._traces(start, territory.RandomAgent(), 5, 3, first=10, threads=2, progress=progress, outcomes_only=True,
                        done_before=4, grand_total=50) == "traced"
    work, total, kw = seen[-1]
    assert work == runs._RandomGames(start, 3, 10, 2, True) and total == 5
    assert kw == {"executor": None, "progress": progress, "done_before": 4, "grand_total": 50}
    runs._traces(start, territory.RandomAgent(), 5, 3)
    assert seen[-1][0] == runs._RandomGames(start, 3, 0, None, False)
    assert seen[-1][2] == {"executor": None, "progress": None, "done_before": 0, "grand_total": None}
    # An executor's workers give the parallelism: one thread each unless told.
    runs._traces(start, territory.RandomAgent(), 5, 3, executor=pool)
    assert seen[-1][0].threads == 1 and seen[-1][2]["executor"] is pool
    runs._traces(start, territory.RandomAgent(), 5, 3, executor=pool, threads=4)
    assert seen[-1][0].threads == 4
    uct = territory.Uct(4)
    runs._traces(start, uct, 6, 1, first=2, threads=2, outcomes_only=True)
    work, total, kw = seen[-1]
    assert work == runs._UctTraces(start, uct, 1, 2, 2, True) and total == 6
    assert kw == {"executor": None, "progress": None, "done_before": 0, "grand_total": None, "first_batch": 2, "max_shard": 64}
    agent = Named()
    runs._traces(start, agent, 6, 1, first=2, threads=2)
    work, total, kw = seen[-1]
    assert work == runs._AgentTraces(start, (agent, agent), 1, 2, 2)
    assert kw == {"executor": None, "progress": None, "done_before": 0, "grand_total": None, "shard": 1, "max_shard": 64}
    runs._traces(start, agent, 6, 1, executor=pool)
    assert seen[-1][2]["shard"] is None and seen[-1][0].threads == 1


def test_random_and_uct_work_are_the_games_of_their_run():
    start = territory.Tabik(size=2)
    traced = runs._RandomGames(start, 9, 100, 1)(3, 5)
    assert np.array_equal(traced["moves"], territory._core.trace_random(start, 9, 103, 2, 1)["moves"])
    outcomes = runs._RandomGames(start, 9, 100, 1, outcomes_only=True)(3, 5)
    assert np.array_equal(outcomes["length"], territory._core.run_playouts(start, 9, 103, 2, 1)["length"]) and "moves" not in outcomes
    uct = territory.Uct(3)
    match = territory.agents.match_games(start, [uct, uct], 9, 103, 105, swap_seats=False, threads=1)
    out = runs._UctTraces(start, uct, 9, 100, 1, outcomes_only=True)(3, 5)
    assert list(out) == ["winner", "length", "passes", "swapped", "scores"]
    assert all(np.array_equal(out[k], match[k]) for k in out)
    traced = runs._UctTraces(start, uct, 9, 100, 1)(3, 5)
    assert np.array_equal(traced["moves"], match["length"]) and np.array_equal(traced["winner"], match["winner"])


def test_agent_work_seeds_each_game_and_seat():
    start = territory.Tabik(size=2)
    start.play("a1-b1")
    made = []

    def factory(seed):
        made.append(seed)
        return Named() if seed % 2 else Unnamed()

    work = runs._AgentTraces(start, (factory, factory), 4, 10, 1)
    games = work.actions(1, 3)
    assert made == [runs.agent_seed(4, i, s) for i in (11, 12) for s in (0, 1)]
    expected = []
    for i in (11, 12):
        agents = [Named() if runs.agent_seed(4, i, s) % 2 else Unnamed() for s in (0, 1)]
        end = territory.agents.play_agents(start, agents, i)
        expected.append([end.move_to_action(m) for m in end.history[1:]])
    assert games == expected and start.history == ["a1-b1"]
    traced = work(1, 3)
    assert np.array_equal(traced["moves"], runs.trace_games(start, expected)["moves"])



class Returns:
    """An agent that answers every position with ``move``."""

    def __init__(self, move):
        self.move = move

    def choose(self, state):
        return self.move

    def __repr__(self):
        return f"Returns({self.move!r})"


def test_a_failing_agent_is_named_with_its_game():
    start = territory.Tabik(size=2)
    work = runs._AgentTraces(start, (Returns("a1-b1"), Returns(5)), 4, 10, 1)
    # Game 12 of the run: agent 0 plays a1-b1, agent 1 answers 5.
    with pytest.raises(territory.AgentError, match=message("agent 1 (Returns(5)) returned 5, not a move string, in game 12 after the moves: a1-b1")):
        work(2, 3)


def test_the_thread_count_reaches_the_engine():
    # The engine refuses 0 threads: each kind of work hands its count on.
    start = territory.Tabik(size=2)
    refused = message("threads must be None (every core) or from 1 to 1024, got 0")
    uct = territory.Uct(3)
    for work in [runs._UctTraces(start, uct, 9, 0, 0, outcomes_only=True), runs._UctTraces(start, uct, 9, 0, 0),
                 runs._AgentTraces(start, (Named(), Named()), 9, 0, 0)]:
        with pytest.raises(ValueError, match=refused):
            work(0, 1)
    with pytest.raises(ValueError, match=refused):
        runs.trace_games(start, [], 0)



def test_random_work_hands_its_thread_count_to_the_engine():
    start = territory.Tabik(size=2)
    for outcomes_only in (False, True):
        with pytest.raises(ValueError, match=message("threads must be None (every core) or from 1 to 1024, got 0")):
            runs._RandomGames(start, 9, 0, 0, outcomes_only)(0, 1)



def test_run_sharded_reports_the_seconds_spent():
    reports = []
    runs._run_sharded(lambda start, stop: {"i": np.arange(start, stop)}, 4, progress=lambda *a: reports.append(a), done_before=1, grand_total=9, shard=2)
    assert [r[:2] for r in reports] == [(3, 9), (5, 9)]
    assert all(type(r[2]) is float and 0.0 <= r[2] < 60.0 for r in reports)


# --- what each analysis tells the agent parser ----------------------------------------


def test_each_analysis_parses_its_agent_with_the_game_and_its_own_name():
    # c=tuned needs the game: each analysis hands its start to the parser.
    assert territory.evaluate("tabik", agent="uct:4:c=tuned", games=1, size=2).agent == "uct:4:c=0.5"
    assert territory.openings("tabik", agent="uct:4:c=tuned", games_per_opening=1, size=2, moves=["a1-b1"]).agent == "uct:4:c=0.5"
    assert territory.fair_komi(agent="uct:4:c=tuned", games=1, n=1, komi_values=[0.5, 1.5]).fits[0].agent.startswith("uct:4:c=")
    # A Puct without root noise is refused in the analysis' own name.
    quiet = territory.Puct("tabik-4", 5, noise_fraction=0)
    for analysis, name in [(territory.evaluate, "evaluate"), (territory.openings, "openings")]:
        with pytest.raises(ValueError, match=f"^{name} needs distinct games, and a Puct with noise_fraction=0"):
            analysis("tabik", quiet, size=4)
    with pytest.raises(ValueError, match="^fair_komi needs distinct games"):
        territory.fair_komi(quiet, n=1, games=1)


# --- plots ----------------------------------------------------------------------------
# The figures are the plots' output: what each axis shows (data, labels, titles, limits)
# and how (colours, sizes), read back from the matplotlib figure that ``_save`` is given.


def drawn(monkeypatch, plotter, result, path="figure.svg"):
    """The figure ``plots.<plotter>`` draws for ``result`` (``_save`` recorded, no file
    written); it is closed once saved."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    saved = []
    monkeypatch.setattr(plots, "_save", lambda fig, to: saved.append((fig, to)))
    getattr(plots, plotter)(result, path)
    ((fig, to),) = saved
    assert to == path and not plt.fignum_exists(fig.number)
    return fig


def hex_colour(colour):
    from matplotlib.colors import to_hex

    return to_hex(colour, keep_alpha=True)


def bars(container):
    """A bar container's bars as (left, width, height, bottom)."""
    return [(p.get_x(), p.get_width(), p.get_height(), p.get_y()) for p in container.patches]


def test_plot_paths_and_saving():
    pytest.importorskip("matplotlib")
    for bad in ("x.pdf", "x", "a/png"):
        with pytest.raises(ValueError, match=message(f"plot path must end in .png or .svg, got {bad!r}")):
            plots._check_path(bad)

    class Figure:
        def __init__(self):
            self.saved = []

        def savefig(self, *args, **kwargs):
            self.saved.append((args, kwargs))

    for path, kind in [("a/b.SVG", "svg"), ("c.png", "png"), ("d.Png", "png")]:
        plots._check_path(path)
        fig = Figure()
        plots._save(fig, path)
        assert fig.saved == [((plots.Path(path),), {"format": kind, "dpi": 120, "bbox_inches": "tight"})]
    fig = Figure()
    with pytest.raises(ValueError, match=message("plot path must end in .png or .svg, got 'e.jpg'")):
        plots._save(fig, "e.jpg")
    assert fig.saved == []
    assert plots._lower_score_wins("nume") is True and plots._lower_score_wins("tabik") is False


def test_cell_polygons_are_the_svg_boards_cells():
    # Tabik 2 x 2: squares of side 40, row 1 at the bottom (SVG's y points down).
    assert plots.cell_polygons("tabik", {"size": 2}) == {
        "a1": [(0.0, 40.0), (40.0, 40.0), (40.0, 80.0), (0.0, 80.0)], "b1": [(40.0, 40.0), (80.0, 40.0), (80.0, 80.0), (40.0, 80.0)],
        "a2": [(0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0)], "b2": [(40.0, 0.0), (80.0, 0.0), (80.0, 40.0), (40.0, 40.0)]}
    assert plots.cell_polygons("tabik", {"size": 3})["a1"] == [(0.0, 80.0), (40.0, 80.0), (40.0, 120.0), (0.0, 120.0)]
    # Nume's cells are hexagons of circumradius 22 around the SVG board's centres.
    nume = plots.cell_polygons("nume", {"n": 1})
    assert list(nume) == ["a1", "b1", "c1", "a2", "b2", "a3"]
    for name, (x, y) in {"a1": (0.0, 0.0), "b1": (38.1051177665153, 0.0), "a2": (19.05255888325765, 33.0)}.items():
        corners = [(x + 22 * math.cos(math.radians(30 + 60 * i)), y - 22 * math.sin(math.radians(30 + 60 * i))) for i in range(6)]
        assert np.abs(np.array(nume[name]) - corners).max() < 1e-9


def test_plot_evaluation_draws_lengths_score_differences_and_rates(monkeypatch):
    names = ["AdvantageP1", "Balance", "Completion", "DecisionMoves", "LeadChange", "DecisivenessMoves"]
    rates = {name: Metric(0.1 * (i + 1), (0.1 * i, 0.1 * (i + 2))) for i, name in enumerate(names)}
    rates["Balance"] = Metric(0.5, (0.6, 0.4))  # an interval that misses the estimate: no negative bars
    traces = {"moves": np.array([4, 6, 6, 9]), "scores": np.array([[3, 1], [2, 2], [0, 5], [4, 4]]), "winner": np.array([0, -1, 1, 0])}
    e = made_evaluation(game="nume", params={"n": 2}, agent="random", games=4000, metrics={**rates, "Other": Metric(5.0)}, traces=traces)
    fig = drawn(monkeypatch, "plot_evaluation", e)
    assert fig.get_size_inches().tolist() == [15.0, 4.2] and fig._suptitle.get_text() == "nume (n=2): 4,000 games, agent random"
    lengths, scores, shares = fig.axes
    assert [ax.get_subplotspec().get_geometry() for ax in fig.axes] == [(1, 3, 0, 0), (1, 3, 1, 1), (1, 3, 2, 2)]  # side by side
    # Lengths 4..9 span less than 10: five more on each side, one bar per length.
    assert (lengths.get_title(), lengths.get_xlabel(), lengths.get_ylabel()) == ("game length", "actions per game (DurationMoves)", "games")
    (histogram,) = lengths.containers
    counts = {4: 1.0, 6: 2.0, 9: 1.0}
    assert bars(histogram) == [(k - 0.5, 1.0, counts.get(k, 0.0), 0.0) for k in range(-1, 15)]
    assert hex_colour(histogram.patches[0].get_facecolor()) == "#4a7ab5ff"
    # Differences -5, 0, 2, 0 in 40 bins from -5 to 2 (+1e-9), stacked: seat 0's wins, seat 1's, draws.
    assert (scores.get_title(), scores.get_xlabel()) == ("final score difference", "final score of seat 0 minus seat 1 (the lower score wins)")
    assert [t.get_text() for t in scores.get_legend().get_texts()] == ["seat 0 wins", "seat 1 wins", "draws"]
    assert scores.get_legend()._fontsize == 8
    edges = np.linspace(-5, 2 + 1e-9, 41)
    first, second, draws = scores.containers
    assert [hex_colour(c.patches[0].get_facecolor()) for c in (first, second, draws)] == ["#2b6cb0ff", "#dd6b20ff", "#999999ff"]
    assert [b[0] for b in bars(first)] == pytest.approx(edges[:-1].tolist(), abs=1e-12)
    draw_bin = int(np.searchsorted(edges, 0.0, side="right")) - 1
    assert draw_bin == 28
    assert [(i, b[2:]) for i, b in enumerate(bars(first)) if b[2]] == [(28, (1.0, 0.0)), (39, (1.0, 0.0))]  # 0 and 2: seat 0's wins
    assert [(i, b[2:]) for i, b in enumerate(bars(second)) if b[2]] == [(0, (1.0, 0.0))]  # -5: seat 1's
    assert [(i, b[2:]) for i, b in enumerate(bars(draws)) if b[2]] == [(28, (1.0, 1.0))]  # 0, on top of seat 0's win at 0
    # The six rates, top to bottom, with their intervals clipped at the estimate.
    assert shares.get_title() == "rates with 95% intervals" and shares.get_xlim() == (0.0, 1.0)
    assert [t.get_text() for t in shares.get_yticklabels()] == names and shares.get_yticks().tolist() == [5, 4, 3, 2, 1, 0]
    (rates_bars,) = shares.containers
    points, _caps, (segments,) = rates_bars
    estimates = [0.1, 0.5, 0.3, 0.4, 0.5, 0.6]
    assert points.get_xdata().tolist() == pytest.approx(estimates) and points.get_ydata().tolist() == [5, 4, 3, 2, 1, 0]
    assert (points.get_marker(), points.get_linestyle(), hex_colour(points.get_color())) == ("o", "None", "#2d3748ff")
    spans = [(0.0, 0.2), (0.5, 0.5), (0.2, 0.4), (0.3, 0.5), (0.4, 0.6), (0.5, 0.7)]
    assert np.abs(np.array([[s[0][0], s[1][0]] for s in segments.get_segments()]) - spans).max() < 1e-12
    assert [c.get_markersize() for c in _caps] == [6.0, 6.0]  # capsize 3
    middle = shares.lines[-1]
    assert (list(middle.get_xdata()), hex_colour(middle.get_color()), middle.get_linewidth(), middle.get_zorder()) == ([0.5, 0.5], "#ccccccff", 0.8, 0)


@pytest.mark.parametrize("moves, lefts", [
    ([3, 13], [k - 0.5 for k in range(3, 14)]),  # a spread of 10: not widened
    ([0, 119], [k - 0.5 for k in range(0, 120)]),  # below 120: one bar per length
    ([10, 129], [k - 0.5 for k in range(10, 130)]),  # the spread, not the lengths, is bounded
    ([0, 120], np.linspace(0, 120, 61)[:-1].tolist()),  # from 120 on: 60 bars
])
def test_plot_evaluation_length_bins(monkeypatch, moves, lefts):
    traces = {"moves": np.array(moves), "scores": np.array([[1, 0], [0, 1]]), "winner": np.array([0, 1])}
    rates = {name: Metric(0.5, (0.25, 0.75)) for name in ["AdvantageP1", "Balance", "Completion", "DecisionMoves", "LeadChange", "DecisivenessMoves"]}
    fig = drawn(monkeypatch, "plot_evaluation", made_evaluation(metrics=rates, traces=traces), "e.png")
    assert [b[0] for b in bars(fig.axes[0].containers[0])] == pytest.approx(lefts)
    assert fig.axes[1].get_xlabel() == "final score of seat 0 minus seat 1"  # Tabik: the higher score wins
    assert fig._suptitle.get_text() == "tabik (size=2, pie=False): 12,345 games, agent uct:8"


def test_plot_komi_draws_each_fit_in_its_colour(monkeypatch):
    import matplotlib

    values = np.array([-1.5, 0.5, 2.5])
    fits = [komi._fit_komi("random", values, np.array([3, 2, 1]), 4), komi._fit_komi("uct:64", np.array([-2.5, 1.5]), np.array([3, 1]), 4),
            komi._fit_komi("uct:8", values, np.array([2, 2, 2]), 4)]
    result = komi.FairKomi({"n": 2, "square": None}, 4, 3, fits)
    # Two colours for three fits: the third takes the first again.
    with matplotlib.rc_context({"axes.prop_cycle": matplotlib.cycler(color=["#112233", "#445566"])}):
        fig = drawn(monkeypatch, "plot_komi", result, "k.png")
    (ax,) = fig.axes
    assert fig.get_size_inches().tolist() == [8.0, 5.0]
    assert ax.get_title() == "Nume (n=2, square=None): 4 games per komi, logistic fit with 95% band"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("komi (added to Black's score; negative: to White's)", "Black's win rate")
    labels = ["random: fair komi 0.50 [-1.76, 2.76]",
              f"uct:64: fair komi {fits[1].estimate:.2f} [{fits[1].interval[0]:.2f}, {fits[1].interval[1]:.2f}]", "uct:8: fair komi nan [nan, nan]"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels and ax.get_legend()._fontsize == 8
    colours = ["#112233", "#445566", "#112233"]
    bands = [c for c in ax.collections if type(c).__name__ == "FillBetweenPolyCollection"]
    assert len(ax.containers) == len(bands) == 3
    for fit, colour, label, points, band in zip(fits, colours, labels, ax.containers, bands):
        # The win rates with their Wilson intervals.
        dots, caps, (whiskers,) = points
        c = fit.curve
        assert dots.get_xdata().tolist() == c["komi"] and dots.get_ydata().tolist() == c["win_rate"]
        assert (dots.get_marker(), dots.get_linestyle(), dots.get_markersize(), dots.get_alpha()) == ("o", "None", 3.0, 0.8)
        assert hex_colour(dots.get_color()) == colour + "ff" and [cap.get_markersize() for cap in caps] == [4.0, 4.0]
        assert hex_colour(whiskers.get_color()[0]) == colour + "cc" and whiskers.get_alpha() == 0.8
        ends = [[s[0][1], s[1][1]] for s in whiskers.get_segments()]
        assert np.abs(np.array(ends) - np.column_stack([c["ci_low"], c["ci_high"]])).max() < 1e-12
        # The fitted curve over 300 points from the least to the largest komi, and its band.
        (curve,) = [line for line in ax.lines if line.get_label() == label]
        grid = np.linspace(min(c["komi"]), max(c["komi"]), 300)
        fitted, low, high = fit.fitted(grid)
        assert np.array_equal(curve.get_xdata(), grid) and np.array_equal(curve.get_ydata(), fitted)
        assert hex_colour(curve.get_color()) == colour + "ff" and curve.get_linestyle() == "-"
        outline = band.get_paths()[0].vertices
        # fill_between's outline: the low edge left to right, then the high edge back.
        assert np.array_equal(outline[1:301], np.column_stack([grid, low]))
        assert np.array_equal(outline[302:602], np.column_stack([grid, high])[::-1])
        assert hex_colour(band.get_facecolor()[0]) == colour + "33" and band.get_linewidth().tolist() == [0.0]
    # The estimate of each finite fit: a dashed line in a shaded interval, in the fit's colour; the flat fit has none.
    crossings = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert [(list(line.get_xdata()), hex_colour(line.get_color()), line.get_linewidth()) for line in crossings] == [
        ([f.estimate] * 2, colours[i] + "ff", 1.0) for i, f in enumerate(fits[:2])]
    spans = [(p.get_x(), p.get_width(), hex_colour(p.get_facecolor()), p.get_linewidth()) for p in ax.patches]
    assert spans == [(f.interval[0], pytest.approx(f.interval[1] - f.interval[0]), colours[i] + "1f", 0.0) for i, f in enumerate(fits[:2])]
    (half,) = [line for line in ax.lines if list(line.get_ydata()) == [0.5, 0.5]]
    assert (hex_colour(half.get_color()), half.get_linewidth(), list(half.get_xdata())) == ("#888888ff", 0.8, [0, 1])


def test_plot_openings_draws_a_heat_map_per_branch_on_the_board(monkeypatch):
    import matplotlib

    fig = drawn(monkeypatch, "plot_openings", made_openings(), "o.png")
    assert fig.get_size_inches().tolist() == [13.0, 6.2]
    assert fig._suptitle.get_text() == "tabik (size=2, pie=True) openings: 3 first moves, 1,500 games each, agent random"
    play_on, swap, bar = fig.axes
    polygons = plots.cell_polygons("tabik", {"size": 2})
    # by_cell: play on a1 0.25, b1 0.75, a2 0.5 (b2 no move: blank); swap a1 0.5, b1 0.0 (a2's swap had no games).
    for ax, title, rates in [(play_on, "seat 1 plays on", [0.25, 0.75, 0.5, None]), (swap, "seat 1 swaps (pie)", [0.5, 0.0, None, None])]:
        assert (ax.get_title(), ax.title.get_fontsize(), ax.axison, ax.get_aspect()) == (title, 10.0, False, 1.0)
        # The board's extent and 5 more around it, y pointing down as in the SVG.
        assert (ax.get_xlim(), ax.get_ylim()) == ((-5.0, 85.0), (85.0, -5.0))
        (cells,) = ax.collections
        assert [p.vertices[:4].tolist() for p in cells.get_paths()] == [[list(p) for p in polygons[n]] for n in ["a1", "b1", "a2", "b2"]]
        values = cells.get_array()
        assert [None if masked else float(v) for v, masked in zip(values.data, np.ma.getmaskarray(values))] == rates
        assert cells.get_clim() == (0.0, 1.0) and cells.get_cmap().name == "RdBu_r"
        assert hex_colour(cells.get_cmap().get_bad()) == "#f4ecdcff"
        assert [hex_colour(c) for c in cells.get_edgecolor()] == ["#6e5a44ff"] and cells.get_linewidth().tolist() == [0.6]
        assert len(ax.patches) == 0  # Tabik draws no border shapes
    # One colour bar for both, 0.8 of the panels' height, from the last map.
    assert bar.get_ylabel() == "seat 0's win rate after a first move on the cell" and bar._colorbar.mappable is swap.collections[0]
    height = matplotlib.rcParams["figure.subplot.top"] - matplotlib.rcParams["figure.subplot.bottom"]
    assert bar.get_position().height == pytest.approx(0.8 * height, rel=1e-9)


def test_plot_openings_without_a_swap_and_with_the_boards_shapes(monkeypatch):
    migong = territory.Migong()
    first = fm._first_moves(migong)
    moves = first[:2] + [first[-1]]
    last = migong.move_cells(first[-1])[0]
    assert migong.move_cells(first[0])[0] == migong.move_cells(first[1])[0] == "g1" != last
    result = fm.Openings("migong", dict(migong.params), "uct:4", 2, 0, moves, [1.0, 0.5, 0.25], [(0.0, 1.0)] * 3, [2, 2, 2],
                         None, None, None, 6009)
    fig = drawn(monkeypatch, "plot_openings", result)
    assert fig.get_size_inches().tolist() == [6.5, 6.2]
    assert fig._suptitle.get_text() == "migong (pie=True, border=alternate, group_size=extent) openings: 3 first moves, 2 games each, agent uct:4"
    panel, bar = fig.axes
    assert panel.get_title() == "seat 1 plays on" and bar._colorbar.mappable is panel.collections[0]
    (cells,) = panel.collections
    names = list(plots.cell_polygons("migong", dict(migong.params)))
    values = dict(zip(names, cells.get_array().filled(-1.0).tolist()))
    assert {n: v for n, v in values.items() if v != -1.0} == {"g1": 0.75, last: 0.25}  # g1: 1.0 and 0.5 over 2 games each
    # Migong's central border, as the SVG board draws it.
    ((shape, colour),) = territory.games.hook("migong", "shapes", list)()
    (border,) = panel.patches
    assert np.array_equal(border.get_xy()[:-1], np.array(shape)) and hex_colour(border.get_facecolor()) == colour + "ff"
    points = np.array([p for polygon in plots.cell_polygons("migong", dict(migong.params)).values() for p in polygon])
    assert panel.get_xlim() == (points[:, 0].min() - 5, points[:, 0].max() + 5)
    assert panel.get_ylim() == (points[:, 1].max() + 5, points[:, 1].min() - 5)



def test_plot_openings_keeps_its_sizes_in_any_style_and_both_maps_at_one_scale(monkeypatch):
    import matplotlib

    with matplotlib.rc_context({"font.size": 8.0, "legend.fontsize": 6.0}):
        fig = drawn(monkeypatch, "plot_openings", made_openings())
    play_on, swap, bar = fig.axes
    assert play_on.title.get_fontsize() == swap.title.get_fontsize() == 10.0
    # The colour bar takes its room from both maps alike.
    assert play_on.get_position().width == pytest.approx(swap.get_position().width, rel=1e-12)
    assert play_on.get_position().height == pytest.approx(swap.get_position().height, rel=1e-12)


def test_a_flat_komi_fit_has_no_crossing_and_no_numpy_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flat = komi._fit_komi("random", np.array([-1.5, 0.5, 2.5]), np.array([2, 2, 2]), 4)
    assert flat.coefficients == (0.0, 0.0) and math.isnan(flat.estimate) and all(math.isnan(v) for v in flat.interval)
