"""The census of the engine's mutants keeps its record (.ci/mutants-census, docs/testing.md)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "mutants-census"


@pytest.fixture
def census(tmp_path, monkeypatch):
    loader = importlib.machinery.SourceFileLoader("mutants_census", str(SCRIPT))
    spec = importlib.util.spec_from_loader("mutants_census", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    monkeypatch.setattr(module, "RECORD", tmp_path / "record.tsv")
    return module


def outcomes(tmp_path: Path, results: dict[str, str], logs: dict[str, str] | None = None) -> Path:
    out = tmp_path / "mutants.out"
    (out / "log").mkdir(parents=True, exist_ok=True)
    entries = [{"scenario": "Baseline", "summary": "Success", "log_path": "log/baseline.log"}]
    for i, (name, summary) in enumerate(results.items()):
        log = f"log/m{i}.log"
        (out / log).write_text((logs or {}).get(name, ""))
        entries.append({"scenario": {"Mutant": {"name": name}}, "summary": summary, "log_path": log})
    (out / "outcomes.json").write_text(json.dumps({"outcomes": entries}))
    return out / "outcomes.json"


FAILED_LOG = """\
        PASS [   0.100s] (  1/176) territory rules::board::tests::square_neighbours
        FAIL [   0.587s] (145/176) territory::clone_from nume_clone_from_copies_exactly
     SIGTERM [   3.109s] (146/176) territory search::solve::tests::slow_one
"""
TIMED_OUT_LOG = "     TIMEOUT [  30.010s] (112/176) territory search::puct::tests::gamma_draws\n"


def test_a_run_is_recorded_with_its_commit_and_the_test_that_caught_each_mutant(census, tmp_path):
    run = outcomes(tmp_path, {"a.rs:1:1: x": "CaughtMutant", "a.rs:2:1: y": "MissedMutant",
                              "a.rs:3:1: z": "Unviable", "a.rs:4:1: w": "CaughtMutant", "a.rs:5:1: v": "Timeout"},
                   {"a.rs:1:1: x": FAILED_LOG, "a.rs:4:1: w": TIMED_OUT_LOG})
    assert census.merge(run, "abc1234") == 5
    assert census.read_record() == {
        "a.rs:1:1: x": ("caught", "abc1234", "by territory::clone_from::nume_clone_from_copies_exactly"),
        "a.rs:2:1: y": ("missed", "abc1234", ""),
        "a.rs:3:1: z": ("unviable", "abc1234", ""),
        "a.rs:4:1: w": ("caught", "abc1234", "by territory::search::puct::tests::gamma_draws (timed out)"),
        "a.rs:5:1: v": ("timeout", "abc1234", ""),
    }
    text = census.RECORD.read_text().splitlines()
    assert text[0].startswith("# outcome\tcommit\tmutant")
    names = [line.split("\t")[2] for line in text[1:]]
    assert names == sorted(names)  # by mutant, so that a run's changes read as a diff
    assert census.merge(run, "abc1234") == 0  # nothing new


def test_a_classified_mutant_keeps_its_class_when_missed_again_but_not_when_caught(census, tmp_path):
    census.merge(outcomes(tmp_path, {"a.rs:1:1: x": "MissedMutant", "a.rs:2:1: y": "MissedMutant"}), "c1")
    assert census.classify("1:1", "equivalent", "no test can tell") == 0
    assert census.classify("2:1", "killed", "tests::it") == 0
    assert census.merge(outcomes(tmp_path, {"a.rs:1:1: x": "MissedMutant", "a.rs:2:1: y": "MissedMutant"}), "c2") == 0
    assert census.read_record()["a.rs:1:1: x"] == ("equivalent", "c1", "no test can tell")
    assert census.merge(outcomes(tmp_path, {"a.rs:2:1: y": "CaughtMutant"}), "c3") == 1
    assert census.read_record()["a.rs:2:1: y"] == ("caught", "c3", "")


def test_classify_names_one_missed_mutant_or_changes_nothing(census, tmp_path, capsys):
    census.merge(outcomes(tmp_path, {"a.rs:1:1: x": "MissedMutant", "a.rs:1:9: y": "MissedMutant",
                                     "b.rs:1:1: z": "CaughtMutant"}), "c1")
    before = census.RECORD.read_text()
    assert census.classify("a.rs:1:", "equivalent", "why") == 2  # two match
    assert census.classify("b.rs", "equivalent", "why") == 2  # caught, not missed
    assert census.RECORD.read_text() == before
    assert "2 missed mutants match" in capsys.readouterr().err


def test_the_report_scores_caught_over_the_not_equivalent_with_its_interval(census, tmp_path, monkeypatch):
    names = [f"a.rs:{i}:1: m" for i in range(12)]
    census.merge(outcomes(tmp_path, dict(zip(names, ["CaughtMutant"] * 6 + ["Timeout", "Unviable"] + ["MissedMutant"] * 4))), "c")
    census.classify(names[8], "killed", "t")
    census.classify(names[9], "equivalent", "e")
    monkeypatch.setattr(census, "all_mutants", lambda: names + ["a.rs:99:1: new"])
    report = census.report()
    assert "13 mutants; 12 tested, 1 not yet" in report
    assert "7 caught" not in report and "6 caught, 1 timeout, 1 unviable, 2 missed, 1 killed, 1 equivalent" in report
    low, high = census.wilson(7, 10)
    assert f"7 of 10 not equivalent (70.0%; Wilson 95% {100 * low:.1f}% .. {100 * high:.1f}%)" in report
    assert "with today's tests: 8 of 10; unclassified missed: 2" in report


def test_wilson_interval_matches_a_known_value(census):
    low, high = census.wilson(726, 759)
    assert (round(100 * low, 1), round(100 * high, 1)) == (94.0, 96.9)
    assert census.wilson(0, 0) == (0.0, 1.0)


def test_the_mutation_tree_declares_the_registrys_games_as_plain_modules():
    """cargo-mutants follows `mod` items and cannot see the ones a macro declares: the
    copy it mutates declares the registry's games plainly (.ci/mutants_tree.py)."""
    loader = importlib.machinery.SourceFileLoader("mutants_tree", str(SCRIPT.parent / "mutants_tree.py"))
    spec = importlib.util.spec_from_loader("mutants_tree", loader)
    tree = importlib.util.module_from_spec(spec)
    loader.exec_module(tree)
    root = SCRIPT.parent.parent
    modules = tree.game_modules((root / tree.REGISTRY).read_text())
    files = sorted(p.stem for p in (root / "rust/territory/src/games").glob("*.rs") if p.stem not in ("mod", "registry"))
    assert modules == files and len(modules) >= 3
    mod_rs = (root / tree.MODULES).read_text()
    plain = tree.plain_declarations(mod_rs, modules)
    assert "$(pub mod $module;)*" not in plain and "$(pub mod $module;)*" in mod_rs
    assert [line for line in plain.splitlines() if line.startswith("pub mod ")] == [
        "pub mod registry;", *(f"pub mod {m};" for m in modules)]
    with pytest.raises(ValueError, match="no longer declares the games"):
        tree.plain_declarations(mod_rs.replace("$(pub mod $module;)*", "$(mod $module;)*"), modules)
