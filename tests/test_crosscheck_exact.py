"""The cross-check kit's protocol and vectors (territory.crosscheck.protocol, .vectors)
checked exactly and in this process (issue 36, mutation testing): the driver's side of
the protocol against small scripted engines (each reply check, each failure's whole
message, the longest reply line at its bound, the end request), and the vectors file's
header, writing, reading, compression and generation."""

from __future__ import annotations

import gzip
import io
import json
import shlex
import signal
import sys
import textwrap
import time

import pytest

import territory
from territory.crosscheck import protocol, vectors
from territory.crosscheck.protocol import MAX_REPLY, Engine, EngineError, Refused

#: An engine that answers each request with its "reply" field, as given, or its
#: "bytes" (in hex; no reply without either), and logs every request line to the file named by its argument.
#: "exit" makes it then write "stderr" (and "stderr_bytes", in hex) to its standard
#: error and exit with that code; "close_output" closes its standard output and runs on;
#: "ignore_end" replies and then runs on until killed; "close_input" closes its standard input, replies and exits 5.
ECHO = """
import json, os, signal, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line); log.flush()
    request = json.loads(line)
    if request.get("close_input"):
        os.close(0)
        print(json.dumps({"ok": True}), flush=True)
        sys.exit(5)
    if "reply" in request:
        sys.stdout.write(request["reply"]); sys.stdout.flush()
    if "bytes" in request:
        sys.stdout.buffer.write(bytes.fromhex(request["bytes"])); sys.stdout.flush()
    if request.get("ignore_end"):
        print(json.dumps({"ok": True}), flush=True)
        log.write(sys.stdin.read()); log.flush()
        signal.pause()  # after its input ends too: until killed
    if request.get("close_output"):
        os.close(1)
        sys.stdin.read()  # runs on until its input ends
        sys.exit(0)
    if "exit" in request:
        sys.stderr.buffer.write(request.get("stderr", "").encode() + bytes.fromhex(request.get("stderr_bytes", "")))
        sys.stderr.flush()
        sys.exit(request["exit"])
"""


@pytest.fixture
def echo(tmp_path):
    script = tmp_path / "echo.py"
    script.write_text(textwrap.dedent(ECHO))
    log = tmp_path / "log"
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}"
    engine = Engine(command, timeout=60)
    yield engine, command, log
    engine.close()


def failure(engine, request, step="a step"):
    with pytest.raises(EngineError) as error:
        engine.ask(request, step)
    return str(error.value)


# --- protocol ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "message"), [
    ("'unclosed", "cannot read the engine command \"'unclosed\": No closing quotation"),
    ("", "the engine command is empty"),
    ("   ", "the engine command is empty"),
    ("/no/such/engine --flag", "cannot start the engine '/no/such/engine': No such file or directory"),
])
def test_an_engine_that_cannot_start_says_why(command, message):
    with pytest.raises(EngineError) as error:
        Engine(command)
    assert str(error.value) == message
    assert error.value.__cause__ is None


def test_replies_are_returned_and_the_end_request_is_sent(echo):
    engine, command, log = echo
    assert (engine.command, engine.timeout) == (command, 60)
    with Engine(command) as default:
        assert default.timeout == 10.0
    assert engine.ask({"cmd": "new", "reply": '{"ok": true, "more": 1}\n'}, "new") == {"ok": True, "more": 1}
    assert engine.ask({"cmd": "legal_moves", "reply": '{"moves": ["a1", "b2"]}\n'}, "s") == {"moves": ["a1", "b2"]}
    with engine as same:
        assert same is engine
    assert engine.process.returncode == 0
    assert [json.loads(line) for line in log.read_text().splitlines()] == [
        {"cmd": "end"},  # the engine with the default timeout, closed at once
        {"cmd": "new", "reply": '{"ok": true, "more": 1}\n'},
        {"cmd": "legal_moves", "reply": '{"moves": ["a1", "b2"]}\n'},
        {"cmd": "end"},
    ]


GOOD = [
    ("new", {"ok": True}), ("play", {"ok": True}), ("legal_moves", {"moves": []}),
    ("legal_moves", {"moves": ["a1-a2", "pass"]}), ("scores", {"scores": [1, 2.5]}), ("scores", {"scores": [0.0, -3]}),
    ("winner", {"over": False, "winner": None}), ("winner", {"over": True, "winner": 0}),
    ("winner", {"over": True, "winner": 1}),
]

BAD = [
    ("new", {}, "the reply has no 'ok': '{}'"),
    ("new", {"ok": 1}, "the reply's 'ok' must be true: '{\"ok\": 1}'"),
    ("play", {"ok": False}, "the reply's 'ok' must be true: '{\"ok\": false}'"),
    ("legal_moves", {"moves": "a1"}, "the reply's 'moves' must be a list of strings: '{\"moves\": \"a1\"}'"),
    ("legal_moves", {"moves": ["a1", 2]}, "the reply's 'moves' must be a list of strings: '{\"moves\": [\"a1\", 2]}'"),
    ("scores", {"scores": [1]}, "the reply's 'scores' must be a list of two numbers: '{\"scores\": [1]}'"),
    ("scores", {"scores": [1, 2, 3]}, "the reply's 'scores' must be a list of two numbers: '{\"scores\": [1, 2, 3]}'"),
    ("scores", {"scores": [True, 1]}, "the reply's 'scores' must be a list of two numbers: '{\"scores\": [true, 1]}'"),
    ("scores", {"scores": [1, "2"]}, "the reply's 'scores' must be a list of two numbers: '{\"scores\": [1, \"2\"]}'"),
    ("scores", {"scores": "12"}, "the reply's 'scores' must be a list of two numbers: '{\"scores\": \"12\"}'"),
    ("winner", {"winner": 0}, "the reply has no 'over': '{\"winner\": 0}'"),
    ("winner", {"over": 1, "winner": 0}, "the reply's 'over' must be true or false: '{\"over\": 1, \"winner\": 0}'"),
    ("winner", {"over": True}, "the reply has no 'winner': '{\"over\": true}'"),
    ("winner", {"over": True, "winner": 2}, "the reply's 'winner' must be 0, 1 or null: '{\"over\": true, \"winner\": 2}'"),
    ("winner", {"over": True, "winner": True},
     "the reply's 'winner' must be 0, 1 or null: '{\"over\": true, \"winner\": true}'"),
    ("winner", {"over": True, "winner": False},
     "the reply's 'winner' must be 0, 1 or null: '{\"over\": true, \"winner\": false}'"),
]


def test_each_reply_is_checked_for_what_its_request_needs(echo):
    engine, command, _ = echo
    for cmd, reply in GOOD:
        assert engine.ask({"cmd": cmd, "reply": json.dumps(reply) + "\n"}, cmd) == reply
    for cmd, reply, problem in BAD:
        message = failure(engine, {"cmd": cmd, "reply": json.dumps(reply) + "\n"}, f"{cmd} after 2 moves")
        assert message == f"engine {command!r} at {cmd} after 2 moves: {problem}"
    for line, problem in [("hello\n", "the reply is not JSON: 'hello'"),
                          ("[1, 2]\n", "the reply is not a JSON object: '[1, 2]'"),
                          ('"x' + "y" * 99 + '"\n', "the reply is not a JSON object: '\"x" + "y" * 78
                           + "'... (102 characters)")]:
        assert failure(engine, {"cmd": "new", "reply": line}) == f"engine {command!r} at a step: {problem}"


def test_a_reply_that_is_not_utf_8_is_read_with_replacement_characters(echo):
    engine, command, _ = echo
    message = failure(engine, {"cmd": "new", "bytes": "ff410a"})
    assert message == f"engine {command!r} at a step: the reply is not JSON: '\ufffdA'"
    assert engine.ask({"cmd": "scores", "bytes": b'{"scores": [1, 2], "x": "\xe9"}\n'.hex()}, "s") == {
        "scores": [1, 2], "x": "\ufffd"}


def test_an_error_reply_is_a_refusal_with_its_text(echo):
    engine, _, _ = echo
    for error, text in [("no such game", "no such game"), (3, "3"), (None, "None")]:
        with pytest.raises(Refused) as refused:
            engine.ask({"cmd": "scores", "reply": json.dumps({"error": error, "scores": "nonsense"}) + "\n"}, "s")
        assert str(refused.value) == text


@pytest.mark.parametrize(("stderr", "stderr_bytes", "tail"), [
    ("first\nsecond\nboom: out of memory\n\n", "", "boom: out of memory"),
    ("boom", "", "boom"),
    ("", "ff20626f6f6d0a", "\ufffd boom"),
])
def test_the_last_line_of_error_output_is_quoted(echo, stderr, stderr_bytes, tail):
    engine, command, _ = echo
    message = failure(engine, {"cmd": "new", "exit": 1, "stderr": stderr, "stderr_bytes": stderr_bytes}, "new")
    assert message == (f"engine {command!r} at new: no reply: the engine closed its output; the engine exited with"
                       f" code 1; its last error output: {tail!r}")


def test_an_engine_still_exiting_when_its_output_closes_is_waited_for(echo, monkeypatch):
    engine, command, _ = echo
    monkeypatch.setattr(engine.process, "poll", lambda: None)  # not yet exited when the output closed
    message = failure(engine, {"cmd": "new", "exit": 6}, "new")
    assert message == f"engine {command!r} at new: no reply: the engine closed its output; the engine exited with code 6"


def test_an_engine_that_closes_its_output_and_runs_on_is_waited_for_a_second(echo):
    engine, command, _ = echo
    message = failure(engine, {"cmd": "new", "close_output": True}, "new")
    assert message == f"engine {command!r} at new: no reply: the engine closed its output"
    assert engine.process.poll() is None


def test_an_engine_that_exits_quietly_is_reported_with_its_code(echo):
    engine, command, _ = echo
    message = failure(engine, {"cmd": "new", "exit": 0}, "vector v, new")
    assert message == f"engine {command!r} at vector v, new: no reply: the engine closed its output; the engine exited with code 0"


def test_a_request_to_an_engine_that_closed_its_input(echo):
    engine, command, _ = echo
    assert engine.ask({"cmd": "new", "close_input": True}, "new") == {"ok": True}
    assert engine.process.wait() == 5
    message = failure(engine, {"cmd": "play", "move": "pass"}, "play pass (move 1)")
    assert message == (f"engine {command!r} at play pass (move 1): could not be sent: the engine has closed its"
                       " input; the engine exited with code 5")


def test_an_engine_that_does_not_answer_in_time(echo):
    engine, command, _ = echo
    engine.timeout = 0.05
    message = failure(engine, {"cmd": "new"}, "new")
    assert message == f"engine {command!r} at new: no reply within 0.05 s (--timeout)"


@pytest.mark.parametrize(("length", "ending", "accepted"), [
    (MAX_REPLY, "\n", True), (MAX_REPLY, "", True), (MAX_REPLY + 1, "\n", False), (MAX_REPLY + 1, "", False),
])
def test_the_longest_reply_line_is_max_reply_characters(echo, length, ending, accepted):
    """A reply line of MAX_REPLY characters is read, with its end of line or without it at
    the end of the output; one character more is refused without reading on."""
    engine, command, _ = echo
    assert MAX_REPLY == 8 * 2**20
    padding = "x" * (length - len('{"moves": [""]}'))
    reply = '{"moves": ["' + padding + '"]}'
    assert len(reply) == length
    request = {"cmd": "legal_moves", "reply": reply + ending}
    if not ending:
        request["exit"] = 0  # the output ends after the line
    if accepted:
        assert engine.ask(request, "s") == {"moves": [padding]}
    else:
        message = failure(engine, request, "legal_moves after 0 moves")
        assert message.startswith(f"engine {command!r} at legal_moves after 0 moves: the reply is longer than 8,388,608"
                                  " characters without an end of line")


def test_excerpts_are_whole_up_to_80_characters():
    assert protocol._excerpt("a" * 80 + "\n") == repr("a" * 80)
    assert protocol._excerpt("a" * 81) == repr("a" * 80) + "... (81 characters)"
    assert protocol._excerpt("ab\n\n") == "'ab'"
    assert protocol._excerpt(" ab \t\n") == "' ab \\t'" and protocol._excerpt("xX\n") == "'xX'"
    assert protocol._excerpt("abcdef", limit=3) == "'abc'... (6 characters)"


def test_python_command_runs_a_module_with_this_interpreter():
    assert protocol.python_command("territory.crosscheck.adapter") == (
        f"{shlex.quote(sys.executable)} -m territory.crosscheck.adapter")


def test_closing_an_engine_that_runs_on_kills_it_after_a_second(echo):
    engine, _, log = echo
    assert engine.ask({"cmd": "new", "ignore_end": True}, "new") == {"ok": True}
    engine.close()
    assert engine.process.returncode == -signal.SIGKILL
    assert [json.loads(line)["cmd"] for line in log.read_text().splitlines()] == ["new", "end"]


def test_closing_an_engine_that_has_exited(echo):
    engine, _, log = echo
    failure(engine, {"cmd": "new", "exit": 0})
    engine.close()
    assert engine.process.returncode == 0 and engine._stderr.closed
    assert [json.loads(line)["cmd"] for line in log.read_text().splitlines()] == ["new"]  # no end request
    assert engine._stderr_tail() == ""


# --- vectors ----------------------------------------------------------------------------------


def test_the_header_and_the_written_file_exactly():
    header = {"format": "territory-vectors", "version": 1, "game": "tabik", "generator": f"territory {territory.__version__}"}
    assert vectors.header("tabik") == header
    stream = io.StringIO()
    vectors.write(stream, "tabik", [{"id": "a", "params": {}, "moves": ["x", "y"]}, {"id": "b"}])
    assert stream.getvalue() == (json.dumps(header) + '\n{"id":"a","params":{},"moves":["x","y"]}\n{"id":"b"}\n')


@pytest.mark.parametrize(("text", "game", "message"), [
    ("", None, "empty: no header line"),
    ("\n  \n", None, "empty: no header line"),
    ("{nonsense\n", None, "line 1: not JSON"),
    ("[1]\n", None, "line 1: not a territory-vectors header"),
    ('{"format": "vectors"}\n', None, "line 1: not a territory-vectors header"),
    ('{"format": "territory-vectors"}\n', None, "line 1: version None, this territory reads version 1"),
    ('{"format": "territory-vectors", "version": 2}\n', None, "line 1: version 2, this territory reads version 1"),
    ('{"format": "territory-vectors", "version": 1, "game": "tabik"}\n', "nume", "vectors of 'tabik', not 'nume'"),
    ('{"format": "territory-vectors", "version": 1}\n', "nume", "vectors of None, not 'nume'"),
    ('{"format": "territory-vectors", "version": 1}\n\n{"id": 1, "params": {}, "moves": []}\nnot json\n', None,
     "line 3: not JSON"),
    ('{"format": "territory-vectors", "version": 1}\n{"id": 1, "params": {}}\n', None,
     "line 2: a vector needs 'id', 'params' and 'moves'"),
    ('{"format": "territory-vectors", "version": 1}\n["id", "params", "moves"]\n', None,
     "line 2: a vector needs 'id', 'params' and 'moves'"),
])
def test_reading_says_what_is_wrong(text, game, message):
    with pytest.raises(ValueError) as error:
        vectors.read(io.StringIO(text), game)
    assert str(error.value) == message
    assert error.value.__cause__ is None


def test_reading_gives_the_header_and_every_vector():
    text = '{"format": "territory-vectors", "version": 1, "x": 2}\n\n{"id": 1, "params": {}, "moves": [], "k": 0}\n'
    assert vectors.read(io.StringIO(text)) == ({"format": "territory-vectors", "version": 1, "x": 2},
                                               [{"id": 1, "params": {}, "moves": [], "k": 0}])
    assert vectors.read(io.StringIO(text + '{"id": 2, "params": {}, "moves": ["a"]}'), None)[1][1]["id"] == 2


def test_compressed_is_the_same_bytes_on_every_run():
    data = vectors.compressed("héllo\n" * 100)
    assert gzip.decompress(data) == ("héllo\n" * 100).encode("utf-8")
    assert data[4:8] == b"\0\0\0\0" and data[8] == 2  # no time stamp; the slowest, best compression
    assert data == vectors.compressed("héllo\n" * 100)


def test_shipped_vectors_are_found_in_the_package():
    path = vectors.shipped_path("nume")
    assert str(path).endswith("territory/data/vectors/nume.jsonl.gz")
    head, shipped = vectors.read(io.StringIO(gzip.decompress(path.read_bytes()).decode("utf-8")), "nume")
    assert head["game"] == "nume" and shipped == vectors.shipped("nume")


def test_shipped_vectors_are_read_as_the_games_own(monkeypatch):
    tabik = vectors.shipped_path("tabik")
    monkeypatch.setattr(vectors, "shipped_path", lambda game: tabik)
    with pytest.raises(ValueError) as error:
        vectors.shipped("nume")
    assert str(error.value) == "vectors of 'tabik', not 'nume'"


def test_tabik_vectors_are_made_exactly_as_shipped_with_progress():
    told = []
    began = time.perf_counter()
    made = vectors.make_vectors("tabik", vectors.parameter_sets("tabik"), progress=lambda *a: told.append(a))
    took = time.perf_counter() - began
    assert made == vectors.shipped("tabik")
    assert all(seconds <= took for _, _, seconds in told)  # the seconds since the start
    assert [(done, total) for done, total, _ in told] == [
        *((s * 12 + g, 72) for s in range(6) for g in range(12)), (72, 72)]
    assert all(isinstance(seconds, float) and seconds >= 0 for _, _, seconds in told)
    assert [seconds for _, _, seconds in told] == sorted(seconds for _, _, seconds in told)


def test_nume_vectors_of_the_first_sets_are_the_shipped_ones():
    """Each set's games are seeded by its index: the first sets make the shipped vectors'
    first sets (with the hand-worked games that apply, kept even without fresh tags)."""
    sets = vectors.parameter_sets("nume")[:2]
    made = vectors.make_vectors("nume", sets)
    assert made == [v for v in vectors.shipped("nume") if int(v["id"].split("-")[1]) < 2]
    assert vectors.make_vectors("nume", sets[:1], seed=1, games_per_set=2) != made[:5]


def test_migong_vectors_hold_the_mirror_games():
    [alternate] = [p for p in vectors.parameter_sets("migong") if p["border"] == "alternate" and p["group_size"] == "extent"
                   and p["pie"]]
    told = []
    made = vectors.make_vectors("migong", [alternate], games_per_set=0, progress=lambda *a: told.append(a[:2]))
    assert told == [(0, 0), (0, 0), (0, 0)]
    ids = [v["id"] for v in made]
    assert {i.rsplit("-", 1)[0] for i in ids} >= {"migong-0-r0", "migong-0-r1"}
    ends = [v for v in made if v["over"]]
    assert ends and all(v["scores"] == [0, 0] and v["moves"][-2:] == ["pass", "pass"] for v in ends)


def test_random_games_are_seeded_by_the_seed_and_the_sets_index():
    made = vectors.make_vectors("tabik", [{"size": 2, "pie": True}, {"size": 3, "pie": False}], seed=1, games_per_set=2)
    assert [(v["id"], " ".join(v["moves"])) for v in made if v["over"] and "-r" in v["id"]] == [
        ("tabik-0-r0-7", "a2-a1 swap b1-b2 a2xb2 a1xb1 pass pass"),
        ("tabik-1-r0-9", "b2-b1 b3-c3 a2-a1 c2-c1 c2xc3 b2xc2 b2xb3 pass pass"),
        ("tabik-1-r1-11", "b3-c3 c2-b2 a1-a2 b2xb3 c2xc3 b1-c1 a2xb2 b1xb2 a1xb1 pass pass"),
    ]


def test_hand_worked_games_are_kept_even_without_fresh_tags(monkeypatch):
    """Three hand-worked games reaching one position: all three kept, though each tag is
    kept at most twice among the random games' positions."""
    moves = ["a1-b1", "swap", "a2-b2", "pass", "pass"]
    monkeypatch.setattr(vectors, "hand_worked", lambda game: [(name, {"size": 2}, moves) for name in ("x", "y", "z")])
    made = vectors.make_vectors("tabik", [{"size": 2, "pie": True}], games_per_set=0)
    assert [(v["id"], v["moves"]) for v in made] == [("tabik-0-x", moves), ("tabik-0-y", moves), ("tabik-0-z", moves)]


def test_a_set_the_hand_worked_games_need_holds_them_first():
    name, needs, moves = vectors.hand_worked("tabik")[0]
    params = dict(territory.new_game("tabik", **needs).params)
    made = vectors.make_vectors("tabik", [params], games_per_set=0)
    hand = [v for v in made if v["id"] in {f"tabik-0-{n}" for n, p, _ in vectors.hand_worked("tabik")}]
    assert hand and hand[0]["id"] == f"tabik-0-{name}" and hand[0]["moves"] == moves and made[0] == hand[0]
