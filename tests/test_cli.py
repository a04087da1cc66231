"""The territory command, run end to end as a subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

import territory


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "territory", *args], capture_output=True, text=True, timeout=120)
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.mark.parametrize("game, options", [("tabik", ["--size", "5"]), ("migong", ["--border", "blue"]), ("nume", ["--square", "4", "--komi", "2.5", "--komi-to", "white"])])
def test_simulate_prints_a_summary(game, options):
    out = run("simulate", game, "--games", "300", "--seed", "3", *options).stdout
    assert f"{game} (" in out and "300 random games" in out
    assert "seat 0 win rate" in out and "95% CI" in out
    assert "length" in out and "score 0" in out and "score 1" in out


def test_simulate_json_matches_the_python_summary(tmp_path):
    path = tmp_path / "out.json"
    run("simulate", "nume", "--games", "500", "--seed", "7", "--n", "2", "--threads", "1", "--json", str(path))
    data = json.loads(path.read_text())
    expected = territory.random_playouts("nume", 500, seed=7, n=2).summary()
    for key in ("games", "seat0_wins", "seat1_wins", "draws", "length", "scores", "params"):
        assert data[key] == json.loads(json.dumps(expected[key])), key


def test_simulate_all_runs_each_game():
    out = run("simulate", "all", "--games", "50").stdout
    assert all(f"{game} (" in out for game in ("migong", "nume", "tabik"))


def test_replay_prints_moves_and_diagram_and_writes_record(tmp_path):
    record = tmp_path / "game.txt"
    out = run("replay", "tabik", "--seed", "2", "--index", "5", "--size", "4", "--record", str(record)).stdout
    state = territory.replay_playout("tabik", 2, 5, size=4)
    assert f"{len(state.history)} actions" in out
    assert str(state) in out
    assert territory.load(record.read_text()) == state


def test_show_prints_and_draws(tmp_path):
    state = territory.replay_playout("nume", 1, 0, n=2)
    path = tmp_path / "nume.txt"
    path.write_text(state.to_record())
    assert str(state) in run("show", str(path)).stdout
    earlier = state.copy()
    for _ in range(3):
        earlier.undo()
    assert str(earlier) in run("show", str(path), "--move", str(len(state.history) - 3)).stdout
    svg = tmp_path / "out.svg"
    run("show", str(path), "--svg", str(svg))
    assert svg.read_text().lstrip().startswith("<svg")


def test_show_reports_a_corrupt_record(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("game = tabik\nsize = 3\nmoves:\n1. a1-b1\n2. a1-a2\n")
    result = run("show", str(path), check=False)
    assert result.returncode == 1
    assert "line 5" in result.stderr and "occupied" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "chess"], "invalid choice"),
        (["simulate", "tabik", "--games", "-5"], "--games"),
        (["simulate", "tabik", "--games", "many"], "--games"),
        (["simulate", "tabik", "--size", "1"], "size"),
        (["simulate", "migong", "--size", "8"], "--size does not apply to migong"),
        (["simulate", "nume", "--komi", "2.0"], "komi"),
        (["simulate", "nume", "--komi", "lots"], "--komi"),
        (["simulate", "migong", "--border", "purple"], "border"),
        (["simulate", "tabik", "--threads", "0"], "--threads"),
        (["simulate", "all", "--size", "5"], "single game"),
        (["replay", "tabik", "--seed", "1"], "--index"),
        (["show", "/nonexistent/record.txt"], "cannot read"),
        ([], "COMMAND"),
    ],
)
def test_bad_arguments_exit_2_naming_the_problem(args, message):
    result = run(*args, check=False)
    assert result.returncode == 2
    assert message in result.stderr


def test_console_script_is_installed():
    result = subprocess.run(["territory", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "simulate" in result.stdout


def test_ctrl_c_stops_a_long_run_promptly():
    process = subprocess.Popen(
        [sys.executable, "-m", "territory", "simulate", "migong", "--games", "1000000000", "--progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        time.sleep(2.0)
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        began = time.monotonic()
        _, err = process.communicate(timeout=20)
        assert time.monotonic() - began < 5
        assert process.returncode == 130
        assert "interrupted" in err and "games/s" in err
    finally:
        process.kill()
