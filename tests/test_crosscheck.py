"""The cross-check kit (docs/crosscheck.md): perft in the engine and on the command line,
test vectors, and `territory crosscheck` against the reference through the example
adapter, against broken adapters (each disagreement found and shrunk) and against
engines that are missing, crash, hang or answer nonsense."""

from __future__ import annotations

import gzip
import io
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import games as test_games
import territory
from perft import GAMES as PERFT_GAMES
from perft import position, read
from territory.crosscheck import adapter, driver, vectors

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = f"{sys.executable} -m territory.crosscheck.adapter"


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "territory", *args], capture_output=True, text=True, timeout=timeout)


def assert_one_line_error(result: subprocess.CompletedProcess, *words: str) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]  # argparse's errors come after the usage
    assert line.startswith("territory"), result.stderr
    for word in words:
        assert word in line, result.stderr
    return line


# --- extras stay optional ---------------------------------------------------------------------


def test_import_territory_imports_neither_openspiel_nor_the_kit():
    code = (
        "import sys, territory; territory.Tabik().play('a1-a2');"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyspiel', 'open_spiel')"
        " or m in ('territory.openspiel', 'territory.crosscheck', 'territory.cli.crosscheck')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_missing_openspiel_says_what_to_install():
    code = "import sys; sys.modules['pyspiel'] = None; import territory.openspiel"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert "pip install 'territory-games[openspiel]'" in result.stderr


# --- perft ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", PERFT_GAMES)
def test_engine_perft_matches_the_perft_files(game):
    for entry in read(game):
        state = position(territory.GAMES[game], entry)
        for depth, expected in entry.counts.items():
            if entry.counts.get(depth - 1, 1) <= 20_000:
                assert state.perft(depth) == expected, f"{entry.id}: perft {depth}"
        assert state.history == entry.moves  # unchanged


def test_perft_from_a_position_string_and_divided():
    entry = next(e for e in read("tabik") if e.id == "tabik-4-pie-swapped")
    state = position(territory.Tabik, entry)
    result = run("perft", "tabik", "--depth", "3", "--divide", "--size", "4", "--position", state.position(), "--json", "-")
    assert result.returncode == 0, result.stderr
    [data] = json.loads(result.stdout)
    assert data["format"] == 1 and data["params"] == {"size": 4, "pie": True}
    assert data["counts"] == {str(d): entry.counts[d] for d in (1, 2, 3)}
    assert sum(data["divide"].values()) == entry.counts[3]
    assert list(data["divide"]) == state.legal_moves()
    assert "perft  3" in result.stderr and "total" in result.stderr  # the text goes to stderr


def test_perft_edge_cases():
    assert territory.Tabik(size=2).perft(0) == 1
    over = territory.Tabik(size=2)
    while not over.is_over:
        over.apply_action(over.legal_actions()[0])
    assert over.perft(1) == 0 and over.perft(0) == 1
    for bad in (-1, 1001, True, 2.0, "3"):
        with pytest.raises(ValueError, match="depth must be an int from 0 to 1000"):
            territory.Nume(n=1).perft(bad)


@pytest.mark.parametrize(("args", "words"), [
    (["perft", "tabik", "--depth", "-1"], ["--depth"]),
    (["perft", "tabik", "--depth", "2", "--position", "nonsense"], ["--position", "bad position"]),
    (["perft", "tabik", "--depth", "2", "--n", "3"], ["--n", "does not apply to tabik"]),
    (["perft", "nume", "--depth", "1", "--json", "/no/such/dir/x.json"], ["--json", "does not exist"]),
])
def test_perft_bad_input_is_one_line(args, words):
    assert_one_line_error(run(*args), *words)


# --- vectors ----------------------------------------------------------------------------------

#: Tags every game's shipped vectors must have.
COMMON_TAGS = {"start", "over", "border-move", "corner-move"}
TAGS = {name: COMMON_TAGS | set(data.VECTOR_TAGS) for name, data in test_games.modules().items()}


@pytest.mark.parametrize("game", sorted(territory.GAMES))
def test_shipped_vectors_cover_the_edge_cases_and_hold(game):
    shipped = vectors.shipped(game)
    assert TAGS[game] <= {t for v in shipped for t in v["tags"]}
    assert len({v["id"] for v in shipped}) == len(shipped)
    sets = {json.dumps(v["params"], sort_keys=True) for v in shipped}
    assert sets == {json.dumps(p, sort_keys=True) for p in vectors.parameter_sets(game)}
    for v in shipped:  # the engine still gives every recorded answer
        state = territory.new_game(game, **v["params"])
        for move in v["moves"]:
            state.play(move)
        driver.check_vector(state, v)
        assert set(v["tags"]) == set(vectors.tags_of(state))


@pytest.mark.parametrize("game", list(territory.GAMES))
def test_hand_worked_games_are_in_the_shipped_vectors(game):
    shipped = {v["id"].split("-", 2)[2]: v for v in vectors.shipped(game)}
    assert vectors.hand_worked(game)
    for name, params, moves in vectors.hand_worked(game):
        assert shipped[name]["moves"] == moves
        assert shipped[name]["params"] == territory.new_game(game, **params).params


def test_migong_mirror_games_end_zero_zero_and_the_last_mover_loses():
    import random

    from territory.games import migong

    for params in vectors.parameter_sets("migong"):
        moves = migong.mirror_game(params, random.Random(5))
        if params["border"] != "alternate":
            assert moves is None  # the half turn does not map a one-colour border
            continue
        state = territory.new_game("migong", **params)
        for move in moves:
            state.play(move)
        assert state.is_over and state.scores() == (0, 0) and state.history[-2:] == ["pass", "pass"]
        assert state.winner == 1 - state.last_mover


def test_parameter_sets_come_from_the_engine_description():
    assert vectors.parameter_sets("tabik") == [
        {"size": 8, "pie": True}, {"size": 2, "pie": True}, {"size": 3, "pie": True},
        {"size": 8, "pie": False}, {"size": 2, "pie": False}, {"size": 3, "pie": False},
    ]
    migong = vectors.parameter_sets("migong")
    assert {p["border"] for p in migong} == {"alternate", "blue", "yellow"}
    assert {p["group_size"] for p in migong} == {"extent", "wedges"}
    nume = vectors.parameter_sets("nume")
    assert any(p["komi"] is None and p["square"] == 2 for p in nume)
    assert any(p["komi_phase"] for p in nume) and any(p["komi_to"] == "white" for p in nume)


@pytest.mark.parametrize("game", ["tabik", pytest.param("nume", marks=pytest.mark.slow),
                                  pytest.param("migong", marks=pytest.mark.slow)])
def test_shipped_vectors_are_what_the_command_writes(game, tmp_path):
    out = tmp_path / f"{game}.jsonl.gz"
    result = run("vectors", game, "--out", str(out))
    assert result.returncode == 0, result.stderr
    fresh = json.loads("[" + ",".join(gzip.decompress(out.read_bytes()).decode().splitlines()[1:]) + "]")
    assert fresh == vectors.shipped(game)


def test_vectors_for_given_options_to_stdout():
    result = run("vectors", "nume", "--square", "2", "--komi", "none", "--out", "-")
    assert result.returncode == 0, result.stderr
    head, made = vectors.read(io.StringIO(result.stdout), "nume")
    assert head["format"] == "territory-vectors" and head["version"] == vectors.VERSION
    assert made and all(v["params"]["square"] == 2 and v["params"]["komi"] is None for v in made)
    assert "draw" in {t for v in made for t in v["tags"]}
    assert "vectors over 1 parameter sets" in result.stderr


def test_reading_a_vectors_file_checks_its_header():
    good = json.dumps(vectors.header("tabik")) + "\n"
    assert vectors.read(io.StringIO(good), "tabik") == (vectors.header("tabik"), [])
    with pytest.raises(ValueError, match="version 99"):
        vectors.read(io.StringIO(good.replace('"version": 1', '"version": 99')))
    with pytest.raises(ValueError, match="not 'nume'"):
        vectors.read(io.StringIO(good), "nume")
    with pytest.raises(ValueError, match="line 2: a vector needs"):
        vectors.read(io.StringIO(good + '{"id": "x"}\n'))


def test_a_stale_vector_is_refused(tmp_path):
    [first, *_] = sorted(vectors.shipped("tabik"), key=lambda v: -len(v["moves"]))
    path = tmp_path / "stale.jsonl"
    path.write_text(json.dumps(vectors.header("tabik")) + "\n" + json.dumps({**first, "scores": [7, 7]}) + "\n")
    result = run("crosscheck", "tabik", "--engine", ADAPTER, "--vectors", str(path), "--games", "0")
    assert_one_line_error(result, first["id"], "scores", "another version")


def test_a_stale_vector_names_the_first_answer_that_differs_in_80_characters():
    state = territory.Tabik()
    vector = vectors.vector(state, "tabik-0-r0-0", [])
    driver.check_vector(state, vector)
    driver.check_vector(state, {"id": "bare", "params": vector["params"], "moves": []})  # nothing recorded to check
    stale = "(vectors of another version? make new ones with territory vectors)"
    for key, value, message in [
        ("scores", [7, 7], "vector tabik-0-r0-0: this territory gives scores [0, 0], the file records [7, 7] "),
        ("legal_moves", vector["legal_moves"] + ["z9-z8"],
         "vector tabik-0-r0-0: this territory gives legal_moves a1-b1, b1-a1, b1-c1, c1-b1, c1-d1, d1-c1, d1-e1, e1-d1, "
         "e1-f1, f1-e1, ... (224 m, the file records a1-b1, b1-a1, b1-c1, c1-b1, c1-d1, d1-c1, d1-e1, e1-d1, e1-f1, "
         "f1-e1, ... (225 m "),
        ("position", "x" * 100, "vector tabik-0-r0-0: this territory gives position '8/8/8/8/8/8/8/8 0 w 0 -', the file"
         " records '" + "x" * 79 + " "),
    ]:
        with pytest.raises(driver.StaleVectorError) as error:
            driver.check_vector(state, {**vector, key: value, "winner": 1})  # the first key of RECORDED is named
        assert str(error.value) == message + stale


# --- crosscheck against the reference -------------------------------------------------------------


def test_the_documented_adapter_is_the_shipped_one():
    text = (ROOT / "docs" / "crosscheck.md").read_text()
    source = Path(adapter.__file__).read_text()
    assert f"```python\n{source}```" in text
    assert len(source.splitlines()) <= 50


@pytest.mark.parametrize(("game", "games"), [("tabik", 10), ("nume", 5)])
def test_reference_through_the_adapter_agrees(game, games, tmp_path):
    out = tmp_path / "report.json"
    result = run("crosscheck", game, "--engine", ADAPTER, "--games", str(games), "--seed", "3", "--json", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 disagreements" in result.stdout
    [report] = json.loads(out.read_text())
    assert report["agree"] and report["disagreement"] is None
    assert report["vectors"] == len(vectors.shipped(game)) and report["random_games"] == games
    assert report["steps"] > 100


def test_reference_migong_agrees_on_short_vectors(tmp_path):
    """The reference's Migong is slow (a few seconds per game): the shortest vectors."""
    short = [v for v in vectors.shipped("migong") if len(v["moves"]) <= 2 or v["over"] and len(v["moves"]) <= 20]
    assert len({json.dumps(v["params"]) for v in short}) >= 3
    path = tmp_path / "short.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [vectors.header("migong"), *short]))
    result = run("crosscheck", "migong", "--engine", ADAPTER, "--vectors", str(path), "--games", "0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 disagreements" in result.stdout


def test_reference_with_game_options_agrees():
    result = run("crosscheck", "tabik", "--engine", ADAPTER, "--size", "3", "--pie", "--games", "5")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 random games" in result.stdout and "0 disagreements" in result.stdout


# --- broken adapters -------------------------------------------------------------------------

BROKEN = {
    "wrong tie-break": ("tabik", """
        from territory.crosscheck.wrong_tie_break import WrongTieBreak as Broken
        """, "results (over, winner) differ", 6),
    "missing pass": ("tabik", """
        from territory.reference.tabik import Tabik

        class Broken(Tabik):
            def legal_moves(self):
                return [m for m in super().legal_moves() if m != "pass"]
        """, "legal moves differ", 4),
    "wrong group price": ("nume", """
        import dataclasses
        from territory.reference.nume import Nume

        class Broken(Nume):
            def groups(self):  # w - size instead of |w - size|
                return [dataclasses.replace(g, price=max((w - g.size for w in g.numbers), default=0))
                        for g in super().groups()]
        """, "scores differ", 2),
    "seat 1's score": ("tabik", """
        from territory.reference.tabik import Tabik

        class Broken(Tabik):
            def scores(self):  # seat 0's score right, seat 1's one too high once it scores
                s0, s1 = super().scores()
                return (s0, s1 + 1 if s1 else s1)
        """, "scores differ", 3),
}


def broken_adapter(tmp_path: Path, game: str, source: str) -> str:
    path = tmp_path / "broken.py"
    path.write_text(textwrap.dedent(source) + textwrap.dedent(f"""
        from territory.crosscheck import adapter
        adapter.GAMES = {{**adapter.GAMES, {game!r}: Broken}}
        adapter.main()
        """))
    return f"{sys.executable} {path}"


@pytest.mark.parametrize("bug", list(BROKEN))
def test_a_broken_adapter_is_found_and_shrunk(bug, tmp_path):
    game, source, what, longest = BROKEN[bug]
    out = tmp_path / "report.json"
    result = run("crosscheck", game, "--engine", broken_adapter(tmp_path, game, source), "--json", str(out))
    assert result.returncode == 1, result.stdout + result.stderr
    assert what in result.stdout
    [report] = json.loads(out.read_text())
    found = report["disagreement"]
    assert not report["agree"] and 0 < len(found["moves"]) <= longest, found
    assert len(found["moves"]) <= report["found_after_moves"]
    # The shrunk sequence still disagrees, and is legal: replayed by hand it shows the bug.
    with driver.Engine(broken_adapter(tmp_path, game, source)) as engine:
        checker = driver.Checker(engine, game)
        again = checker.replay(found["params"], found["moves"])
    assert again is not None and again.moves == found["moves"] and again.what in what
    assert f"after {len(found['moves'])} moves: {'; '.join(found['moves'])}" in result.stdout
    with driver.Engine(broken_adapter(tmp_path, game, source)) as engine:
        assert_minimal(driver.Checker(engine, game), again)


@pytest.mark.parametrize("game", ["tabik", "nume"])
def test_legal_moves_in_another_order_agree(game, tmp_path):
    """docs/crosscheck.md: legal moves in any order."""
    source = f"""
        from territory.reference.{game} import {game.title()}

        class Broken({game.title()}):
            def legal_moves(self):
                return super().legal_moves()[::-1]
        """
    result = run("crosscheck", game, "--engine", broken_adapter(tmp_path, game, source), "--games", "3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 disagreements" in result.stdout


def test_the_documented_wrong_engine_is_shipped_and_prints_what_the_docs_show():
    text = (ROOT / "docs" / "crosscheck.md").read_text()
    block = re.search(r'```\n\$ (territory crosscheck tabik --engine "python -m ([\w.]+)")\n(.*?)```', text, re.S)
    assert block and block[2] == "territory.crosscheck.wrong_tie_break"
    result = run("crosscheck", "tabik", "--engine", f"{sys.executable} -m {block[2]}")
    assert result.returncode == 1, result.stdout + result.stderr

    def timeless(out):
        return re.sub(r" in [\d.]+ s:", " in T s:", out)

    assert timeless(result.stdout) == timeless(block[3])


def test_shrinking_removes_moves_that_do_not_matter(tmp_path):
    """A long random game on 3 x 3 whose only fault is the end: shrunk to a short game."""
    game, source, _, _ = BROKEN["wrong tie-break"]
    with driver.Engine(broken_adapter(tmp_path, game, source)) as engine:
        checker = driver.Checker(engine, game)
        params = {"size": 3, "pie": True}
        rng = __import__("random").Random(1)
        for _ in range(200):
            moves = driver.random_game(game, params, rng)
            found = checker.replay(params, moves)
            if found is not None and len(found.moves) >= 10:
                break
        assert found is not None and len(found.moves) >= 10
        shrunk, replays = driver.shrink(checker, found)
    assert len(shrunk.moves) < len(found.moves) and replays > 0
    assert driver.legal_sequence(game, params, shrunk.moves)


# --- shrinking, on planted bugs --------------------------------------------------------------


class InProcessEngine:
    """An engine in this process that answers as territory itself; records each
    request's step text."""

    def __init__(self):
        self.steps = []

    def ask(self, request, step):
        self.steps.append(step)
        cmd = request["cmd"]
        if cmd == "new":
            assert request["protocol"] == driver.PROTOCOL_VERSION
            self.state = territory.new_game(request["game"], **request["params"])
        elif cmd == "play":
            self.state.play(request["move"])
        elif cmd == "legal_moves":
            return {"moves": self.state.legal_moves()}
        elif cmd == "scores":
            return {"scores": list(self.state.scores())}
        elif cmd == "winner":
            return {"over": self.state.is_over, "winner": self.state.winner}
        return {"ok": True}


class PlantedEngine(InProcessEngine):
    """territory itself, except that its scores are wrong wherever ``bug(moves)`` holds.
    Records each replay: its moves, and whether the bug showed in it."""

    def __init__(self, bug):
        super().__init__()
        self.bug, self.replays = bug, []

    def ask(self, request, step):
        reply = super().ask(request, step)
        cmd = request["cmd"]
        if cmd == "new":
            self.replays.append(([], False))
        elif cmd == "play":
            self.replays[-1][0].append(request["move"])
        elif cmd == "scores" and self.bug(self.state.history):
            self.replays[-1] = (self.replays[-1][0], True)
            reply["scores"][1] += 1
        return reply


#: Nume on 5 x 5 with stones only on cells no two of which are adjacent: every stone
#: starts a group, so any order of these moves is legal, and a stone's colour is the
#: parity of its place in the sequence (black first).
NUME = {"n": 4, "square": 5, "komi": 0.5, "komi_to": "black", "komi_phase": False}


def black(moves, cell):
    return f"{cell}=0" in moves[::2]


def white(moves, cell):
    return f"{cell}=0" in moves[1::2]


def planted(bug, moves):
    """The checker of a planted engine, and the disagreement ``moves`` show."""
    engine = PlantedEngine(bug)
    checker = driver.Checker(engine, "nume")
    found = checker.replay(NUME, [f"{m}=0" for m in moves])
    assert found is not None and len(found.moves) == len(moves)
    engine.replays.clear()
    return engine, checker, found


def single_run_and_pair_deletions(moves):
    n = len(moves)
    for start in range(n):
        for stop in range(start + 1, n + 1):
            yield moves[:start] + moves[stop:]
    for i in range(n):
        for j in range(i + 2, n):
            yield moves[:i] + moves[i + 1:j] + moves[j + 1:]


def assert_minimal(checker, shrunk):
    """No deletion of one move, of a run of moves or of two moves from ``shrunk`` still
    disagrees."""
    for candidate in single_run_and_pair_deletions(shrunk.moves):
        if driver.legal_sequence(shrunk.game, shrunk.params, candidate):
            assert checker.replay(shrunk.params, candidate) is None, candidate


#: Planted bugs in Nume: the bug, the sequence that first shows it, and the length of
#: the shortest one that does.
PLANTED = {
    # Deleting an odd number of moves swaps the colour of e5: only an even run helps.
    "black a1 and e5": (lambda m: black(m, "a1") and black(m, "e5"), ["a1", "a3", "a5", "c1", "c3", "c5", "e5"], 3),
    "black a1 and e5, not first": (lambda m: black(m, "a1") and black(m, "e5"), ["c1", "a3", "a1", "c3", "e5"], 3),
    # c3 of either colour, but no run keeps it and e5's colour: only a pair helps.
    "black a1, c3, black e5": (lambda m: black(m, "a1") and "c3=0" in m and black(m, "e5"), ["a1", "a3", "c3", "a5", "e5"], 3),
    # Nine moves: the halvings are 4, 2 and 1 (none of 4 or 2 helps after the first success).
    "black a1, a5 and e5 in 9 moves": (
        lambda m: black(m, "a1") and black(m, "a5") and black(m, "e5"),
        ["a1", "a3", "a5", "c1", "c3", "c5", "e1", "e3", "e5"], 5,
    ),
    # The halves and single moves of the old shrinker left this at 7 moves.
    "white c1, black c5 after 5 moves": (
        lambda m: len(m) >= 5 and white(m, "c1") and black(m, "c5"), ["a1", "a3", "a5", "c1", "c3", "e1", "c5"], 5,
    ),
}


@pytest.mark.parametrize("bug", list(PLANTED))
def test_a_shrunk_disagreement_is_minimal(bug):
    test, moves, shortest = PLANTED[bug]
    engine, checker, found = planted(test, moves)
    shrunk, replays = driver.shrink(checker, found)
    assert len(shrunk.moves) == shortest, shrunk.moves
    assert replays == len(engine.replays) and shrunk.what == "scores"
    assert_minimal(checker, shrunk)


def test_shrinking_never_replays_what_must_agree():
    """Every prefix of a first disagreement agrees: deleting the last run of moves is a
    wasted replay, and so is any sequence that an earlier replay already showed agreeing."""
    test, moves, _ = PLANTED["black a1 and e5"]
    engine, checker, found = planted(test, moves)
    shrunk, replays = driver.shrink(checker, found)
    disagreed = [found.moves]
    for i, (replayed, showed) in enumerate(engine.replays):
        assert not any(replayed == d[:len(replayed)] for d in disagreed), replayed
        assert replayed not in [r for r, _ in engine.replays[:i]], replayed
        if showed:
            disagreed.append(replayed)
    assert replays == len(engine.replays) == 16


#: Each candidate a shrinking replays, in order (the cells of its moves), and whether it
#: disagreed: halves then single moves; then runs of every size, longest first, and
#: pairs, from the start again after each success.
REPLAYED = {
    "black a1 and e5": [
        ("c1 c3 c5 e5", False), ("a1 c3 c5 e5", False), ("a1 a3 c5 e5", False), ("a1 a3 a5 e5", False),
        ("a3 a5 c1 c3 c5 e5", False), ("a1 a5 c1 c3 c5 e5", False), ("a1 a3 c1 c3 c5 e5", False),
        ("a1 a3 a5 c3 c5 e5", False), ("a1 a3 a5 c1 c5 e5", False), ("a1 a3 a5 c1 c3 e5", False),
        ("e5", False), ("c5 e5", False), ("a1 e5", False), ("c3 c5 e5", False), ("a1 c5 e5", True), ("c5", False),
    ],
    "black a1, a5 and e5 in 9 moves": [
        ("c3 c5 e1 e3 e5", False), ("a1 c5 e1 e3 e5", False), ("a1 a3 e1 e3 e5", False), ("a1 a3 a5 e3 e5", True),
        ("a5 e3 e5", False), ("a1 e3 e5", False), ("a1 a3 e5", False), ("a3 a5 e3 e5", False), ("a1 a5 e3 e5", False),
        ("a1 a3 e3 e5", False), ("a1 a3 a5 e5", False), ("e5", False), ("e3 e5", False), ("a1 e5", False),
        ("a3 e3 e5", False), ("a3 a5 e5", False), ("a3 a5 e3", False), ("a1 a5 e5", False), ("a1 a5 e3", False),
        ("a1 a3 e3", False),
    ],
    "white c1, black c5 after 5 moves": [
        ("c1 c3 e1 c5", False), ("a1 c3 e1 c5", False), ("a1 a3 e1 c5", False), ("a1 a3 a5 c5", False),
        ("a3 a5 c1 c3 e1 c5", False), ("a1 a5 c1 c3 e1 c5", False), ("a1 a3 c1 c3 e1 c5", False),
        ("a1 a3 a5 c3 e1 c5", False), ("a1 a3 a5 c1 e1 c5", False), ("a1 a3 a5 c1 c3 c5", False),
        ("c5", False), ("e1 c5", False), ("a1 c5", False), ("c3 e1 c5", False), ("a1 e1 c5", False),
        ("a1 a3 c5", False), ("a5 c1 c3 e1 c5", True), ("a5 c5", False), ("a5 e1 c5", False), ("a5 c1 c5", False),
        ("a5 c3 e1 c5", False), ("a5 c1 e1 c5", False), ("a5 c1 c3 c5", False), ("c1 e1 c5", False),
        ("c1 c3 c5", False), ("c1 c3 e1", False), ("a5 c3 c5", False), ("a5 c3 e1", False), ("a5 c1 e1", False),
    ],
}


@pytest.mark.parametrize("bug", list(REPLAYED))
def test_shrinking_tries_its_deletions_in_order(bug):
    test, moves, _ = PLANTED[bug]
    engine, checker, found = planted(test, moves)
    driver.shrink(checker, found)
    assert [(" ".join(m.removesuffix("=0") for m in replayed), showed) for replayed, showed in engine.replays] == REPLAYED[bug]


def test_deletions_are_runs_that_leave_more_than_a_prefix():
    assert list(driver.deletions(4, [2, 1])) == [(0, 2), (1, 3), (0, 1), (1, 2), (2, 3)]
    assert list(driver.deletions(1, [1])) == [] and list(driver.deletions(3, [3])) == []


def test_shrinking_stops_at_its_budget():
    test, moves, _ = PLANTED["black a1, c3, black e5"]
    engine, checker, found = planted(test, moves)
    shrunk, replays = driver.shrink(checker, found, budget=3)
    assert replays == len(engine.replays) == 3 and shrunk.moves == found.moves


# --- engines that fail -------------------------------------------------------------------------


def engine_script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "engine.py"
    path.write_text("import json, sys, time\n" + textwrap.dedent(body))
    return f"{sys.executable} {path}"


@pytest.mark.parametrize(("body", "words"), [
    ("sys.exit(0)\n", ["vector tabik-0-r0-0, new: ", "closed its output", "exited with code 0"]),
    ("""
     sys.stdin.readline(); print(json.dumps({"ok": True}), flush=True)
     sys.stdin.readline(); sys.stderr.write("boom: out of memory\\n"); sys.exit(3)
     """, ["legal_moves after 0 moves", "exited with code 3", "boom: out of memory"]),
    ("""
     for line in sys.stdin:
         time.sleep(60)
     """, ["vector tabik-0-r0-0, new: ", "no reply within 0.5 s"]),
    ("""
     for line in sys.stdin:
         print("hello", flush=True)
     """, ["vector tabik-0-r0-0, new: ", "not JSON", "'hello'"]),
    ("""
     sys.stdin.readline(); print(json.dumps({"ok": True}), flush=True)
     for line in sys.stdin:
         print(json.dumps({"moves": 3}), flush=True)
     """, ["legal_moves", "'moves' must be a list of strings"]),
    ("""
     sys.stdin.readline(); print(json.dumps({"ok": True}), flush=True)
     sys.stdin.readline(); print(json.dumps([1, 2]), flush=True)
     """, ["legal_moves", "not a JSON object"]),
])
def test_a_failing_engine_gets_a_clear_message(tmp_path, body, words):
    # A short timeout for the engine that hangs; a long one for the others (a loaded
    # machine may take seconds to start Python).
    timeout = "0.5" if "no reply within" in words[-1] else "60"
    result = run("crosscheck", "tabik", "--engine", engine_script(tmp_path, body), "--timeout", timeout, timeout=120)
    line = assert_one_line_error(result, *words)
    assert line.startswith("territory crosscheck: error: engine")


def test_an_endless_reply_line_is_refused_with_memory_bounded(tmp_path):
    """A 200 MB reply line: refused once it passes the bound, never read whole."""
    engine = engine_script(tmp_path, """
     sys.stdin.readline(); print(json.dumps({"ok": True}), flush=True)
     sys.stdin.readline()
     chunk = "x" * 2**20
     for _ in range(200):
         sys.stdout.write(chunk)
     """)
    measure = textwrap.dedent(f"""
        import resource, subprocess, sys
        result = subprocess.run([sys.executable, "-m", "territory", "crosscheck", "tabik", "--engine", {engine!r}],
                                capture_output=True, text=True, timeout=120)
        print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
        print(result.stderr.strip())
        """)
    out = subprocess.run([sys.executable, "-c", measure], capture_output=True, text=True, timeout=180, check=True).stdout
    status, megabytes = map(int, out.splitlines()[0].split())
    assert status == 2 and "Traceback" not in out
    [line] = out.splitlines()[1:]
    assert "legal_moves after 0 moves: the reply is longer than 8,388,608 characters without an end of line" in line
    assert megabytes < 150, out  # the largest process, the driver (reading it whole took 400 MB and more)


@pytest.mark.parametrize(("engine", "words"), [
    ("/no/such/engine --flag", ["cannot start the engine '/no/such/engine'", "No such file"]),
    ("", ["the engine command is empty"]),
    ("'unclosed", ["cannot read the engine command"]),
])
def test_an_engine_that_cannot_start(engine, words):
    assert_one_line_error(run("crosscheck", "tabik", "--engine", engine), *words)


def test_crosscheck_bad_arguments():
    assert_one_line_error(run("crosscheck", "tabik", "--engine", ADAPTER, "--timeout", "0"), "--timeout")
    assert_one_line_error(run("crosscheck", "tabik", "--engine", ADAPTER, "--vectors", "/no/such.jsonl"), "--vectors", "cannot read")
    assert_one_line_error(run("crosscheck", "tabik", "--engine", ADAPTER, "--komi", "2.5"), "--komi")


def test_an_engine_refusal_is_a_disagreement(tmp_path):
    body = """
     for line in sys.stdin:
         print(json.dumps({"error": "no such game here"}), flush=True)
     """
    result = run("crosscheck", "tabik", "--engine", engine_script(tmp_path, body))
    assert result.returncode == 1
    assert "new game differ" in result.stdout and "refused: no such game here" in result.stdout
    assert re.search(r"after 0 moves: \(none: the start position\)", result.stdout)


class RefusingEngine(InProcessEngine):
    """territory itself, except that it refuses the request ``refuse`` (a command name)
    once ``moves`` moves have been played."""

    def __init__(self, refuse, moves=0):
        super().__init__()
        self.refuse, self.moves = refuse, moves

    def ask(self, request, step):
        cmd = request["cmd"]
        if cmd == self.refuse and (cmd == "new" or len(self.state.history) >= self.moves):
            self.steps.append(step)
            raise driver.Refused(f"no {cmd} here")
        return super().ask(request, step)


TABIK_2 = {"size": 2, "pie": True}


def refusal_after(refuse, moves=0, played=("a1-b1", "swap")):
    """What the checker reports when the engine refuses ``refuse`` (after ``moves``
    moves) in a replay of ``played`` on Tabik 2x2, and the checker and engine."""
    engine = RefusingEngine(refuse, moves)
    checker = driver.Checker(engine, "tabik")
    return checker.replay(TABIK_2, list(played)), checker, engine


@pytest.mark.parametrize("refuse, what, ours", [
    ("legal_moves", "legal moves", lambda s: s.legal_moves()),
    ("scores", "scores", lambda s: list(s.scores())),
    ("winner", "results (over, winner)", lambda s: {"over": s.is_over, "winner": s.winner}),
])
def test_each_refused_request_is_reported_whole(refuse, what, ours):
    found, checker, engine = refusal_after(refuse, moves=1)
    state = territory.Tabik(**TABIK_2)
    state.play("a1-b1")
    assert found == driver.Disagreement("tabik", TABIK_2, ["a1-b1"], what, ours(state), f"refused: no {refuse} here")
    assert checker.steps == 2  # the start, then after the first move
    assert f"{refuse} after 1 moves" in engine.steps[-1]


def test_a_refused_new_game_and_a_refused_move_are_reported_whole():
    found, checker, engine = refusal_after("new")
    assert found == driver.Disagreement("tabik", TABIK_2, [], "new game", "accepted", "refused: no new here")
    assert (checker.steps, checker.requests, engine.steps) == (0, 1, ["new"])
    found, checker, engine = refusal_after("play", moves=1)
    assert found == driver.Disagreement("tabik", TABIK_2, ["a1-b1", "swap"], "play", "legal", "refused: no play here")
    assert engine.steps[-1] == "play swap (move 2)"
    assert checker.steps == 2 and checker.requests == 1 + 3 + 1 + 3 + 1


def test_an_agreeing_replay_counts_every_step_and_request():
    found, checker, engine = refusal_after(None)
    assert found is None
    # new, then legal moves, scores and winner at the start and after each of 2 moves
    assert (checker.steps, checker.requests, len(engine.steps)) == (3, 1 + 3 * 3 + 2, 12)
    assert engine.steps[:4] == ["new", "legal_moves after 0 moves", "scores after 0 moves", "winner after 0 moves"]
    assert checker.state.history == ["a1-b1", "swap"]


class WrongEngine(InProcessEngine):
    """territory itself with one wrong answer from the start: seat 1's score one more,
    the game over at once, one legal move missing and another added, or the first legal
    move listed twice."""

    def __init__(self, wrong):
        super().__init__()
        self.wrong = wrong

    def ask(self, request, step):
        reply = super().ask(request, step)
        if self.wrong == "scores" and request["cmd"] == "scores":
            reply["scores"][1] += 1
        if self.wrong == "winner" and request["cmd"] == "winner":
            reply = {"over": True, "winner": 0}
        if self.wrong == "moves" and request["cmd"] == "legal_moves":
            reply["moves"] = reply["moves"][1:] + ["z9-z8"]
        if self.wrong == "twice" and request["cmd"] == "legal_moves":
            reply["moves"] = reply["moves"] + reply["moves"][:1]
        return reply


class SizeThreeEngine(InProcessEngine):
    """territory itself, except that seat 1's score is one more on a 3 x 3 board."""

    def ask(self, request, step):
        reply = super().ask(request, step)
        if request["cmd"] == "scores" and self.state.params["size"] == 3:
            reply["scores"][1] += 1
        return reply


def test_replaying_once_skips_only_positions_compared_with_the_same_parameters():
    checker = driver.Checker(SizeThreeEngine(), "tabik")
    assert checker.replay(TABIK_2, ["a1-b1"], once=True) is None and checker.steps == 2
    assert checker.replay({"pie": True, "size": 2}, ["a1-b1", "swap"], once=True) is None
    assert checker.steps == 3  # the new position only: the parameters' order does not matter
    found = checker.replay({"size": 3, "pie": True}, [], once=True)
    assert found == driver.Disagreement("tabik", {"size": 3, "pie": True}, [], "scores", [0, 0], [0, 1])
    two, three = '{"pie": true, "size": 2}', '{"pie": true, "size": 3}'
    assert checker.compared == {(two, ()), (two, ("a1-b1",)), (two, ("a1-b1", "swap")), (three, ())}
    assert checker.replay(TABIK_2, ["a1-b1"]) is None and checker.steps == 6  # without once, every position


def test_a_move_listed_twice_is_reported_as_extra():
    found = driver.Checker(WrongEngine("twice"), "tabik").replay(TABIK_2, [])
    start = territory.Tabik(**TABIK_2).legal_moves()
    assert found == driver.Disagreement("tabik", TABIK_2, [], "legal moves", sorted(start),
                                        {"missing": [], "extra": [start[0]]})


@pytest.mark.parametrize("wrong, what, ours, theirs", [
    ("scores", "scores", [0, 0], [0, 1]),
    ("winner", "results (over, winner)", {"over": False, "winner": None}, {"over": True, "winner": 0}),
])
def test_a_wrong_answer_is_reported_whole(wrong, what, ours, theirs):
    engine = WrongEngine(wrong)
    found = driver.Checker(engine, "tabik").replay(TABIK_2, ["a1-b1"])
    assert found == driver.Disagreement("tabik", TABIK_2, [], what, ours, theirs)


def test_a_missing_and_an_extra_move_are_both_reported():
    engine = WrongEngine("moves")
    found = driver.Checker(engine, "tabik").replay(TABIK_2, [])
    start = territory.Tabik(**TABIK_2).legal_moves()
    assert found == driver.Disagreement("tabik", TABIK_2, [], "legal moves", sorted(start),
                                        {"missing": [start[0]], "extra": ["z9-z8"]})
