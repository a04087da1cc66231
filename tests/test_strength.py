"""Budgets in CPU time (``train --minutes``), and the commands behind docs/strength.md:
``benches/learning.py sweep`` and ``benches/strength.py``, run small."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np  # noqa: E402

import territory  # noqa: E402
from territory.model import Model  # noqa: E402
from territory.train import TrainConfig, drawn_position, train  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_train_minutes_count_cpu_time_not_wall_time(tmp_path, monkeypatch):
    """A CPU clock that runs 40 s a reading (wall time barely moves): --minutes 1 stops
    the run after one round, and the round's log line has both clocks."""
    readings = iter(range(0, 10**6, 40))
    monkeypatch.setattr(time, "process_time", lambda: float(next(readings)))
    config = TrainConfig(game="tabik", params={"size": 3}, out=str(tmp_path / "run"), seed=4, hidden=8, minutes=1.0,
                         rounds=None, games=4, iterations=8, batch=16, checkpoint_every=1000, eval_games=0)
    began = time.perf_counter()
    train(config)
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    rounds = [r for r in log if r["event"] == "round"]
    assert len(rounds) == 1 and log[-1]["event"] == "done"
    assert rounds[0]["cpu_seconds"] == 80.0 and rounds[0]["seconds"] < time.perf_counter() - began + 1


def run_bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_the_sweep_rates_each_c_against_the_reference():
    out = run_bench("benches/learning.py", "sweep", "tabik", "--size", "4", "--c", "0.5,1.4,2", "--iterations", "20",
                    "--games", "4", "--seed", "3")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    rows = {r["c"]: r for r in result["rows"]}
    assert set(rows) == {0.5, 1.4, 2.0} and rows[1.4]["reference"] and rows[1.4]["elo"] == 0
    assert sum(rows[0.5]["wins"]) == 4 and sum(rows[2.0]["wins"]) == 4
    assert result["best_c"] == max(rows, key=lambda c: rows[c]["elo"]) and result["params"]["size"] == 4
    again = json.loads(run_bench("benches/learning.py", "sweep", "tabik", "--size", "4", "--c", "0.5,1.4,2",
                                 "--iterations", "20", "--games", "4", "--seed", "3").stdout)
    assert [r.get("wins") for r in again["rows"]] == [r.get("wins") for r in result["rows"]]  # the same seed


def test_the_rating_list_chains_its_matches(tmp_path):
    doc = tmp_path / "list.md"
    doc.write_text("before\n<!-- rating list: benches/strength.py -->\nold\n<!-- end of rating list -->\nafter\n")
    out = run_bench("benches/strength.py", "--games", "4", "--budgets", "5,10,20", "--puct-simulations", "5",
                    "--games-only", "tabik", "--json", str(tmp_path / "list.json"), "--write", str(doc))
    assert out.returncode == 0, out.stderr
    text = doc.read_text()
    assert text.startswith("before\n<!-- rating list") and text.endswith("end of rating list -->\nafter\n")
    assert "old" not in text and "`uct:10:c=" in text and "puct:tabik-6:5" in text
    boards = json.loads((tmp_path / "list.json").read_text())["boards"]
    assert [b["params"]["size"] for b in boards] == [8, 4, 6]  # the default board, then the models' boards
    for board in boards:
        rows = {r["agent"]: r for r in board["rows"]}
        anchor = [r for r in board["rows"] if r["anchor"]]
        assert len(anchor) == 1 and anchor[0]["agent"].startswith("uct:10:") and anchor[0]["rating"] == 0
        top = rows[f"uct:20:c={board['uct_c']}"]
        assert top["rating"] == top["elo"] and sum(top["wins"]) == 4
    again = run_bench("benches/strength.py", "--from-json", str(tmp_path / "list.json"))
    assert again.returncode == 0 and "`uct:10:c=" in again.stdout


def load_bench(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benches" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_solver_taught_networks_data_are_exact_and_keep_the_test_positions_out():
    """benches/solver_policy.py: every training target is the solver's (uniform over the
    optimal moves, the solved value), and no test position of optimal_move_rate (nor a
    symmetric image of one) is trained on."""
    from territory.agents import solve

    bench = load_bench("solver_policy")
    start = territory.Tabik(size=3)
    model = Model.new(start, hidden=8, features=True)
    test = bench.test_keys(start, 20, 0, 200_000)
    assert len(test) >= 20  # every test position, with its images
    # Draw the training positions from the test seed itself: only the exclusion keeps
    # the test positions out.
    data = bench.solved_examples(start, model, 40, 0, test, 200_000)
    assert len(data["inputs"]) == 40
    keys = {row[:start.observation().size].tobytes() for row in data["inputs"]}
    assert not keys & test
    for k in range(200):
        state = drawn_position(start, 0, k)
        if state is None or state.observation().tobytes() not in keys:
            continue
        row = next(i for i, r in enumerate(data["inputs"]) if np.array_equal(r, model.inputs(state)))
        solution = solve(state)
        best = sorted(state.move_to_action(m) for m in solution.best_moves)
        assert list(np.flatnonzero(data["policies"][row])) == best
        assert np.allclose(data["policies"][row][best], 1 / len(best))
        assert data["values"][row] == solution.value
        assert np.array_equal(data["masks"][row], state.legal_mask())


def test_the_solver_taught_networks_data_are_the_same_on_any_number_of_processes(tmp_path):
    """--jobs: chunks of draws solved side by side and merged in order give the serial
    examples, row for row (small chunks, so that several are in flight and a key seen in
    one chunk comes again in a later one). Each run in a fresh process, as a user runs
    it: the workers are forked before anything loads JAX."""
    small = ("--size", "3", "--train-positions", "60", "--test-positions", "10", "--hidden", "16", "--epochs", "1",
             "--batch", "16", "--chunk", "7")
    data = {}
    for jobs in (1, 3):
        out = run_bench("benches/solver_policy.py", *small, "--jobs", str(jobs), "--data", str(tmp_path / f"{jobs}.npz"))
        assert out.returncode == 0, out.stderr
        with np.load(tmp_path / f"{jobs}.npz") as saved:
            data[jobs] = {name: saved[name] for name in saved.files}
    assert len(data[1]["inputs"]) == 60 and data[1].keys() == data[3].keys()
    for name in data[1]:
        assert np.array_equal(data[1][name], data[3][name]), name
    refused = run_bench("benches/solver_policy.py", *small, "--jobs", "0")
    assert refused.returncode == 2 and "--jobs and --chunk must be at least 1, not 0 and 7" in refused.stderr


def has_children(process: subprocess.Popen) -> bool:
    return bool(Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split())


@pytest.mark.parametrize("moment", ["solving the test positions", "solving in the workers"])
def test_ctrl_c_stops_the_solving_at_once_and_says_so(moment):
    """A terminal's Ctrl-C (SIGINT to the whole group) while the script solves in its
    own process, and while its forked workers solve: exit 130, one line, no traceback
    (from the workers either), promptly."""
    from interrupting import interrupt, thread_running

    args = [sys.executable, str(ROOT / "benches" / "solver_policy.py"), "--size", "4", "--train-positions", "100000",
            "--test-positions", "200", "--jobs", "2", "--chunk", "50"]
    if moment == "solving the test positions":
        ended = interrupt(args, when=lambda process: thread_running(process.pid), after=0.2, group=True)
    else:
        ended = interrupt(args, when=has_children, after=0.5, group=True)
    ended.assert_clean("solver_policy.py: interrupted")


def test_the_symmetric_top_move_takes_each_turned_logit_back_to_its_own_action():
    """TopMove(symmetric=True): the turned positions' logits are summed onto the
    position's own actions. A network that always favours one action (whatever it is
    shown) then favours, for the position, the images of that action under the
    symmetries: its choice is one of them, and the plain choice is the action itself."""
    bench = load_bench("solver_policy")
    start = territory.Tabik(size=4)
    model = Model.new(start, hidden=8, features=True)
    turns = start.symmetries()
    assert len(turns) == 8
    for favoured in (0, 7, 20):
        assert start.legal_mask()[favoured]
        fixed = np.zeros(start.num_actions)
        fixed[favoured] = 1.0

        def logits(inputs):
            return np.tile(fixed, (len(inputs), 1))

        plain = bench.TopMove(model, logits).choose(start)
        symmetric = bench.TopMove(model, logits, symmetric=True).choose(start)
        images = {int(actions[favoured]) for _, actions in turns}
        assert start.move_to_action(plain) == favoured
        assert start.move_to_action(symmetric) in images and len(images) > 1
        assert min(images) == start.move_to_action(symmetric)  # ties: numpy's first
    # A network that is right in every frame: shown the position turned by a symmetry,
    # it favours the turned image of one action, as the training data turn the policy
    # targets (policy[actions]). All eight votes then fall on that action.
    state = start.copy()
    state.play_random(0.3)
    state.play_random(0.6)
    inputs = model.inputs(state)
    target = int(np.flatnonzero(state.legal_mask())[3])
    frames = {}
    for source, actions in state.symmetries():
        turned = np.zeros(state.num_actions)
        turned[int(np.flatnonzero(actions == target)[0])] = 1.0
        frames[inputs[source[:inputs.size]].tobytes()] = turned
    assert len(frames) == 8  # a position no symmetry keeps

    def knowing(batch):
        return np.stack([frames[row.tobytes()] for row in batch])

    top = bench.TopMove(model, knowing, symmetric=True)
    expected = np.zeros(state.num_actions)
    expected[target] = 8.0
    assert np.array_equal(top.action_logits(state), expected)
    assert state.move_to_action(top.choose(state)) == target


def test_the_solver_taught_network_bench_runs_small(tmp_path):
    out = run_bench("benches/solver_policy.py", "--size", "3", "--train-positions", "60", "--test-positions", "10",
                    "--hidden", "16", "--epochs", "2", "--batch", "16", "--cosine", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["train_positions"] == 60 and result["test"]["positions"] == 10 and result["cosine"] is True
    assert result["test_symmetric"]["positions"] == 10
    assert 0 <= result["test"]["optimal"] <= 10 and 0 <= result["train_rate"] <= 1
    assert Model.load(tmp_path / "model.npz").meta["solver_targets"] is True


def test_the_set_loss_is_minus_the_log_of_the_optimal_sets_probability(tmp_path):
    """``--set-loss``: the policy loss is -log P(optimal moves), the probability the
    softmax over the legal actions gives the set; the bench trains with it and the loss
    falls."""
    bench = load_bench("solver_policy")
    logits = np.array([[0.0, np.log(2.0), 0.0, 5.0], [1.0, 1.0, 1.0, 1.0]], np.float32)
    mask = np.array([[True, True, True, False], [True, True, True, True]])
    policy = np.array([[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]], np.float32)
    # Row 0: the legal actions weigh 1, 2 and 1, the set {0, 1} 3 of 4 (the illegal
    # action's large logit counts for nothing); row 1: one optimal move of four.
    expected = -(np.log(0.75) + np.log(0.25)) / 2
    assert abs(float(bench.set_policy_loss(logits, policy, mask)) - expected) < 1e-6
    out = run_bench("benches/solver_policy.py", "--size", "3", "--train-positions", "60", "--test-positions", "10",
                    "--hidden", "16", "--epochs", "60", "--batch", "16", "--set-loss")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["set_loss"] is True and result["test"]["positions"] == 10
    first, last = result["losses_first_last"]
    assert last[0] < first[0]


def test_the_solver_taught_convolutional_network_trains_and_is_rated_without_a_model_file(tmp_path):
    """``--conv``: the network in JAX alone, rated by its top move on the same positions;
    the engine cannot evaluate it, so ``--out`` is refused, as is a malformed shape."""
    small = ("--size", "3", "--train-positions", "60", "--test-positions", "10", "--hidden", "16", "--epochs", "20",
             "--batch", "16")
    out = run_bench("benches/solver_policy.py", *small, "--conv", "8:1")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["conv"] == "8:1" and result["test"]["positions"] == 10 and len(result["losses_first_last"]) == 2
    assert 0 <= result["test"]["optimal"] <= 10 and 0 <= result["train_rate"] <= 1
    first, last = result["losses_first_last"]
    assert sum(last) < sum(first)  # the loss falls (policy + value)
    refused = run_bench("benches/solver_policy.py", *small, "--conv", "8:1", "--out", str(tmp_path))
    assert refused.returncode == 2 and "--conv trains a network the engine cannot evaluate" in refused.stderr
    assert not list(tmp_path.iterdir())
    refused = run_bench("benches/solver_policy.py", *small, "--use-first", "0")
    assert refused.returncode == 2 and "--use-first must be at least 1, not 0" in refused.stderr
    refused = run_bench("benches/solver_policy.py", *small, "--decisions-only")  # 13 decisions: no batch of 16
    assert refused.returncode == 2 and ("13 training positions (the decisions among 60) are fewer than a batch "
                                        "of 16") in refused.stderr
    for bad in ("8", "0:1", "8:-1", "a:b"):
        refused = run_bench("benches/solver_policy.py", *small, "--conv", bad)
        assert refused.returncode == 2 and f"not {bad!r}" in refused.stderr, bad


def test_the_solver_taught_trunk_is_a_model_the_engine_plays_with(tmp_path):
    """``--trunk``: the model's own convolutional trunk (``--trunk-features``: reading
    Tabik's feature planes too), trained as the MLP is, written by ``--out`` and loaded
    and played by the engine; the engine's logits are those the bench rated."""
    small = ("--size", "3", "--train-positions", "60", "--test-positions", "10", "--hidden", "16", "--epochs", "20",
             "--batch", "16", "--cosine")
    for extra, planes in (((), 8), (("--trunk-features",), 20)):
        out = run_bench("benches/solver_policy.py", *small, "--trunk", "4:1", *extra, "--out", str(tmp_path))
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout)
        assert result["trunk"] == "4:1" and result["trunk_features"] is bool(extra)
        first, last = result["losses_first_last"]
        assert sum(last) < sum(first)
        model = Model.load(tmp_path / "model.npz")
        assert (model.filters, model.blocks, model.trunk_planes) == (4, 1, planes)
        state = territory.Tabik(size=3)
        inputs = np.stack([model.inputs(state)])
        assert np.allclose(model.network().evaluate_heads(inputs)[0], model.forward(inputs)[0], atol=1e-4)
        assert territory.Puct(model, 16).choose(state) in state.legal_moves()
    for bad, message in ((("--trunk", "4"), "not '4'"), (("--trunk", "4:1", "--conv", "4:1"), "give one"),
                         (("--trunk-features",), "--trunk-features needs --trunk")):
        refused = run_bench("benches/solver_policy.py", *small, *bad)
        assert refused.returncode == 2 and message in refused.stderr, bad


def test_the_value_and_top_move_rates_read_the_solver_and_beat_chance():
    """``learning.py value``: the shipped tabik-4's value head has the solved value's sign
    in most decisive positions; ``optimal --top-move``: its top move alone (and the
    symmetric one) is optimal far more often than a random legal move (about 30% there)."""
    out = run_bench("benches/learning.py", "value", "tabik-4", "--positions", "40")
    assert out.returncode == 0, out.stderr
    value = json.loads(out.stdout)
    assert value["positions"] == 40 and value["rate"] == value["right"] / 40 and value["right"] >= 26
    out = run_bench("benches/learning.py", "optimal", "tabik-4", "--positions", "40", "--top-move")
    assert out.returncode == 0, out.stderr
    top = json.loads(out.stdout)
    assert top["positions"] == 40 and top["agent"] == "top move" and len(top["misses"]) == 40 - top["optimal"]
    assert top["optimal"] >= 20 and top["symmetric"]["optimal"] >= 20
