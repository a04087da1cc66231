"""Agent spec strings with options (docs/search.md, "Agent specs"): ``uct:N:c=C``,
``puct:MODEL:N:c=C,rollout=R,expand=K,noise=F,temp=T``, ``c=tuned`` and ``best``."""

from __future__ import annotations

import subprocess
import sys

import pytest

import territory
from territory import Puct, RandomAgent, Uct, parse_agent
from territory.agents import best_agent, tuned_uct_c
from territory.games import migong, nume, tabik
from territory.model import Model, shipped_models

TABIK6 = territory.Tabik(size=6)


# ---------------------------------------------------------------- uct


@pytest.mark.parametrize("spec, iterations, c", [
    ("uct", 1000, 1.4),
    ("uct:200", 200, 1.4),
    ("uct:200:c=0.7", 200, 0.7),
    ("UCT:200:C=0.7", 200, 0.7),
    (" uct:c=2 ", 1000, 2.0),
    ("uct:50:c=0", 50, 0.0),
    ("uct:50: c = 1e-1 ", 50, 0.1),
])
def test_uct_specs(spec, iterations, c):
    agent = parse_agent(spec)
    assert type(agent) is Uct and (agent.iterations, agent.c) == (iterations, c)


@pytest.mark.parametrize("spec, message", [
    ("uct:", "expected 'uct'"),
    ("uct:0", "whole number from 1"),
    ("uct:-5", "got '-5'"),
    ("uct:x", "got 'x'"),
    ("uct:100:c=-1", "c=-1: must be a number >= 0, got '-1'"),
    ("uct:100:c=abc", "c=abc: not a number: 'abc'"),
    ("uct:100:c=nan", "c=nan"),
    ("uct:100:c=inf", "c=inf"),
    ("uct:100:k=3", "unknown option 'k'; the options are c"),
    ("uct:100:c=1,c=2", "option 'c' given twice"),
    ("uct:100:c", "options are key=value"),
    ("uct:100:c=", "got 'c='"),
    ("uct:100:c=1,", "options are key=value"),
    ("uct:100:c=1:7", "expected 'uct'"),
    ("uct:c=1:100", "expected 'uct'"),
])
def test_bad_uct_specs_say_what_was_typed(spec, message):
    with pytest.raises(ValueError, match="agent") as error:
        parse_agent(spec)
    assert message in str(error.value)


def test_uct_spec_round_trips():
    for agent in (Uct(300), Uct(300, c=0.7), Uct(5, c=0.1 + 0.2), Uct(7, c=0)):
        again = parse_agent(agent.spec())
        assert again._spec() == agent._spec()
    assert Uct(300).spec() == "uct:300" and Uct(300, c=0.7).spec() == "uct:300:c=0.7"
    assert parse_agent(RandomAgent().spec())._spec() == RandomAgent()._spec()


# ---------------------------------------------------------------- tuned c and best


def test_tuned_c_needs_the_board():
    with pytest.raises(ValueError, match="c=tuned depends on the game and board"):
        parse_agent("uct:100:c=tuned")
    with pytest.raises(ValueError, match="'best' depends on the game and board"):
        parse_agent("best")
    for state in (territory.Tabik(), TABIK6, territory.Nume(), territory.Nume(n=3), territory.Migong()):
        assert parse_agent("uct:100:c=tuned", start=state).c == tuned_uct_c(state)
    assert tuned_uct_c(TABIK6) == tabik.TUNED_UCT_C[6]
    assert tuned_uct_c(territory.Tabik(size=5)) == tabik.TUNED_UCT_C[8]  # not swept: the default board's
    assert tuned_uct_c(territory.Nume(n=4)) == nume.TUNED_UCT_C[4]


def test_tuned_c_in_a_match_and_an_analysis():
    """play_match and the analyses resolve c=tuned and best from their own game."""
    r = territory.play_match("tabik", ["uct:30:c=tuned", "best:30"], 2, seed=1, size=5)
    assert r.agents[0] == f"Uct(iterations=30, c={tabik.TUNED_UCT_C[8]}, seed=0, threads=1)"
    e = territory.evaluate("tabik", "uct:20:c=tuned", 2, seed=1, size=4)
    assert e.games == 2


def test_best_is_the_shipped_model_for_its_board_else_tuned_uct():
    for name in shipped_models():
        meta = Model.load(name).meta
        agent = best_agent(territory.new_game(meta["game"], **meta["params"]))
        if meta.get("best", True):
            assert type(agent) is Puct and agent.source == name and agent.iterations == 400
        else:  # shipped for its analysis, measured weaker than the tuned UCT (docs/strength.md)
            assert type(agent) is Uct and agent.c == tuned_uct_c(territory.Tabik())
    assert [n for n in shipped_models() if not Model.load(n).meta.get("best", True)] == ["tabik-8"]
    assert best_agent(territory.Nume()).source == "nume-4"
    assert best_agent(territory.Migong()).source == "migong"
    for state in (territory.Tabik(size=5), territory.Nume(n=2), territory.Tabik(size=6, pie=False)):
        agent = parse_agent("best:321", start=state)
        assert type(agent) is Uct and agent.iterations == 321 and agent.c == tuned_uct_c(state)
    assert parse_agent("best", start=TABIK6).source == "tabik-6"
    assert parse_agent("best:50", start=TABIK6).iterations == 50
    for bad in ("best:0", "best:x", "best:"):
        with pytest.raises(ValueError, match="budget after 'best:'"):
            parse_agent(bad, start=TABIK6)


# ---------------------------------------------------------------- puct


def test_puct_specs_with_options():
    agent = parse_agent("puct:tabik-6:80:c=2,rollout=0.5,expand=8,noise=0.1,temp=0.6")
    assert (agent.iterations, agent.c_puct, agent.rollout_weight, agent.expansion_visits, agent.noise_fraction,
            agent.policy_temperature) == (80, 2.0, 0.5, 8, 0.1, 0.6)
    plain = parse_agent("puct:tabik-6:80")
    partial = parse_agent("puct:tabik-6:80:c=3")
    assert partial.c_puct == 3.0 and (partial.rollout_weight, partial.expansion_visits) == (
        plain.rollout_weight, plain.expansion_visits)  # the others: the model's own
    default_count = parse_agent("puct:tabik-6:RoLLout=0.25")
    assert default_count.iterations == 400 and default_count.rollout_weight == 0.25


def test_puct_spec_options_with_a_model_file(tmp_path):
    path = tmp_path / "tiny.npz"
    Model.new(territory.Tabik(size=4), hidden=8).save(path)
    agent = parse_agent(f"puct:{path}:30:expand=2")
    assert agent.iterations == 30 and agent.expansion_visits == 2 and agent.source == str(path)
    odd = tmp_path / "a=b.npz"  # a file whose name has '=' is still a file
    Model.new(territory.Tabik(size=4), hidden=8).save(odd)
    assert parse_agent(f"puct:{odd}").source == str(odd)


@pytest.mark.parametrize("spec, message", [
    ("puct:tabik-6:80:c=-1", "c=-1: must be a number from 0 to 1e+06, got '-1'"),
    ("puct:tabik-6:80:rollout=1.5", "rollout=1.5: must be a number from 0 to 1, got '1.5'"),
    ("puct:tabik-6:80:expand=0", "expand=0: must be a whole number from 1 to 1,000,000, got '0'"),
    ("puct:tabik-6:80:expand=2.5", "expand=2.5"),
    ("puct:tabik-6:80:noise=x", "noise=x: not a number: 'x'"),
    ("puct:tabik-6:80:temp=0", "temp=0: must be a number from 0.01 to 100, got '0'"),
    ("puct:tabik-6:80:cpuct=2", "unknown option 'cpuct'; the options are c, rollout, expand, noise, temp"),
    ("puct:tabik-6:80:c=1,c=1", "given twice"),
    ("puct:tabik-6:0:c=1", "simulations after the model"),
    ("puct:missing:80:c=1", "no model file 'missing'"),
])
def test_bad_puct_specs_say_what_was_typed(spec, message):
    with pytest.raises(ValueError) as error:
        parse_agent(spec)
    assert message in str(error.value) and str(error.value).startswith(f"agent {spec!r}")


def test_puct_spec_round_trips(tmp_path):
    for spec in ("puct:tabik-6", "puct:tabik-6:80:c=2,rollout=0.5,expand=8,temp=0.5", "puct:nume-3:10:noise=0.25"):
        agent = parse_agent(spec)
        again = parse_agent(agent.spec())
        assert again._spec()[2:] == agent._spec()[2:] and again.source == agent.source
    with pytest.raises(ValueError, match="no spec string"):
        Puct(Model.load("tabik-4")).spec()


# ---------------------------------------------------------------- the command line


def test_match_command_takes_options_and_best():
    out = subprocess.run(
        [sys.executable, "-m", "territory", "match", "tabik", "--size", "5", "--agents", "uct:20:c=0.3", "best:20",
         "--games", "2", "--threads", "1"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "c=0.3" in out.stdout and f"c={tabik.TUNED_UCT_C[8]}" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "territory", "match", "tabik", "--agents", "uct:20:c=-2", "random", "--games", "2"],
        capture_output=True, text=True)
    assert bad.returncode == 2 and "--agents: agent 'uct:20:c=-2': c=-2: must be a number >= 0, got '-2'" in bad.stderr


def test_board_keys():
    from territory.agents import board_key

    assert board_key(territory.Tabik(size=5)) == ("tabik", 5)
    assert board_key(territory.Nume(n=3)) == ("nume", 3)
    assert board_key(territory.Nume(square=4)) == ("nume", "square 4")  # not the hex n=4
    assert board_key(territory.Migong()) == ("migong", None)
    assert tuned_uct_c(territory.Nume(square=4)) == nume.TUNED_UCT_C[4]  # not swept: the default board's
    assert tuned_uct_c(territory.Migong()) == migong.TUNED_UCT_C[None] != 1.4


def test_huge_specs_are_refused_briefly():
    for spec in ("uct:" + "9" * 5000, "uct:10:c=" + "1" * 5000, "best:" + "9" * 5000, "uct:10:" + "k" * 5000 + "=1",
                 "puct:tabik-6:" + "9" * 5000):
        with pytest.raises(ValueError) as error:
            parse_agent(spec, start=TABIK6)
        assert len(str(error.value)) < 600, str(error.value)[:200]
