"""The rules every subcommand shares (docs/command-line.md): one-line errors naming the
option as typed, --games at least 1 everywhere, optional packages checked before any
game, `show -` and PNG pictures, the JSON form of infinities and exact interval ends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import territory
from territory import cli
from territory.playouts import wilson_interval

REPO = Path(__file__).resolve().parent.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(*args: str, stdin: str | None = None, without: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """`territory ARGS` in a subprocess; ``without``: a module made unimportable first."""
    prelude = f"import sys; sys.modules[{without!r}] = None; " if without else "import sys; "
    code = prelude + "from territory.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def assert_one_line_error(result: subprocess.CompletedProcess, command: str, *needles: str) -> str:
    """Exit 2 and exactly one line on stderr, `territory COMMAND: error: ...`."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"territory {command}: error: "), lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


@pytest.mark.parametrize(
    "args, command, needle",
    [
        (["simulate", "tabik", "--games", "-5"], "simulate", "--games"),
        (["simulate", "tabik", "--threads", "0"], "simulate", "--threads"),
        (["simulate", "tabik", "--seed", "-1"], "simulate", "--seed"),
        (["match", "tabik", "--agents", "random", "random", "--seed", "-1"], "match", "--seed"),
        (["simulate", "tabik", "--bogus"], "simulate", "--bogus"),
        (["evaluate", "tabik", "--bogus", "3"], "evaluate", "--bogus"),
        (["solve", "tabik", "--size", "3", "--max-nodes", "5"], "solve", "--max-nodes"),
        (["komi", "--komi-min", "3.5", "--komi-max", "1.5"], "komi", "--komi-min"),
        (["komi", "--komi-min", "3", "--games", "1"], "komi", "--komi-min"),
        (["show", "x.txt", "--svg", "picture.gif"], "show", ".svg or .png"),
    ],
)
def test_every_error_is_one_line_naming_the_option(args, command, needle):
    line = assert_one_line_error(run(*args), command, needle)
    for python_name in ("komi_values", "max_nodes", "None for no limit"):
        assert python_name not in line


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "tabik"],
        ["match", "tabik", "--agents", "random", "random"],
        ["evaluate", "tabik"],
        ["komi"],
        ["openings", "tabik"],
    ],
)
def test_games_0_is_refused_by_every_command(args):
    assert_one_line_error(run(*args, "--games", "0"), args[0], "--games", "from 1")


@pytest.mark.parametrize("option, value", [("--komi", "None"), ("--komi", "none"), ("--square", "None"), ("--komi", "NONE")])
def test_none_is_accepted_as_the_help_shows_it(option, value):
    result = run("simulate", "nume", "--games", "3", option, value)
    assert result.returncode == 0, result.stderr
    assert f"{option[2:]}=None" in result.stdout


def test_plot_without_matplotlib_is_refused_before_any_game(tmp_path):
    # 10**12 games would run for days if the check came after them.
    result = run("evaluate", "tabik", "--games", str(10**12), "--plot", str(tmp_path / "x.png"), without="matplotlib", timeout=60)
    assert_one_line_error(result, "evaluate", "--plot", "territory-games[plot]")
    result = run("komi", "--games", str(10**12), "--plot", str(tmp_path / "k.svg"), without="matplotlib", timeout=60)
    assert_one_line_error(result, "komi", "--plot", "matplotlib")


def test_show_reads_standard_input():
    record = territory.replay_playout("tabik", 0, 3, size=4).to_record()
    result = run("show", "-", stdin=record)
    assert result.returncode == 0, result.stderr
    assert str(territory.load(record)) in result.stdout
    bad = run("show", "-", stdin="game = tabik\nmoves:\n1. zz\n")
    assert_one_line_error(bad, "show", "standard input", "line 3")


def test_show_writes_png_for_a_png_path_and_refuses_other_endings(tmp_path):
    pytest.importorskip("resvg_py", reason="the png extra (resvg-py) is not installed")
    record = tmp_path / "game.txt"
    record.write_text(territory.replay_playout("nume", 0, 1, square=4).to_record())
    png = tmp_path / "position.PNG"
    result = run("show", str(record), "--svg", str(png))
    assert result.returncode == 0, result.stderr
    assert png.read_bytes().startswith(PNG_MAGIC)
    svg = tmp_path / "position.svg"
    assert run("show", str(record), "--svg", str(svg)).returncode == 0
    assert svg.read_text().startswith("<svg")
    for name in ("position.gif", "position"):
        assert_one_line_error(run("show", str(record), "--svg", str(tmp_path / name)), "show", ".svg or .png")
        assert not (tmp_path / name).exists()


def test_show_png_without_the_extra_says_what_to_install(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(territory.Tabik(size=3).to_record())
    result = run("show", str(record), "--svg", str(tmp_path / "p.png"), without="resvg_py")
    assert_one_line_error(result, "show", "territory-games[png]")
    assert not (tmp_path / "p.png").exists()


def test_openings_help_says_which_games_are_sampled():
    text = " ".join(run("openings", "--help").stdout.split())
    assert "252" in text and "Migong" in text and "Nume" in text and "3,660" in text


def test_json_writes_infinities_as_strings_and_missing_values_as_null():
    entry = {"elo_difference": float("inf"), "elo_ci95": (-float("inf"), 12.5), "rate": float("nan")}
    [data] = json.loads(cli.json_text([entry]))
    assert data["elo_difference"] == "inf" and data["elo_ci95"] == ["-inf", 12.5] and data["rate"] is None
    assert float(data["elo_difference"]) == float("inf")


def test_a_clean_sweep_has_exact_interval_ends_and_infinite_elo_in_json(tmp_path):
    assert wilson_interval(0, 400)[0] == 0.0 and wilson_interval(400, 400)[1] == 1.0
    assert 0 < wilson_interval(1, 400)[0] < wilson_interval(1, 400)[1] < 1
    path = tmp_path / "match.json"
    # UCT with 400 iterations against random on a 3 x 3 Tabik board: a clean sweep.
    result = run("match", "tabik", "--size", "3", "--agents", "uct:400", "random", "--games", "6", "--json", str(path))
    assert result.returncode == 0, result.stderr
    [data] = json.loads(path.read_text())
    if data["agent_wins"][0] == 6:
        assert data["elo_difference"] == "inf" and data["elo_ci95"][1] == "inf"
        assert data["agent0_win_rate_ci95"][1] == 1.0 and data["agent1_win_rate_ci95"][0] == 0.0


def test_pettingzoo_without_the_rl_extra_says_what_to_install():
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "import territory\n"
        "try:\n    territory.envs.pettingzoo_env('tabik')\n"
        "except ImportError as e:\n    print(type(e).__name__, e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out.startswith("ImportError") and 'pip install "territory-games[rl]"' in out


def test_no_placeholder_urls():
    for name in ("pyproject.toml", "Cargo.toml", "README.md"):
        assert "example.invalid" not in (REPO / name).read_text(), name
