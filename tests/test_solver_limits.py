"""The solver's limits (issue 20): Ctrl-C, time limit, memory budget, progress; the
``territory solve`` command's interrupt, limits and documented commands; the same-seat
rule against plain minimax (issue 20's surviving mutation)."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

import pytest

import territory
from interrupting import interrupt, sigint_later, territory_script, thread_running
from territory import NodeLimitError, SolveLimitError, TimeLimitError, agents, solve
from territory.cli import main

ROOT = Path(__file__).resolve().parent.parent


def minimax(s) -> int:
    """Plain minimax without pruning: the value for the player to move (a move that
    leaves the same seat to move is not negated)."""
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


def test_same_seat_moving_twice_is_not_negated():
    """Nume's komi phase: after ``komi 0.5 black``, seat 1 picks ``side black`` and then
    places the first stone itself. A solver negating every child value gets
    ``side black`` wrong (+1 where minimax says -1)."""
    s = territory.Nume(square=2, komi=None, komi_phase=True)
    s.play("komi 0.5 black")
    sol = solve(s)
    assert set(sol.move_values) == {"side black", "side white"}
    for move, value in sol.move_values.items():
        s.play(move)
        assert s.to_move == (1 if move == "side black" else 0)
        assert value == (minimax(s.copy()) if s.to_move == 1 else -minimax(s.copy())), move
        s.undo()
    assert sol.move_values["side black"] == -1
    assert sol.value == minimax(s.copy())


def test_keyboard_interrupt_stops_a_solve_quickly():
    since_signal = sigint_later(0.5)
    with pytest.raises(KeyboardInterrupt):
        solve(territory.Tabik(size=6), memory=2**24)
    assert since_signal() < 1.0
    # The state is untouched and a new solve works.
    assert solve(territory.Tabik(size=2, pie=False)).value == 1


def test_time_limit_stops_with_what_was_searched():
    began = time.perf_counter()
    with pytest.raises(TimeLimitError, match="time_limit = 0.3 s") as caught:
        solve(territory.Tabik(size=6), time_limit=0.3, memory=2**24)
    assert time.perf_counter() - began < 1.5
    error = caught.value
    assert isinstance(error, SolveLimitError) and error.nodes > 1000
    assert 0 < error.table_bytes <= 2**24 and 0.3 <= error.seconds < 1.5
    with pytest.raises(NodeLimitError) as caught:
        solve(territory.Tabik(size=4), max_nodes=5000)
    assert caught.value.nodes == 5000 and caught.value.table_bytes > 0


def test_memory_budget_bounds_the_table_and_keeps_the_values():
    s = territory.Tabik(size=3, pie=False)
    roomy = solve(s)
    tight = solve(s, memory=2**20)
    assert tight.move_values == roomy.move_values and tight.table_bytes <= 2**20
    with pytest.raises(TimeLimitError) as caught:
        solve(territory.Tabik(size=5), memory=2**20, time_limit=1.0)
    assert caught.value.table_bytes == 2**20  # grown to the budget, and no further
    for bad in (0, 2**20 - 1, -1, 1.5, "1G", True):
        with pytest.raises(ValueError, match="memory"):
            solve(s, memory=bad)
    for bad in (0, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match="time_limit"):
            solve(s, time_limit=bad)


def test_progress_is_reported_and_its_errors_stop_the_search():
    calls = []
    with pytest.raises(TimeLimitError):
        solve(territory.Tabik(size=6), memory=2**24, time_limit=2.6,
              progress=lambda *figures: calls.append(figures))
    assert 2 <= len(calls) <= 3
    nodes = [c[0] for c in calls]
    assert nodes == sorted(nodes) and nodes[0] > 0 and all(0 < c[1] <= 2**24 for c in calls)

    def broken(*figures):
        raise RuntimeError("progress failed")

    began = time.perf_counter()
    with pytest.raises(RuntimeError, match="progress failed"):
        solve(territory.Tabik(size=6), memory=2**24, progress=broken)
    assert time.perf_counter() - began < 2.5
    with pytest.raises(ValueError, match="progress"):
        solve(territory.Tabik(size=2), progress=3)


# ---------------------------------------------------------------- command line


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize("after_start", [0.0, 0.3, 2.0])
def test_cli_solve_stops_on_sigint(after_start):
    """SIGINT as the search starts, early and mid-search: exit 130, one line on stderr,
    no traceback, within half a second (a second on a loaded machine)."""
    ended = interrupt([territory_script(), "solve", "tabik", "--size", "6", "--memory", "64M"],
                      when=lambda process: thread_running(process.pid), after=after_start)
    ended.assert_clean(r"territory solve: interrupted after [\d.]+ s(, [\d,]+ positions searched, table .*)?; "
                       r"nothing solved")
    assert ended.seconds < 1.0
    assert ended.stdout == ""


def test_cli_solve_limits(capsys):
    assert main(["solve", "tabik", "--size", "6", "--time-limit", "0.3", "--memory", "16M"]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(r"territory solve: error: not solved within --time-limit 0.3 s: [\d,]+ positions searched "
                        r"in 0\.\d s, table \d+ [KM]B\n", err), err
    assert main(["solve", "tabik", "--size", "3", "--memory", "1M", "--progress"]) == 0
    out = capsys.readouterr().out
    assert "value       -1" in out and re.search(r"table \d+ KB", out)
    for bad in ("0", "1K", "lots", "-1G", "1e30"):
        with pytest.raises(SystemExit):
            main(["solve", "tabik", "--size", "2", f"--memory={bad}"])
        assert "--memory: must be a size" in capsys.readouterr().err
    more = f"{agents.machine_memory() // 2**30 + 1}G"
    for bad in ("-5G", "-1", more, "1T" if agents.machine_memory() < 2**40 else "8192P"):  # as separate words too
        with pytest.raises(SystemExit) as exited:
            main(["solve", "tabik", "--size", "2", "--memory", bad])
        [line] = capsys.readouterr().err.strip().splitlines()[-1:]
        assert exited.value.code == 2 and f"--memory: must be a size from 1M to this machine's memory" in line
        assert line.endswith(f"got {bad}"), line
    with pytest.raises(ValueError, match="more than this machine has"):
        solve(territory.Tabik(size=2), memory=agents.machine_memory() + 1)
    for bad in ("99999999999", "-1", "10001"):
        with pytest.raises(SystemExit):
            main(["solve", "tabik", "--size", "2", "--order-depth", bad])
        assert "--order-depth: must be an integer from 0 to 10000, got" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "tabik", "--size", "2", "--time-limit", "0"])
    assert "--time-limit: must be a number of seconds > 0" in capsys.readouterr().err


def test_cli_solve_record_with_game_options(tmp_path, capsys, monkeypatch):
    s = territory.Tabik(size=3)
    s.play("a2-a3")
    (tmp_path / "game.txt").write_text(s.to_record())
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "tabik", "--size", "3", "--record", "game.txt"]) == 0
    assert "best moves  b2-c2  (1 of 17)" in capsys.readouterr().out
    assert main(["solve", "tabik", "--size", "4", "--record", "game.txt"]) == 2
    assert "--size 4 disagrees with game.txt, whose size is 3" in capsys.readouterr().err


def test_cli_solve_a_position_string_moves_separated_by_commas(capsys):
    s = territory.Tabik(size=3)
    s.play("b2-b3")
    assert main(["solve", "tabik", "--size", "3", "--position", s.position()]) == 0
    out = capsys.readouterr().out
    solution = solve(s)
    assert "from the given position: seat 1 (white) to move" in out
    assert f"best moves  {', '.join(solution.best_moves)}  (" in out
    # Nume's komi moves have spaces: the commas keep them apart.
    assert main(["solve", "nume", "--square", "2", "--komi", "none", "--komi-phase"]) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if "best moves" in line]
    moves = line.split("best moves", 1)[1].rsplit("(", 1)[0].strip().split(", ")
    assert moves == solve(territory.Nume(square=2, komi=None, komi_phase=True)).best_moves and "komi 0.5 black" in moves
    assert main(["solve", "tabik", "--size", "3", "--position", "junk"]) == 2
    assert "territory solve: error: --position: bad position" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "tabik", "--position", s.position(), "--record", "game.txt"])
    assert "not allowed with argument" in capsys.readouterr().err


def documented_solve_commands() -> list[str]:
    text = (ROOT / "docs" / "solved.md").read_text()
    commands = re.findall(r"^(territory solve [^#\n]*?)\s*(?:#.*)?$", text, re.M)
    commands += re.findall(r"`(territory solve [^`]*)`", text)
    expanded = []
    for command in commands:
        # `[--no-pie]` stands for both.
        if "[--no-pie]" in command:
            expanded += [command.replace(" [--no-pie]", ""), command.replace("[--no-pie]", "--no-pie")]
        else:
            expanded.append(command)
    return sorted(set(expanded))


def test_documented_solve_commands_run(tmp_path, capsys, monkeypatch):
    """Every `territory solve` line of docs/solved.md runs (the quick ones here; those
    taking minutes are named in the docs with their figures)."""
    s = territory.Tabik(size=3)
    s.play("a2-a3")
    (tmp_path / "game.txt").write_text(s.to_record())
    monkeypatch.chdir(tmp_path)
    commands = documented_solve_commands()
    assert any("--record game.txt" in c for c in commands) and len(commands) > 8
    slow = ("--size 4", "--size 5", "--square 3", "--square 4", "--n 2")
    for command in commands:
        if any(flag in command for flag in slow):
            continue
        assert main(shlex.split(command)[1:]) == 0, command
        assert "value " in capsys.readouterr().out
