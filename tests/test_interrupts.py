"""Ctrl-C stops every long call promptly and cleanly (docs/interrupts.md), and the
bounds on UCT iterations and the --threads warning.

Python: a real SIGINT during each long call raises KeyboardInterrupt within a fraction
of a second, and the library works afterwards (each call runs in a subprocess,
tests/interrupt_calls.py, so a call that ignores the signal fails on a timeout).
Command line: SIGINT at several moments of each long command (start-up, early, mid-run)
ends it with exit code 130 and one line on stderr, no traceback and no Rust panic.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import territory
from interrupting import PROMPT, interrupt, territory_script
from territory import _core, cli

SCRIPT = Path(__file__).with_name("interrupt_calls.py")


def _interrupt_call(name: str, delay: float = 0.8) -> dict:
    try:
        result = subprocess.run([sys.executable, str(SCRIPT), name, str(delay)], capture_output=True, text=True,
                                timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: SIGINT ignored (still running after 60 s)")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "panicked" not in result.stderr, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


CALLS = [
    "random_playouts", "run_playouts (one call)", "play_match uct", "play_match random", "Uct.analyse",
    "Uct.analyse threads=2", "VecEnv.step loop", "evaluate random", "evaluate uct", "trace_random (one call)",
    "Migong.perft", "evaluate puct", "Network.self_play solving",
]


@pytest.mark.parametrize("name", CALLS)
def test_sigint_raises_keyboard_interrupt_promptly(name: str) -> None:
    report = _interrupt_call(name)
    assert report["interrupted"], report
    assert report["seconds"] < PROMPT, report
    assert report["works_after"], report


@pytest.mark.parametrize("delay", [0.05, 0.5, 2.0])
def test_sigint_stops_perft_at_any_moment(delay: float) -> None:
    report = _interrupt_call("Migong.perft", delay)
    assert report["interrupted"] and report["seconds"] < PROMPT and report["works_after"], report


# --- the command line ---------------------------------------------------------------------

COMMANDS = {
    "simulate": ["simulate", "migong", "--games", "1000000000"],
    "match": ["match", "tabik", "--agents", "uct:2000", "uct:2000", "--games", "1000"],
    "evaluate": ["evaluate", "tabik", "--agent", "uct:1000", "--games", "100000"],
    "komi": ["komi", "--agent", "uct:200", "--games", "100000"],
    "openings": ["openings", "tabik", "--agent", "uct:500", "--games", "100000", "--size", "6"],
    "perft": ["perft", "migong", "--depth", "3"],
    "evaluate puct": ["evaluate", "tabik", "--size", "6", "--agent", "puct:tabik-6:400", "--games", "100000"],
}
#: Seconds after the start: during the imports, as the work begins, well into it.
MOMENTS = {"start-up": 0.15, "early": 1.5, "mid-run": 3.0}
#: One moment per command in the fast set; every pair in the slow one.
FAST = {("simulate", "start-up"), ("match", "early"), ("evaluate", "mid-run"), ("komi", "start-up"), ("openings", "early"),
        ("perft", "early"), ("perft", "mid-run"), ("evaluate puct", "early")}


@pytest.mark.parametrize("command, moment", [
    pytest.param(c, m, marks=[] if (c, m) in FAST else [pytest.mark.slow]) for c in COMMANDS for m in MOMENTS
])
def test_sigint_ends_a_command_with_one_line_and_130(command: str, moment: str) -> None:
    ended = interrupt([territory_script(), *COMMANDS[command]], after=MOMENTS[moment])
    print(f"{command} at {moment}: exit {ended.returncode} {ended.seconds:.3f} s after SIGINT")
    ended.assert_clean(may_precede_handler=moment == "start-up")


@pytest.mark.parametrize("after", [0.15, 1.0, 2.5])
def test_sigint_ends_show_while_it_waits_for_the_record(tmp_path: Path, after: float) -> None:
    fifo = tmp_path / "record"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # held open and silent: the reader waits for more
    try:
        ended = interrupt([territory_script(), "show", str(fifo)], after=after)
    finally:
        os.close(writer)
    ended.assert_clean(may_precede_handler=after < 0.2)


#: Ctrl-C that lands in a finalizer while ``territory_cli.main`` imports the package: the
#: import of ``territory`` drops an object whose ``__del__`` signals the process and
#: then runs Python code, where the handler runs. An exception raised there is only
#: printed ("Exception ignored in ...") and the command would go on with its work.
INTERRUPT_IN_A_FINALIZER = """
import builtins, os, signal, sys
import territory_cli

class SignalsWhenDropped:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        total = 0
        for i in range(100_000):
            total += i

real_import = builtins.__import__
def importing(name, *args, **kwargs):
    if name == "territory" and not getattr(importing, "done", False):
        importing.done = True
        SignalsWhenDropped()
    return real_import(name, *args, **kwargs)

builtins.__import__ = importing
sys.argv = ["territory", "match", "tabik", "--agents", "uct:2000", "uct:2000", "--games", "1000"]
sys.exit(territory_cli.main())
"""


def test_an_interrupt_during_the_import_ends_the_command_even_in_a_finalizer() -> None:
    try:
        result = subprocess.run([sys.executable, "-c", INTERRUPT_IN_A_FINALIZER], capture_output=True, text=True,
                                timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the interrupt was lost in a finalizer: the match went on")
    assert result.returncode == 130, result.stderr[-2000:]
    assert result.stderr == "territory: interrupted\n", result.stderr[-2000:]


def test_an_interrupt_wrapped_by_python_still_ends_the_command_with_130(monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C while a dataclass is created (Python 3.11 wraps what ``__set_name__``
    raises in a RuntimeError) is an interrupt too; another RuntimeError is not."""
    import territory_cli

    def raise_wrapped() -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise RuntimeError("Error calling __set_name__") from interrupt

    def raise_plain() -> int:
        raise RuntimeError("a real error")

    monkeypatch.setattr(cli, "main", raise_wrapped)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # main() replaces it after an interrupt
    try:
        assert territory_cli.main() == territory_cli.INTERRUPTED == 130
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    assert capsys.readouterr().err == "territory: interrupted\n"
    monkeypatch.setattr(cli, "main", raise_plain)
    with pytest.raises(RuntimeError, match="a real error"):
        territory_cli.main()


def test_after_the_one_line_no_finalizer_error_is_printed() -> None:
    """An object that Ctrl-C left half-made (a Dask future interrupted inside its
    ``__init__``) fails in ``__del__`` at exit; the interrupted command prints its one
    line and nothing after it, while before the interrupt such an error is printed."""
    code = ("import sys, territory_cli\n"
            "from territory import cli\n"
            "class HalfMade:\n"
            "    def __del__(self): raise AttributeError('no _cleared')\n"
            "def interrupted_command():\n"
            "    global kept\n"
            "    kept = HalfMade()\n"
            "    raise KeyboardInterrupt\n"
            "HalfMade()\n"
            "sys.stderr.write('--\\n')\n"
            "cli.main = interrupted_command\n"
            "sys.exit(territory_cli.main())\n")
    ended = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ended.returncode == 130
    before, after = ended.stderr.split("--\n")
    assert "Exception ignored" in before and "no _cleared" in before
    assert after == "territory: interrupted\n"


def native_module_loaded(process: subprocess.Popen) -> bool:
    """Whether the process has mapped the engine's native module (``territory._core``):
    the package's import is under way, its guard installed (its first line)."""
    try:
        return "territory/_core" in Path(f"/proc/{process.pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.parametrize("after", [0.0, 0.1])
def test_sigint_while_python_m_territory_imports_the_package(after: float) -> None:
    """``python -m territory`` imports the package (numpy, the engine) before its
    ``__main__`` runs: Ctrl-C then ends it as it ends the console script, exit 130 and
    the one line, not a traceback from inside the import nor CPython's death by SIGINT
    after an interrupt that ended a string ``exec`` (a dataclass being made)."""
    ended = interrupt([sys.executable, "-m", "territory", *COMMANDS["simulate"]], when=native_module_loaded, after=after)
    ended.assert_clean()


def test_python_m_territory_exits_130_after_an_interrupt_that_ended_a_string_exec(tmp_path: Path) -> None:
    """The moment the test above may hit only now and then, made certain: under
    ``python -m``, CPython ends the process by SIGINT (exit -2) after any interrupt that
    ended a string ``exec``, caught or not, unless ``territory.__main__`` clears that."""
    (tmp_path / "interrupted_in_exec.py").write_text(
        "import runpy\n"
        "from territory import cli\n"
        "cli.main = lambda: exec('raise KeyboardInterrupt', {})\n"
        "runpy.run_module('territory', run_name='__main__')\n")
    ended = subprocess.run([sys.executable, "-m", "interrupted_in_exec"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=60)
    assert (ended.returncode, ended.stderr) == (130, "territory: interrupted\n")


# --- bounds -------------------------------------------------------------------------------


def test_uct_iterations_are_bounded_with_a_message_naming_the_bound() -> None:
    bound = territory.agents.MAX_UCT_ITERATIONS
    assert bound == _core.MAX_UCT_ITERATIONS == 10_000_000
    assert territory.Uct(bound).iterations == bound
    for make in (lambda: territory.Uct(bound + 1), lambda: territory.parse_agent(f"uct:{bound + 1}"),
                 lambda: _core.uct_analyse(territory.Tabik(size=3), bound + 1, 1.4, 0, 1)):
        with pytest.raises(ValueError, match="10000000"):
            make()


def test_the_command_line_refuses_a_huge_uct_in_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "territory", "match", "tabik", "--agents", "uct:4000000000", "random",
                             "--games", "2"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "10000000" in result.stderr


def test_more_threads_than_cores_warns_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    cores = territory.playouts.cpu_count()
    assert cli.main(["simulate", "tabik", "--games", "20", "--size", "3", "--threads", str(cores + 1)]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warnings == [f"territory: warning: --threads {cores + 1} is more than the {cores} cores here; "
                        "runs are slower than with one thread per core"]
    assert cli.main(["simulate", "tabik", "--games", "20", "--size", "3", "--threads", "1"]) == 0
    assert "warning" not in capsys.readouterr().err
