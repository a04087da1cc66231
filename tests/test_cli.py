"""The territory command, run end to end as a subprocess."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import territory
from interrupting import PROMPT, interrupt
from territory import cli


def assert_one_line_error(result: subprocess.CompletedProcess) -> None:
    """Exit 2, no traceback, and the problem on the last line of stderr."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("territory")


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
    [data] = json.loads(path.read_text())
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
    assert str(earlier) in run("show", str(path), "--moves", str(len(state.history) - 3)).stdout
    svg = tmp_path / "out.svg"
    run("show", str(path), "--svg", str(svg))
    assert svg.read_text().lstrip().startswith("<svg")


def test_show_reports_a_corrupt_record(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("game = tabik\nsize = 3\nmoves:\n1. a1-b1\n2. a1-a2\n")
    result = run("show", str(path), check=False)
    assert result.returncode == 2
    assert "line 5" in result.stderr and "occupied" in result.stderr
    assert_one_line_error(result)


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
        (["simulate", "tabik", "--threads", "5000"], "--threads"),
        (["simulate", "tabik", "--seed", "-1"], "--seed"),
        (["simulate", "tabik", "--seed", str(2**64)], "--seed"),
        (["simulate", "tabik", "--games", "9" * 5000], "--games"),
        (["replay", "tabik", "--index", "99999999999999999999999"], "--index"),
        (["replay", "tabik", "--index", "-1"], "--index"),
        (["replay", "nume", "--index", "0", "--square", "99"], "--square"),
        (["show", "/nonexistent/record.txt", "--moves", "-2"], "--moves"),
    ],
)
def test_bad_arguments_exit_2_naming_the_problem(args, message):
    result = run(*args, check=False)
    assert_one_line_error(result)
    assert message in result.stderr.strip().splitlines()[-1]


def test_console_script_is_installed():
    result = subprocess.run(["territory", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "simulate" in result.stdout


def test_ctrl_c_stops_a_long_run_promptly():
    ended = interrupt([sys.executable, "-m", "territory", "simulate", "migong", "--games", "1000000000", "--progress"],
                      after=2.0)
    assert ended.returncode == 130 and ended.seconds < PROMPT
    assert "interrupted" in ended.stderr and "games/s" in ended.stderr and "Traceback" not in ended.stderr


# --- versions -----------------------------------------------------------------------------


def test_version_comes_from_one_place():
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", territory.__version__)
    assert run("--version").stdout.strip() == f"territory {territory.__version__}"
    assert importlib.metadata.version("territory-games") == territory.__version__
    cargo = Path(__file__).resolve().parents[1] / "Cargo.toml"
    if cargo.exists():  # the repository or the sdist: the workspace version is the one
        assert f'version = "{territory.__version__}"' in cargo.read_text()


# --- output files -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "tabik", "--json", "{missing}/x.json"], "does not exist"),
        (["simulate", "tabik", "--json", "{file}/x.json"], "does not exist"),
        (["simulate", "tabik", "--json", "{dir}"], "is a directory"),
        (["replay", "tabik", "--index", "0", "--record", "{missing}/game.txt"], "does not exist"),
        (["show", "{record}", "--svg", "{missing}/out.svg"], "does not exist"),
        (["show", "{record}", "--svg", "{dir}"], "is a directory"),
    ],
)
def test_output_paths_are_checked_before_any_work(tmp_path, args, message):
    record = tmp_path / "game.txt"
    record.write_text(territory.Tabik(size=3).to_record())
    (tmp_path / "file").write_text("x")
    names = {"missing": str(tmp_path / "missing"), "file": str(tmp_path / "file"), "dir": str(tmp_path), "record": str(record)}
    args = [arg.format(**names) for arg in args]
    if args[0] == "simulate":
        args += ["--games", str(10**12)]  # hours of work if the check came after it
    began = time.monotonic()
    result = run(*args, check=False)
    assert time.monotonic() - began < 30
    assert_one_line_error(result)
    option = next(arg for arg in args if arg in ("--json", "--record", "--svg"))
    assert option in result.stderr and message in result.stderr


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc, where no file can be created")
def test_an_unwritable_directory_is_reported():
    result = run("simulate", "tabik", "--games", str(10**12), "--json", "/proc/territory-summary.json", check=False)
    assert_one_line_error(result)
    assert "cannot write in '/proc'" in result.stderr


def test_json_is_always_a_list_with_a_format_version(tmp_path):
    one, every = tmp_path / "one.json", tmp_path / "all.json"
    run("simulate", "tabik", "--games", "20", "--size", "3", "--json", str(one))
    run("simulate", "all", "--games", "5", "--json", str(every))
    single, several = json.loads(one.read_text()), json.loads(every.read_text())
    assert isinstance(single, list) and [entry["game"] for entry in single] == ["tabik"]
    assert [entry["game"] for entry in several] == ["migong", "nume", "tabik"]
    assert all(entry["format"] == cli.JSON_FORMAT for entry in single + several)
    assert single[0]["games"] == 20 and single[0]["params"] == {"size": 3, "pie": True}


def reject_nan(name: str) -> None:
    raise AssertionError(f"{name} is not JSON")


def test_json_dash_is_stdout_and_has_no_nan():
    result = run("simulate", "nume", "--games", "3", "--json", "-")
    data = json.loads(result.stdout, parse_constant=reject_nan)  # stdout holds only the JSON
    assert data[0]["games"] == 3
    assert "3 random games" in result.stderr  # the human summary moved to stderr
    assert not Path("-").exists()


def test_json_safe_turns_nan_into_null_and_infinities_into_strings():
    entry = {"a": float("nan"), "b": (1.5, float("inf")), "c": {"d": -float("inf"), "e": 2}}
    assert json.loads(cli.json_text([entry])) == [{"format": cli.JSON_FORMAT, "a": None, "b": [1.5, "inf"], "c": {"d": "-inf", "e": 2}}]


# --- replay and show ----------------------------------------------------------------------


def test_replay_seed_defaults_to_0_like_simulate():
    plain = run("replay", "tabik", "--index", "3", "--size", "4").stdout
    assert plain == run("replay", "tabik", "--index", "3", "--size", "4", "--seed", "0").stdout
    assert str(territory.replay_playout("tabik", 0, 3, size=4)) in plain


def test_record_dash_writes_the_record_to_stdout():
    result = run("replay", "nume", "--index", "2", "--n", "2", "--record", "-")
    assert territory.load(result.stdout) == territory.replay_playout("nume", 0, 2, n=2)
    assert "moves" in result.stderr


def test_show_moves_counts_moves_and_the_old_name_still_works(tmp_path):
    state = territory.replay_playout("tabik", 1, 1, size=4)
    path = tmp_path / "game.txt"
    path.write_text(state.to_record())
    first = territory.Tabik(size=4)
    for move in state.history[:2]:
        first.play(move)
    assert str(first) in run("show", str(path), "--moves", "2").stdout
    assert str(first) in run("show", str(path), "--move", "2").stdout
    too_many = run("show", str(path), "--moves", str(len(state.history) + 1), check=False)
    assert_one_line_error(too_many)
    assert f"from 0 to {len(state.history)}" in too_many.stderr


def test_show_svg_dash_writes_the_picture_to_stdout(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(territory.Tabik(size=3).to_record())
    assert run("show", str(path), "--svg", "-").stdout.lstrip().startswith("<svg")


def test_show_rejects_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "binary.txt"
    path.write_bytes(b"game = tabik\n\xff\xfe moves:\n")
    result = run("show", str(path), check=False)
    assert_one_line_error(result)
    assert "not a UTF-8 text file" in result.stderr and str(path) in result.stderr


def test_show_rejects_a_move_number_too_long_for_int(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("game = tabik\nsize = 3\nmoves:\n" + "9" * 5000 + ". a1-b1\n")
    result = run("show", str(path), check=False)
    assert_one_line_error(result)
    assert "line 4" in result.stderr and "move number" in result.stderr and "5000 characters" in result.stderr
    assert len(result.stderr) < 300


def test_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(territory.replay_playout("tabik", 0, 0).to_record())
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        result = subprocess.run(
            [sys.executable, "-m", "territory", "show", str(path), "--moves", "10"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
        )
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == 141


# --- help ---------------------------------------------------------------------------------


def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_subcommand_and_argument_is_described_with_an_example():
    commands = subcommands()
    assert {"simulate", "replay", "show"} <= set(commands)
    for name, parser in commands.items():
        assert parser.description, name
        assert f"territory {name}" in (parser.epilog or ""), f"{name}: no example"
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            assert action.help and action.help.strip(), f"{name}: {action.option_strings or action.dest} undescribed"


@pytest.mark.parametrize("command", ["simulate", "replay", "show"])
def test_help_shows_the_examples(command):
    out = run(command, "--help").stdout
    assert "examples:" in out and f"\n  territory {command} " in out


def test_game_options_come_from_the_game_classes():
    options = {a.dest: a for a in subcommands()["simulate"]._actions if a.dest.startswith("param_")}
    expected = {name for cls in (territory.Tabik, territory.Migong, territory.Nume) for name in cls().params}
    assert {dest[len("param_"):] for dest in options} == expected
    assert "default 8" in options["param_size"].help and "default 0.5" in options["param_komi"].help


def test_game_option_values_are_read_like_record_values():
    out = run("simulate", "nume", "--games", "10", "--square", "4", "--komi", "none", "--komi-phase").stdout
    assert "square=4" in out and "komi=None" in out and "komi_phase=True" in out
    assert "pie=False" in run("simulate", "tabik", "--games", "10", "--size", "3", "--no-pie").stdout
