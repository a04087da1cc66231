"""Hostile inputs to the learned agents, the bulk calls, perft, records and training
(issue 32): each bad input walked in a table gives one line and exit 2 on the command
line, or the documented exception in Python, with bounded memory (measured with
``resource.getrusage`` in a subprocess); bulk calls of any size stream with flat
memory or are refused up front."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import territory
from interrupting import territory_script
from territory import _core
from territory.model import MODELS_DIR, Model
from territory.puct import Puct

#: Peak memory allowed to any refused command or call (MB): the interpreter, numpy and
#: the engine take about 60.
BOUNDED_MB = 250

#: A process's own peak memory in MB, as code for the measured child processes. Linux's
#: VmHWM, the peak of this process's own memory map: getrusage's ru_maxrss would carry
#: the peak of the process that spawned it (pytest, hundreds of MB after the JAX tests)
#: across the exec, and hide any growth below it.
PEAK_MB = textwrap.dedent("""
    def peak_mb():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
""")


@pytest.fixture(scope="module")
def bad_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Model files that are not models, or damaged ones."""
    d = tmp_path_factory.mktemp("models")
    files = {"empty": d / "empty.npz", "truncated": d / "truncated.npz", "nan": d / "nan.npz",
             "text": d / "text.npz", "pickled": d / "pickled.npz", "no_meta": d / "no_meta.npz"}
    files["empty"].write_bytes(b"")
    shipped = (MODELS_DIR / "tabik-4.npz").read_bytes()
    files["truncated"].write_bytes(shipped[: len(shipped) // 2])
    model = Model.load("tabik-4")
    weights = {**model.weights, "w2": model.weights["w2"].copy()}
    weights["w2"][0, 0] = np.nan
    Model(weights, model.meta).save(files["nan"])
    files["text"].write_text("game = tabik\n")
    np.save(d / "object.npy", np.array([{}], dtype=object), allow_pickle=True)
    shutil.copy(d / "object.npy", files["pickled"])
    np.savez(files["no_meta"], w1=np.zeros(3))
    return files


def run_measured(args: list[str], seconds: float | None = None) -> tuple[int, str, float]:
    """Runs ``args`` in a wrapper process (SIGINT after ``seconds`` if given): the exit
    code, stderr and the peak memory of the command in MB (getrusage of the children)."""
    code = textwrap.dedent(f"""
        import json, resource, signal, subprocess, sys, time
        p = subprocess.Popen({args!r}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if {seconds!r} is not None:
            time.sleep({seconds!r})
            p.send_signal(signal.SIGINT)
        err = p.communicate(timeout=120)[1]
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps([p.returncode, err, peak]))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, check=True)
    rc, err, peak = json.loads(out.stdout)
    return rc, err, peak


def cli_cases(models: dict[str, Path], tmp: Path) -> list[tuple[list[str], str]]:
    existing = tmp / "existing_file"
    existing.write_text("")
    match = ["match", "tabik", "--size", "4", "--games", "2", "--agents"]
    return [
        (["match", "tabik", "--size", "8", "--games", "2", "--agents", "puct:tabik-6:10", "random"],
         r"trained for tabik \(size=6, pie=True\), not for tabik \(size=8"),
        (["match", "nume", "--games", "2", "--agents", "puct:tabik-6:10", "random"], r"trained for tabik .* not for nume"),
        (["match", "tabik", "--size", "4", "--no-pie", "--games", "2", "--agents", "puct:tabik-4:10", "random"],
         "the pie rule on in training, off here"),
        (["evaluate", "tabik", "--size", "8", "--agent", "puct:tabik-6:10", "--games", "2"], "trained for tabik"),
        (["openings", "nume", "--agent", "puct:tabik-4:10", "--games", "2"], "trained for tabik"),
        (["komi", "--agent", "puct:tabik-4:10", "--games", "2"], "trained for tabik"),
        *[([*match, f"puct:{models[k]}", "random"], r"is not a model file") for k in ("empty", "truncated", "text", "pickled", "no_meta")],
        ([*match, f"puct:{models['nan']}", "random"], "damaged: weights w2 are not all finite"),
        ([*match, f"puct:{tmp}", "random"], "is a directory, not a model file"),
        ([*match, "puct:tabik-6:-3", "random"], r"simulations after the model must be a whole number .* got '-3'"),
        ([*match, "puct:tabik-6:99999999999", "random"], "simulations after the model"),
        ([*match, "puct:nowhere.npz:30", "random"], "no model file 'nowhere.npz'"),
        ([*match, "puct:", "random"], "give a model after 'puct:'"),
        (["train", "tabik", "--size", "4", "--out", str(existing), "--rounds", "1"], "is a file: give a directory"),
        (["train", "tabik", "--size", "4", "--out", "/proc/nope", "--rounds", "1"], "cannot make the directory"),
        (["train", "tabik", "--size", "4", "--out", str(tmp / "t"), "--buffer", "100000000000000"],
         r"replay buffer of 100,000,000,000,000 positions needs about .* more than the .* available"),
        (["train", "tabik", "--size", "4", "--out", str(tmp / "t"), "--init", "tabik-6"],
         r"init 'tabik-6' cannot start this run: observations \(8, 6, 6\) and 182 actions in training"),
        (["train", "tabik", "--size", "4", "--out", str(tmp / "t"), "--init", str(models["nan"])], "damaged: weights w2"),
        (["show", "/dev/zero"], "longer than 16,777,216 bytes"),
        (["show", str(models["truncated"])], "not a UTF-8 text file"),
        (["perft", "migong", "--depth", "-1"], "--depth"),
        (["perft", "migong", "--depth", "1001"], "--depth"),
    ]


def test_the_command_line_refuses_each_hostile_input_in_one_line(bad_models, tmp_path):
    for args, message in cli_cases(bad_models, tmp_path):
        rc, err, peak = run_measured([territory_script(), *args])
        assert rc == 2, (args, rc, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "panicked" not in err, (args, err)
        assert __import__("re").search(message, err), (args, err)
        assert "allow_pickle" not in err, (args, err)
        assert peak < BOUNDED_MB, (args, peak)


def python_cases(models: dict[str, Path]) -> list[tuple[object, type, str]]:
    tabik4 = territory.Tabik(size=4)
    network = Model.load("tabik-4").network()
    return [
        (lambda: territory.random_playouts("tabik", 2**70), ValueError, "games must be an int from 0 to"),
        (lambda: territory.random_playouts("tabik", 2**63), ValueError, "keep_games=False"),
        (lambda: territory.random_playouts("tabik", 10, progress=1), ValueError, "progress must be callable"),
        (lambda: territory.play_match("tabik", ["random", "random"], games=2**62), ValueError, "keep_games=False"),
        (lambda: territory.play_match("tabik", ["random", "random"], games=4, progress="x"), ValueError,
         "progress must be callable"),
        (lambda: territory.play_match("tabik", ["puct:tabik-6:10", "random"], games=2, size=8), ValueError,
         r"trained for tabik \(size=6"),
        (lambda: territory.play_match("nume", ["puct:tabik-6:10", "random"], games=2), ValueError, "another game"),
        (lambda: territory.play_match("tabik", ["puct:tabik-4:10", "random"], games=2, size=4, pie=False), ValueError,
         "pie rule"),
        (lambda: Puct("tabik-4").choose(territory.Tabik(size=4, pie=False)), ValueError, "pie rule"),
        (lambda: territory.evaluate("tabik", Puct("tabik-6", 10), games=2, size=8), ValueError, "trained for tabik"),
        (lambda: territory.evaluate("tabik", Puct("tabik-4", 10, noise_fraction=0), games=2, size=4), ValueError,
         "needs distinct games"),
        (lambda: territory.parse_agent("puct:tabik-6:-3"), ValueError, "simulations after the model"),
        (lambda: territory.parse_agent("puct:tabik-6:0"), ValueError, "simulations after the model"),
        *[(lambda k=k: Model.load(models[k]), ValueError, "not a model file|damaged") for k in models],
        (lambda: network.self_play(tabik4, games=-1, iterations=10), ValueError, "games must be from 1"),
        (lambda: network.self_play(tabik4, games=1, iterations=-1), ValueError, "iterations must be from 1"),
        (lambda: network.self_play(tabik4, games=2, iterations=1, first=2**64 - 1), ValueError, "first must be from 0"),
        (lambda: network.self_play(tabik4, games=1, iterations=1, solve_nodes=-2**70), ValueError,
         "solve_nodes must be from 0"),
        (lambda: network.analyse(tabik4, -5), ValueError, "iterations must be from 1"),
        (lambda: territory.VecEnv("tabik", 2, size=4).step([2**63, 0]), ValueError, "game 0: action must be from 0"),
        (lambda: territory.VecEnv("tabik", 2, size=4).step((0, -2**70)), ValueError, "game 1: action must be from 0"),
        (lambda: territory.Migong().perft(-1), ValueError, "depth must be an int"),
        (lambda: territory.record.load("/dev/zero"), ValueError, "longer than"),
    ]


def test_the_python_entry_points_refuse_each_hostile_input(bad_models):
    for call, kind, message in python_cases(bad_models):
        with pytest.raises(kind, match=message):
            call()


def test_refused_huge_runs_take_no_memory():
    code = PEAK_MB + textwrap.dedent("""
        import territory
        from territory.train import TrainConfig, train
        calls = [lambda: territory.random_playouts("tabik", 2**63),
                 lambda: territory.play_match("tabik", ["random", "uct:10"], games=2**62),
                 lambda: train(TrainConfig(game="tabik", params={"size": 4}, out="/tmp/unused-run", buffer=10**14))]
        for call in calls:
            try:
                call()
            except ValueError:
                pass
            else:
                raise SystemExit("not refused")
        print(peak_mb())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) < BOUNDED_MB


GROWTH = PEAK_MB + textwrap.dedent("""
    import sys, time, territory, concurrent.futures as cf
    samples = []
    began = time.monotonic()
    class Enough(Exception):
        pass
    def progress(done, total, seconds):
        samples.append((time.monotonic() - began, peak_mb()))
        if samples[-1][0] > 5:
            raise Enough
    kind = sys.argv[1]
    try:
        if kind == "match":
            territory.play_match("tabik", ["random", "random"], games=2**40, keep_games=False, progress=progress, size=5)
        elif kind == "match executor":
            with cf.ThreadPoolExecutor(2) as pool:
                territory.play_match("tabik", ["random", "random"], games=2**40, keep_games=False, progress=progress,
                                     executor=pool, shard_size=4096, size=5)
        else:
            with cf.ThreadPoolExecutor(2) as pool:
                territory.random_playouts("tabik", 2**64 - 1, keep_games=False, progress=progress, executor=pool,
                                          shard_size=4096, size=5)
    except Enough:
        pass
    at_one = max(m for t, m in samples if t <= 1.5)
    print(at_one, samples[-1][1])
""")


@pytest.mark.parametrize("kind", ["match", "match executor", "playouts executor"])
def test_bulk_calls_without_kept_games_stream_with_flat_memory(kind):
    out = subprocess.run([sys.executable, "-c", GROWTH, kind], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    early, late = map(float, out.stdout.split())
    print(f"{kind}: peak {early:.1f} MB after 1.5 s, {late:.1f} MB after 5 s")
    assert late - early < 5 and late < BOUNDED_MB, (early, late)


def test_the_match_command_streams_any_number_of_games():
    script = territory_script()
    args = [script, "match", "tabik", "--size", "5", "--agents", "random", "random", "--games", "1099511627776"]
    short, long_ = run_measured(args, 1.5), run_measured(args, 5.0)
    for rc, err, _ in (short, long_):
        assert rc == 130 and err.strip() == "territory: interrupted", err
    print(f"match --games 2**40: peak {short[2]:.1f} MB after 1.5 s, {long_[2]:.1f} MB after 5 s")
    assert long_[2] - short[2] < 8 and long_[2] < BOUNDED_MB
