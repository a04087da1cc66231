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

from territory.train import TrainConfig, train  # noqa: E402

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
