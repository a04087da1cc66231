"""The small parts of territory.agents checked exactly (issue 36, mutation testing):
defaults, bounds, messages, reprs and specs of the agents, the spec parsers, the match
and solver argument checks, on hand-made inputs with known answers. Fast: no search of
more than a few iterations."""

from __future__ import annotations

import math

import numpy as np
import pytest

import territory
from territory import agents
from territory.agents import (
    Analysis, MatchResults, RandomAgent, Stop, Uct, _elo, best_agent, board_key, concat_match_parts, match_games, parse_agent,
    play_match, solve, spec_count, spec_number, spec_options, start_state, tuned_uct_c,
)


def message(call, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as error:
        call(*args, **kwargs)
    return str(error.value)


# ---------------------------------------------------------------- Analysis.best


def test_the_best_move_is_the_most_visited_then_the_higher_value_then_the_first():
    assert Analysis(["a", "b", "c"], [1, 3, 2], [0.9, 0.1, 0.5], 0.0).best == "b"
    assert Analysis(["a", "b", "c"], [3, 3, 2], [0.1, 0.2, 0.9], 0.0).best == "b"
    assert Analysis(["a", "b", "c"], [3, 3, 3], [0.5, 0.5, 0.5], 0.0).best == "a"
    assert Analysis(["a", "b", "c"], [2, 3, 3], [0.5, 0.5, 0.5], 0.0).best == "b"


# ---------------------------------------------------------------- RandomAgent and Uct


def test_random_agent_seed_bounds_spec_and_repr():
    assert RandomAgent().seed == 0 and RandomAgent(2**64 - 1).seed == 2**64 - 1
    assert message(RandomAgent, -1) == "seed must be an int from 0 to 18446744073709551615, got -1"
    assert message(RandomAgent, 2**64) == "seed must be an int from 0 to 18446744073709551615, got 18446744073709551616"
    agent = RandomAgent(5)
    assert agent.spec() == "random" and agent._spec() == ("random",) and repr(agent) == "RandomAgent()"
    state = territory.Tabik(size=4)
    # Seeded: the same seed, the same moves; the moves are legal.
    a, b = RandomAgent(7), RandomAgent(7)
    moves = [a.choose(state) for _ in range(5)]
    assert moves == [b.choose(state) for _ in range(5)] and set(moves) <= set(state.legal_moves())
    assert len({RandomAgent(s).choose(state) for s in range(8)}) > 1


def test_uct_defaults_bounds_messages_spec_and_repr():
    uct = Uct()
    assert (uct.iterations, uct.c, uct.seed, uct.threads) == (1000, 1.4, 0, 1)
    assert repr(uct) == "Uct(iterations=1000, c=1.4, seed=0, threads=1)" and uct.spec() == "uct:1000"
    assert uct._spec() == ("uct", 1000, 1.4, 0, 1)
    most = Uct(agents.MAX_UCT_ITERATIONS, 0, 2**64 - 1, agents.MAX_THREADS)
    assert (most.iterations, most.c, most.seed, most.threads) == (10_000_000, 0.0, 2**64 - 1, agents.MAX_THREADS)
    assert type(most.c) is float and most.spec() == "uct:10000000:c=0.0"
    assert Uct(5, c=2).spec() == "uct:5:c=2.0" and repr(Uct(5, 2, 3, 2)) == "Uct(iterations=5, c=2.0, seed=3, threads=2)"
    assert message(Uct, 0) == "iterations must be an int from 1 to 10000000, got 0"
    assert message(Uct, 10_000_001) == "iterations must be an int from 1 to 10000000, got 10000001"
    for c in (-0.5, math.inf, math.nan, True, "1"):
        assert message(Uct, 10, c) == f"c must be a finite number >= 0, got {c!r}"
    assert message(Uct, 10, 1.0, -1) == "seed must be an int from 0 to 18446744073709551615, got -1"
    assert message(Uct, 10, 1.0, 2**64).startswith("seed must be an int from 0 to 18446744073709551615")
    assert message(Uct, 10, 1.0, 0, 0) == f"threads must be an int from 1 to {agents.MAX_THREADS}, got 0"
    assert message(Uct, 10, 1.0, 0, agents.MAX_THREADS + 1).startswith("threads must be an int from 1 to")


def test_uct_analyse_takes_its_seed_or_the_one_given():
    state = territory.Tabik(size=4)
    own = Uct(64, seed=3).analyse(state)
    assert own == Uct(64, seed=9).analyse(state, seed=3) == Uct(64, seed=3).analyse(state, seed=None)
    assert message(Uct(64).analyse, state, seed=-1) == "seed must be an int from 0 to 18446744073709551615, got -1"
    assert message(Uct(64).analyse, state, stop=1) == "stop must be a territory.Stop or None, got int"
    assert message(Uct(64).analyse, state, finish="x") == "finish must be a territory.Stop or None, got str"
    assert message(Uct(64).analyse, state, progress=3) == "progress must be a function or None, got int"
    assert message(Uct(64).choose, state, stop=1) == "stop must be a territory.Stop or None, got int"
    # choose passes finish and progress on: a finish already set still gives a legal move,
    # and progress reaches the engine (a bad one is refused there too).
    finish = Stop()
    finish.set()
    assert Uct(5000).choose(state, finish=finish) in state.legal_moves()
    assert message(Uct(64).choose, state, finish=1) == "finish must be a territory.Stop or None, got int"
    assert message(Uct(64).choose, state, progress=1) == "progress must be a function or None, got int"
    stop = Stop()
    stop.set()
    with pytest.raises(territory.StoppedError):
        Uct(5000).choose(state, stop=stop)


# ---------------------------------------------------------------- boards and tuned c


def test_board_keys_and_tuned_c():
    assert board_key(territory.Tabik(size=6)) == ("tabik", 6)
    assert board_key(territory.Nume(n=3)) == ("nume", 3)
    assert board_key(territory.Migong()) == ("migong", None)
    assert tuned_uct_c(territory.Tabik(size=6)) == 0.7 and tuned_uct_c(territory.Tabik(size=8)) == 0.5
    assert tuned_uct_c(territory.Tabik(size=4)) == 0.5  # not swept: the default board's (size 8)
    assert tuned_uct_c(territory.Migong()) == 0.3


def test_a_game_without_a_tuned_table_takes_1_4(monkeypatch):
    real = agents.games.hook
    monkeypatch.setattr(agents.games, "hook", lambda game, name, default=None: {} if name == "TUNED_UCT_C" else real(game, name, default))
    assert tuned_uct_c(territory.Tabik(size=6)) == 1.4


# ---------------------------------------------------------------- spec parsers


def test_spec_options_read_each_option_and_say_what_is_wrong():
    allowed = {"c": float, "k": int}
    assert spec_options("s", "c=1.5, k = 3", allowed) == {"c": 1.5, "k": 3}
    assert message(spec_options, "s", "c", allowed) == (
        "agent 's': options are key=value separated by commas (keys: c, k), got 'c'")
    assert message(spec_options, "s", "=1", allowed) == (
        "agent 's': options are key=value separated by commas (keys: c, k), got '=1'")
    assert message(spec_options, "s", " c= ", allowed) == (
        "agent 's': options are key=value separated by commas (keys: c, k), got 'c='")
    assert message(spec_options, "s", "x=1", allowed) == "agent 's': unknown option 'x'; the options are c, k"
    assert message(spec_options, "s", "c=1,c=2", allowed) == "agent 's': option 'c' given twice"
    assert message(spec_options, "s", "k=z", allowed) == (
        "agent 's': k=z: invalid literal for int() with base 10: 'z'")
    long = "9" * 40 + "z"
    assert message(spec_options, "s", f"k={long}", allowed) == (
        f"agent 's': k={territory.errors.excerpt(long)}: invalid literal for int() with base 10: '{long}'")
    forty = "9" * 39 + "z"
    assert message(spec_options, "s", f"k={forty}", allowed).startswith(f"agent 's': k={forty}: ")


def test_spec_numbers_and_counts_at_their_bounds():
    assert spec_number("-1e300") == -1e300 and spec_number("0", 0.0) == 0.0 and spec_number("1", 0, 1) == 1.0
    assert message(spec_number, "x") == "not a number: 'x'"
    assert message(spec_number, "-0.5", 0.0) == "must be a number >= 0, got '-0.5'"
    assert message(spec_number, "1.5", 0.0, 1.0) == "must be a number from 0 to 1, got '1.5'"
    assert message(spec_number, "-0.1", 0.0, 1.0) == "must be a number from 0 to 1, got '-0.1'"
    assert message(spec_number, "inf") == "must be a number >= -inf, got 'inf'"
    assert spec_count("1") == 1 and spec_count("10000000") == 10_000_000 and spec_count("5", 5, 5) == 5
    assert message(spec_count, "0") == "must be a whole number from 1 to 10,000,000, got '0'"
    assert message(spec_count, "10000001") == "must be a whole number from 1 to 10,000,000, got '10000001'"
    assert message(spec_count, "1.5") == "must be a whole number from 1 to 10,000,000, got '1.5'"
    assert message(spec_count, "4", 5, 6) == "must be a whole number from 5 to 6, got '4'"
    assert message(spec_count, "7", 5, 6) == "must be a whole number from 5 to 6, got '7'"
    assert spec_count("0" * 17 + "1") == 1
    assert message(spec_count, "0" * 18 + "1") == f"must be a whole number from 1 to 10,000,000, got '{'0' * 18}1'"


def test_uct_specs_exact_messages_and_bounds():
    assert parse_agent("uct:1").iterations == 1 and parse_agent("uct:10000000").iterations == 10_000_000
    assert parse_agent("uct:" + "0" * 17 + "5").iterations == 5
    assert parse_agent("uct").c == 1.4 and parse_agent("uct:7").c == 1.4 and parse_agent("uct:c=0.5").iterations == 1000
    expected = "agent {}: expected 'uct', 'uct:N', 'uct:N:c=C' or 'uct:c=C' (N iterations)"
    for spec in ("uct:", "uct:5:c=1:x", "uct:c=1:5"):
        assert message(parse_agent, spec) == expected.format(repr(spec))
    iterations = "agent {}: the iterations after 'uct:' must be a whole number from 1 to 10000000, like 'uct:2000', got {}"
    for spec, count in (("uct:0", "'0'"), ("uct:10000001", "'10000001'"), ("uct:" + "0" * 18 + "5", repr("0" * 18 + "5")),
                        ("uct:x:c=1", "'x'")):
        assert message(parse_agent, spec) == iterations.format(repr(spec), count)
    assert message(parse_agent, "uct:c=tuned") == (
        "agent 'uct:c=tuned': c=tuned depends on the game and board, which are not known here "
        "(give parse_agent a start state, start=...)")
    tuned = parse_agent("uct:50:c=tuned", start=territory.Tabik(size=6))
    assert (tuned.iterations, tuned.c) == (50, 0.7)


def test_agent_specs_exact_messages():
    grammar = agents.SPEC_GRAMMAR
    assert grammar.startswith("'random', 'uct[:N][:c=C]' (N iterations, default 1000; C a number >= 0 or 'tuned'), ")
    for spec in ("random:1", "foo", "puct", "", "best!"):
        assert message(parse_agent, spec) == f"unknown agent spec {spec!r}: expected {grammar}"
    assert message(parse_agent, 42) == (
        "an agent must be a spec string like 'uct:2000' or 'random', or an object with choose(state), got 42")
    assert message(parse_agent, len, factories=False).endswith("or an object with choose(state), got <built-in function len>")
    assert message(parse_agent, 42, factories=True) == (
        "an agent must be a spec string like 'uct:2000' or 'random', or an object with choose(state), "
        "or a factory f(seed) -> agent, got 42")
    assert parse_agent(len, factories=True) is len
    agent = RandomAgent()
    assert parse_agent(agent) is agent and type(parse_agent(" RANDOM ")) is RandomAgent
    assert type(parse_agent("uct")) is Uct and parse_agent("uct").iterations == 1000
    budget = "agent {}: the budget after 'best:' must be a whole number from 1 to 10000000, got {}"
    for spec, arg in (("best:0", "'0'"), ("best:10000001", "'10000001'"), ("best:", "''"), ("best:x", "'x'"),
                      ("best:" + "0" * 18 + "1", repr("0" * 18 + "1"))):
        assert message(parse_agent, spec, start=territory.Tabik(size=5)) == budget.format(repr(spec), arg)
    assert message(parse_agent, "best") == (
        "agent 'best': 'best' depends on the game and board, which are not known here "
        "(give parse_agent a start state, start=...)")
    best = parse_agent("best:10000000", start=territory.Tabik(size=5))
    assert type(best) is Uct and best.iterations == 10_000_000 and best.c == 0.5
    one = parse_agent("best:" + "0" * 17 + "1", start=territory.Tabik(size=5))
    assert one.iterations == 1
    default = parse_agent("best", start=territory.Tabik(size=5))
    assert default.iterations == agents.BEST_ITERATIONS == 1000 and agents.BEST_SIMULATIONS == 400
    # A message from below without the "agent" prefix gets one.
    assert message(parse_agent, "puct:no-such-model.npz").startswith("agent 'puct:no-such-model.npz': ")


# ---------------------------------------------------------------- results


def test_elo_at_its_limits():
    assert math.isnan(_elo(math.nan))
    assert _elo(1e-12) == -math.inf and _elo(1 - 1e-12) == math.inf
    assert math.isfinite(_elo(2e-12)) and math.isfinite(_elo(1 - 2e-12))
    assert _elo(0.9) == pytest.approx(400 * math.log10(9))


def test_match_results_summary_and_repr():
    r = MatchResults("tabik", {}, 0, 4, agents=("uct", "random"), agent_wins=(3, 0, 1))
    s = r.summary()
    assert s["agents"] == ["uct", "random"] and s["agent_wins"] == [3, 0, 1]
    assert s["agent0_win_rate"] == 0.875 and s["agent1_win_rate"] == 0.125
    text = repr(r)
    low, high = s["agent0_win_rate_ci95"]
    assert f"agent 0 uct wins 0.8750 (95% CI {low:.4f} .. {high:.4f}); agent 1 random wins 0.1250" in text
    assert text.endswith("; 1 draws") or "; 1 draws" in text
    empty = MatchResults("tabik", {}, 0, 0).summary()
    assert math.isnan(empty["agent0_win_rate"]) and math.isnan(empty["agent1_win_rate"])
    assert math.isnan(empty["elo_difference"])
    many = MatchResults("tabik", {}, 0, 3000, agents=("a", "b"), agent_wins=(1000, 1000, 1000))
    assert "; 1,000 draws" in repr(many)


# ---------------------------------------------------------------- matches: arguments


def test_start_states_and_their_refusals():
    state = start_state("tabik", {"size": 4})
    assert state.params["size"] == 4 and not state.history
    live = territory.Tabik(size=4)
    live.play(live.legal_moves()[0])
    copy = start_state(live, {})
    assert copy.history == live.history and copy is not live
    copy.play(copy.legal_moves()[0])
    assert len(live.history) == 1
    assert message(start_state, live, {"size": 4}) == "game parameters are only taken with a game name, not with a state"
    over = territory.Tabik(size=2)
    while not over.is_over:
        over.play(over.legal_moves()[0])
    assert message(start_state, over, {}) == "the start state's game is over"
    assert message(start_state, 3, {}) == f"game must be {territory.registry.game_names()} or a native state, got 3"


def test_match_games_ranges_and_play_match_refusals():
    assert message(match_games, "tabik", ["random", "random"], 0, 3, 2, size=3) == "need 0 <= first <= stop, got 3 and 2"
    assert message(match_games, "tabik", ["random", "random"], 0, -1, 2, size=3) == "need 0 <= first <= stop, got -1 and 2"
    part = match_games("tabik", ["random", "random"], 0, 2, 2, size=3)
    assert len(part["winner"]) == 0
    part = match_games("tabik", ["random", "random"], 0, 0, 3, size=3)
    assert len(part["winner"]) == 3
    assert message(play_match, "tabik", ["random"], 2) == "agents must be two agents, got 1"
    assert message(play_match, "tabik", ["random"] * 3, 2) == "agents must be two agents, got 3"
    assert message(play_match, "tabik", ["random"] * 2, 2, progress=3) == (
        "progress must be callable (done, total, seconds), got int")
    assert message(play_match, "tabik", ["random"] * 2, -1).startswith("games must be an int from 0 to")
    assert message(play_match, "tabik", ["random"] * 2, 1, seed=-1).startswith("seed must be an int from 0 to")
    assert message(play_match, "tabik", ["random"] * 2, 1, threads=0).startswith("threads must be an int from 1")


def test_concat_match_parts_shifts_the_offsets():
    a = match_games("tabik", ["random", "random"], 1, 0, 2, keep_actions=True, size=3)
    b = match_games("tabik", ["random", "random"], 1, 2, 5, keep_actions=True, size=3)
    whole = match_games("tabik", ["random", "random"], 1, 0, 5, keep_actions=True, size=3)
    merged = concat_match_parts([a, b])
    assert set(merged) == set(whole)
    for name in whole:
        assert np.array_equal(merged[name], whole[name]), name
    assert merged["offsets"][0] == 0 and merged["offsets"].dtype == np.uint64
    plain = concat_match_parts([match_games("tabik", ["random", "random"], 1, 0, 2, size=3)])
    assert "offsets" not in plain and "actions" not in plain


def test_play_match_without_games_kept_and_without_actions():
    r = play_match("tabik", ["random", "random"], 6, seed=3, size=3, keep_games=False)
    assert r.winner is None and r.actions is None and sum(r.agent_wins) == 6
    kept = play_match("tabik", ["random", "random"], 6, seed=3, size=3, keep_actions=False)
    assert kept.actions is None and len(kept.winner) == 6 and kept.agent_wins == r.agent_wins
    full = play_match("tabik", ["random", "random"], 6, seed=3, size=3)
    assert [len(a) for a in full.actions] == list(full.length) and full.agent_wins == r.agent_wins
    assert full.agents == ("RandomAgent()", "RandomAgent()") and full.seconds >= 0


def test_play_match_bounds_are_exact():
    assert message(play_match, "tabik", ["random"] * 2, 2**62 + 1, size=2) == (
        "games must be an int from 0 to 4611686018427387904, got 4611686018427387905")
    assert message(play_match, "tabik", ["random"] * 2, 1, seed=2**64, size=2) == (
        "seed must be an int from 0 to 18446744073709551615, got 18446744073709551616")
    top = play_match("tabik", ["random", "random"], 2, seed=2**64 - 1, size=2)
    assert top.seed == 2**64 - 1 and len(top.winner) == 2


def test_play_match_records_what_it_played_and_its_default_seed():
    r = play_match("tabik", ["random", "uct:2"], 3, size=2)
    assert (r.game, r.params, r.seed, r.games) == ("tabik", {"size": 2, "pie": True}, 0, 3)
    assert r.agents == ("RandomAgent()", "Uct(iterations=2, c=1.4, seed=0, threads=1)")
    assert 0 <= r.seconds < 60
    again = play_match("tabik", ["random", "uct:2"], 3, seed=0, size=2)
    assert np.array_equal(r.winner, again.winner) and np.array_equal(r.scores, again.scores)
    assert r.agent_wins == tuple(int((r.agent_winner == k).sum()) for k in (0, 1, -1))


def test_play_match_of_no_games_keeps_empty_arrays_of_each_kind():
    r = play_match("tabik", ["random", "random"], 0, size=2)
    assert r.agent_wins == (0, 0, 0) and r.actions == []
    for name in agents.MATCH_FIELDS:
        assert len(getattr(r, name)) == 0, name
    assert r.winner.dtype == np.int8 and r.scores.shape == (0, 2) and r.seats_swapped.dtype == np.bool_


def test_play_match_counts_draws_apart():
    r = play_match("nume", ["random", "random"], 100, seed=1, n=2, komi=None)
    draws = int((r.agent_winner == -1).sum())
    assert draws > 0 and r.agent_wins[2] == draws and sum(r.agent_wins) == 100


def test_play_match_refuses_a_model_trained_for_another_board():
    assert message(play_match, "tabik", ["puct:tabik-4:4", "random"], 2, size=3).startswith(
        "the model was trained for tabik (size=4")


def test_play_match_refuses_results_larger_than_the_memory_available(monkeypatch):
    from territory import _checks
    monkeypatch.setattr(_checks, "available_memory", lambda: 1000)
    needed = 10 * (agents.BYTES_PER_MATCH_GAME + agents.BYTES_PER_ACTIONS)
    assert needed > 1000 and 10 * agents.BYTES_PER_MATCH_GAME < 1000
    assert message(play_match, "tabik", ["random"] * 2, 10, size=2) == (
        f"keeping the results of 10 games needs about {needed:,} bytes, more than the 1,000 bytes of memory available: "
        "pass keep_games=False to keep only the counts behind summary() (flat memory)")
    assert len(play_match("tabik", ["random"] * 2, 10, size=2, keep_actions=False).winner) == 10
    monkeypatch.setattr(_checks, "available_memory", lambda: 10 * agents.BYTES_PER_MATCH_GAME - 1)
    assert message(play_match, "tabik", ["random"] * 2, 10, size=2, keep_actions=False).startswith(
        f"keeping the results of 10 games needs about {10 * agents.BYTES_PER_MATCH_GAME:,} bytes")
    assert play_match("tabik", ["random"] * 2, 10, size=2, keep_games=False).agent_wins is not None


def test_play_match_reports_progress_in_growing_batches_up_to_a_bound():
    steps = []
    play_match("tabik", ["random", "random"], 300_000, seed=2, size=2, keep_games=False,
               progress=lambda done, total, seconds: steps.append((done, total, seconds)))
    done = [d for d, _, _ in steps]
    assert done[0] == 2 and done[-1] == 300_000 and all(t == 300_000 for _, t, _ in steps)
    sizes = np.diff([0, *done])
    assert sizes.max() <= 1 << 16 and (sizes[:-1] >= 2).all()
    assert all(0 <= s < 60 for _, _, s in steps)


def test_play_match_on_an_executor_gives_the_local_results_in_bounded_shards():
    from concurrent.futures import ThreadPoolExecutor

    def shards(agent_specs, games, **kwargs):
        done = []
        with ThreadPoolExecutor(1) as pool:
            r = play_match("tabik", agent_specs, games, seed=5, size=2, executor=pool,
                           progress=lambda d, t, s: done.append(d), **kwargs)
        return r, done

    local = play_match("tabik", ["random", "random"], 520, seed=5, size=2)
    r, done = shards(["random", "random"], 520)
    assert len(done) == 8 and done[-1] == 520  # 520 / (1 slot * 8 shards per slot) = 65 games a shard
    assert np.array_equal(r.winner, local.winner) and r.agent_wins == local.agent_wins
    assert [list(a) for a in r.actions] == [list(a) for a in local.actions]
    assert len(shards(["random", "random"], 520, shard_size=100)[1]) == 6
    _, done = shards(["random", "uct:2"], 520, keep_games=False)
    assert len(done) == 9 and done[-1] == 520  # at most 64 games a shard for a searching agent


def test_spec_options_split_each_option_at_its_first_equals_sign():
    assert message(parse_agent, "uct:100:c=1=2") == "agent 'uct:100:c=1=2': c=1=2: not a number: '1=2'"


def test_the_best_agent_needs_a_model_trained_on_these_very_parameters():
    assert repr(best_agent(territory.Tabik(size=4))) == (
        "Puct('tabik-4', iterations=400, c_puct=3.0, rollout_weight=0.5, expansion_visits=16)")
    other = best_agent(territory.Tabik(size=4, pie=False))  # trained with the pie
    assert type(other) is Uct and other.c == tuned_uct_c(territory.Tabik(size=4, pie=False))
    komi = territory.Nume(n=3, komi=1.5)  # nume-3 fits this board (it could play it), but was trained at komi 0.5
    assert territory.model.Model.load("nume-3").fits(komi) and type(best_agent(komi)) is Uct


def test_match_games_parses_specs_that_need_the_game():
    part = match_games("tabik", ["best:4", "uct:2:c=tuned"], 0, 0, 2, size=2)
    assert len(part["winner"]) == 2


# ---------------------------------------------------------------- solver: arguments


def test_solver_memory_defaults(monkeypatch):
    monkeypatch.setattr(agents, "available_memory", lambda: None)
    assert agents.default_solve_memory() == 2**30
    monkeypatch.setattr(agents, "available_memory", lambda: 2**20)
    assert agents.default_solve_memory() == agents.MIN_SOLVE_MEMORY == 2**20
    monkeypatch.setattr(agents, "available_memory", lambda: 6 * 2**30 + 2)
    assert agents.default_solve_memory() == 3 * 2**30 + 1
    assert agents.machine_memory() == agents.os.sysconf("SC_PAGE_SIZE") * agents.os.sysconf("SC_PHYS_PAGES")

    def no(name):
        raise ValueError(name)

    monkeypatch.setattr(agents.os, "sysconf", no)
    assert agents.machine_memory() == 2**62


def test_solve_argument_messages():
    state = territory.Tabik(size=2)
    assert message(solve, state, 0) == "max_nodes must be an int from 1 to 9223372036854775808, got 0"
    assert message(solve, state, memory=2**20 - 1) == (
        "memory must be an int from 1048576 to 4611686018427387904, got 1048575")
    more = agents.machine_memory() + 1
    assert message(solve, state, memory=more) == (
        f"memory {more:,} bytes is more than this machine has ({agents.machine_memory():,} bytes)")
    for limit in (0, -1, 1e12, True, "5"):
        assert message(solve, state, time_limit=limit) == (
            f"time_limit must be a number of seconds > 0, or None for no limit, got {limit!r}")
    assert message(solve, state, progress=5) == "progress must be callable, got int"
    assert message(solve, state, stop=5) == "stop must be a territory.Stop or None, got int"
    names = ", ".join(f"territory.{cls.__name__}" for cls in territory.GAMES.values())
    assert message(solve, "x") == f"solve needs a native game state ({names}), got str"
    assert message(solve, state, order_depth=-1) == "order_depth must be an int from 0 to 10000, got -1"
    assert message(solve, state, order_depth=10_001) == "order_depth must be an int from 0 to 10000, got 10001"
    assert message(solve, state, order=3) == "order must be a Model, a Puct, a shipped model's name or a file, got int"
    solution = solve(state, 10**6, memory=2**20, time_limit=100.0, order_depth=10_000)
    assert solution == solve(state) and solution.value in (-1, 0, 1) and solution.nodes > 0
    assert set(solution.best_moves) <= set(solution.move_values)
    assert all(solution.move_values[m] == solution.value for m in solution.best_moves)


# ---------------------------------------------------------------- second batch


def test_a_progress_function_is_taken_and_the_value_kept():
    state = territory.Tabik(size=4)
    seen = []
    found = Uct(2000).analyse(state, progress=lambda *report: seen.append(report))
    assert isinstance(found.value, float) and -1 <= found.value <= 1 and sum(found.visits) == 2000
    assert Uct(2000).choose(state, progress=lambda *report: None) in state.legal_moves()


def test_which_agents_are_deterministic():
    from territory import Puct

    assert not agents._is_deterministic(Uct()) and not agents._is_deterministic(RandomAgent())
    quiet = dict(rollout_weight=0, expansion_visits=1)  # tabik-4 plays with 0.5 and 16
    assert agents._is_deterministic(Puct("tabik-4", 2, **quiet))
    assert not agents._is_deterministic(Puct("tabik-4", 2, **quiet, noise_fraction=0.25))
    assert not agents._is_deterministic(Puct("tabik-4", 2, **{**quiet, "rollout_weight": 0.5}))
    assert not agents._is_deterministic(Puct("tabik-4", 2, **{**quiet, "expansion_visits": 2}))
    assert not agents._is_deterministic(Puct("tabik-4", 2))
    pair = [Puct("tabik-4", 2, **quiet), Puct("tabik-4", 2, **quiet)]
    assert message(play_match, "tabik", pair, 3, size=4) == (
        "both agents are deterministic (Puct without noise), so the 3 games would be copies of 2: give a Puct "
        "noise_fraction > 0 (territory.Puct(..., noise_fraction=0.25)), or play from random openings "
        "(territory.train.match_from_openings)")
    assert message(play_match, "tabik", pair, 2, size=4, swap_seats=False).startswith(
        "both agents are deterministic (Puct without noise), so the 2 games would be copies of 1: ")
    assert len(play_match("tabik", pair, 2, size=4).winner) == 2
    assert len(play_match("tabik", [pair[0], "random"], 3, size=4).winner) == 3


def test_the_elo_interval_of_a_summary():
    s = MatchResults("tabik", {}, 0, 8, agents=("a", "b"), agent_wins=(5, 2, 1)).summary()
    assert s["elo_ci95"] == pytest.approx((-103.1599, 377.0980), abs=1e-4)


def test_match_games_swaps_seats_by_default():
    part = match_games("tabik", ["random", "random"], 0, 0, 3, size=3)
    assert list(part["seats_swapped"]) == [False, True, False]
    fixed = match_games("tabik", ["random", "random"], 0, 0, 3, False, size=3)
    assert not fixed["seats_swapped"].any()


def tabik_4_after_four_moves():
    state = territory.Tabik(size=4)
    for move in ("c3-b3", "swap", "b2-c2", "d4-c4"):
        state.play(move)
    return state


def test_solve_orders_by_the_network_to_the_depth_asked_and_bounds_its_table(monkeypatch):
    from territory.model import MODELS_DIR, Model
    from territory.puct import Puct

    state = tabik_4_after_four_moves()
    plain = solve(state)
    assert (plain.value, plain.nodes, plain.table_bytes) == (1, 398_668, 4 * 2**20)
    ordered = solve(state, order="tabik-4")
    assert ordered.value == 1 and ordered.best_moves == plain.best_moves and ordered.move_values == plain.move_values
    assert ordered.nodes == 414_224 and ordered.table_bytes == 4 * 2**20
    for order in (Model.load("tabik-4"), Puct("tabik-4", 2), str(MODELS_DIR / "tabik-4.npz")):
        assert solve(state, order=order) == ordered
    assert solve(state, order="tabik-4", order_depth=6) == ordered
    assert solve(state, order="tabik-4", order_depth=7).nodes == 419_670
    assert solve(state, order="tabik-4", order_depth=0).nodes == plain.nodes
    assert message(solve, territory.Tabik(size=3), order="tabik-4").startswith("the model was trained for tabik (size=4")
    small = solve(state, memory=2**20)
    assert (small.value, small.nodes, small.table_bytes) == (1, 635_494, 2**20)
    monkeypatch.setattr(agents, "default_solve_memory", lambda: 2**20)
    assert solve(state) == small


def test_solve_passes_its_limits_progress_and_stop_to_the_engine():
    big = territory.Tabik(size=6)
    seen = []
    with pytest.raises(territory.TimeLimitError):
        solve(big, time_limit=1.3, progress=lambda *args: seen.append(args))
    assert seen and all(len(call) == 3 for call in seen)
    assert solve(territory.Tabik(size=2), time_limit=0.5).nodes > 0
    with pytest.raises(territory.NodeLimitError):
        solve(big, 1000)
    stop = Stop()
    stop.set()
    with pytest.raises(territory.StoppedError):
        solve(big, stop=stop)


def test_solve_takes_all_the_machines_memory():
    assert solve(territory.Tabik(size=2), memory=agents.machine_memory()).nodes > 0


def test_match_moves_are_drawn_from_the_games_generator():
    import random

    from territory._seeds import mix

    state = territory.Tabik(size=4)
    moves = state.legal_moves()
    for seed in range(3):
        u = random.Random(seed).random()
        assert RandomAgent(9)._match_move(state, random.Random(seed)) == moves[int(u * len(moves))]
        drawn = random.Random(seed).getrandbits(64)
        assert Uct(64, seed=5)._match_move(state, random.Random(seed)) == Uct(64).analyse(state, seed=mix(5, drawn)).best
        rng, expected = random.Random(seed), random.Random(seed)
        Uct(4)._match_move(state, rng)
        expected.getrandbits(64)
        assert rng.random() == expected.random()  # one 64-bit draw a move, no more
    # In a match played in Python (an agent with choose only), each game the same from its seed.
    class First:
        def choose(self, s):
            return s.legal_moves()[0]

    a = play_match("tabik", [First(), Uct(16)], 2, seed=1, size=3)
    b = play_match("tabik", [First(), Uct(16)], 2, seed=1, size=3)
    assert [list(x) for x in a.actions] == [list(x) for x in b.actions]


def test_match_shard_is_match_games_with_the_range_last():
    pair = [RandomAgent(), Uct(8)]
    start = territory.Tabik(size=3)
    for swap in (True, False):
        shard = agents.match_shard(start, pair, 4, swap, 1, True, 1, 4)
        whole = match_games(start, pair, 4, 1, 4, swap, 1, True)
        assert set(shard) == set(whole) and "actions" in shard
        for name in whole:
            assert np.array_equal(shard[name], whole[name]), name
    plain = agents.match_shard(start, pair, 4, True, None, False, 0, 2)
    assert "actions" not in plain and len(plain["winner"]) == 2
