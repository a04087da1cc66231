"""The web app's HTTP API (territory serve), through Starlette's TestClient: no browser.

Every request is checked (4xx with the engine's message, the game unchanged), sessions
are isolated, only the app's own files are served, and what the page gets (click paths,
choices, analysis, records) agrees with the engine."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="needs the web extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient  # noqa: E402

import territory  # noqa: E402
from interrupting import wait_until_no_search_runs  # noqa: E402
from serving import serving  # noqa: E402
from web_api import new, post  # noqa: E402
from territory import svg  # noqa: E402
from territory.agents import tuned_uct_c  # noqa: E402
from territory.web import session as session_module  # noqa: E402
from territory.web import app as app_module  # noqa: E402
from territory.web.app import create_app  # noqa: E402


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """The user's data directory (where serve keeps its games by default), per test."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def client():
    with TestClient(create_app(search_seconds=20)) as c:
        yield c


# --- the page and its files ----------------------------------------------------------------


def test_the_page_and_its_assets_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/app.js">' in page.text
    for name in ("app.js", "style.css", "index.html"):
        assert client.get(f"/static/{name}").status_code == 200
    # No file comes from elsewhere: no CDN, no external URL in the assets.
    for name in ("app.js", "style.css", "index.html"):
        assert not re.search(r"https?://", client.get(f"/static/{name}").text)


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e%2f%2e%2e%2fcli.py",
        "/static/..%5capp.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/../../../../etc/passwd",
        "/static/",
    ],
)
def test_no_file_outside_the_assets_is_served(client, path):
    answer = client.get(path)
    assert answer.status_code in (400, 404), (path, answer.status_code)
    assert "create_app" not in answer.text and "root:" not in answer.text and "import" not in answer.text


def test_games_lists_each_games_parameters_from_the_engine(client):
    games = client.get("/api/games").json()["games"]
    assert games == {name: cls.parameters() for name, cls in territory.GAMES.items()}


# --- checked requests ---------------------------------------------------------------------


def test_an_illegal_move_gets_400_with_the_engines_message_and_the_game_is_unchanged(client):
    view = new(client)
    assert post(client, view, "move", {"move": "a1-a2"}).status_code == 200
    before = client.get(f"/api/sessions/{view['id']}").json()
    engine = territory.Tabik(size=4)
    engine.play("a1-a2")
    for bad in ("a1-b1", "a1-z9", "zz", "", "a2xa1"):
        with pytest.raises(ValueError) as expected:
            engine.copy().play(bad)
        answer = post(client, view, "move", {"move": bad})
        assert answer.status_code == 400
        assert answer.json()["error"] == str(expected.value)
    for malformed in ({"move": 42}, {"move": None}, {"move": ["a1"]}, {}, {"move": "x" * 300_000}):
        answer = post(client, view, "move", malformed)
        assert answer.status_code in (400, 413) and answer.json()["error"]
    assert client.get(f"/api/sessions/{view['id']}").json() == before


def test_a_body_that_is_not_a_json_object_gets_400(client):
    view = new(client)
    for raw in (b"not json", b"[1, 2]", b"\xff\xfe"):
        answer = client.post(f"/api/sessions/{view['id']}/move", content=raw)
        assert answer.status_code == 400 and answer.json()["error"]


@pytest.mark.parametrize(
    "request_body, words",
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "tabik", "params": {"size": 1}}, "size"),
        ({"game": "tabik", "params": {"colour": 3}}, "colour"),
        ({"game": "nume", "params": {"komi": 2.0}}, "komi"),
        ({"game": "tabik", "params": [1]}, "params"),
        ({"game": "tabik", "position": "9/9 0 w 0 -"}, "bad position"),
        ({"game": "tabik", "mode": "robots"}, "mode"),
        ({"game": "tabik", "strength": 0}, "strength"),
        ({"game": "tabik", "agent_seat": 2}, "agent_seat"),
        ({"record": "game = tabik\nmoves:\n1. a1-z9\n"}, "line 3"),
    ],
)
def test_bad_new_games_get_400_saying_why(client, request_body, words):
    answer = client.post("/api/sessions", json=request_body)
    assert answer.status_code == 400
    assert words in answer.json()["error"]


def test_sessions_are_isolated_and_unknown_ones_are_404(client):
    one, two = new(client), new(client)
    assert one["id"] != two["id"]
    post(client, one, "move", {"move": "b2-b3"})
    assert client.get(f"/api/sessions/{two['id']}").json()["history"] == []
    assert client.get(f"/api/sessions/{one['id']}").json()["history"] == ["b2-b3"]
    assert client.get("/api/sessions/nope").status_code == 404
    assert client.post("/api/sessions/nope/move", json={"move": "b2-b3"}).status_code == 404


def test_two_apps_share_no_sessions():
    with TestClient(create_app()) as a, TestClient(create_app()) as b:
        view = new(a)
        assert b.get(f"/api/sessions/{view['id']}").status_code == 404


# --- playing ------------------------------------------------------------------------------


def test_every_legal_move_is_one_click_path_and_every_path_a_legal_move(client):
    view = new(client, params={"size": 3})
    post(client, view, "move", {"move": "a1-a2"})
    view = post(client, view, "move", {"move": "b2-b1"}).json()
    state = territory.Tabik(size=3)
    state.play("a1-a2")
    state.play("b2-b1")
    listed = {}
    for path in view["paths"]:
        if "move" in path:
            listed.setdefault(path["move"], []).append(path["clicks"])
    assert set(listed) | set(view["buttons"]) == set(state.legal_moves())
    # Placements in colour order (black square first); a stone swap in either order.
    assert listed["a3-b3"] == [["a3", "b3"]]
    swaps = [m for m in listed if "x" in m]
    assert swaps and all(sorted(listed[m]) == sorted([state.move_cells(m), state.move_cells(m)[::-1]]) for m in swaps)


def test_the_pie_swap_and_a_forced_pass_are_offered_as_buttons(client):
    view = new(client, params={"size": 2})
    view = post(client, view, "move", {"move": "a1-b1"}).json()
    assert view["swap_legal"] and "swap" in view["buttons"]
    view = post(client, view, "move", {"move": "swap"}).json()
    view = post(client, view, "move", {"move": "a2-b2"}).json()
    assert view["forced_pass"] and view["buttons"] == ["pass"] and view["paths"] == []
    view = post(client, view, "move", {"move": "pass"}).json()
    view = post(client, view, "move", {"move": "pass"}).json()
    state = territory.Tabik(size=2)
    for move in ("a1-b1", "swap", "a2-b2", "pass", "pass"):
        state.play(move)
    assert view["over"] and view["winner"] == state.winner and view["scores"] == list(state.scores())
    a, b = state.scores()
    if a == b:
        assert "tie-break" in view["reason"] and "last move" in view["reason"]
    else:
        assert "higher score wins" in view["reason"]


def test_the_reason_names_the_score_rule_for_nume():
    state = territory.Nume(n=1)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    reason = session_module.result_reason(state)
    a, b = state.scores()
    assert ("lower score wins" in reason) == (state.winner is not None and a != b)


def test_the_agent_plays_its_seat_only(client):
    view = client.post("/api/sessions", json={"game": "tabik", "params": {"size": 4}, "mode": "agent", "agent_seat": 0, "strength": 50}).json()
    assert view["agent_to_move"]
    assert post(client, view, "move", {"move": "a1-a2"}).status_code == 409
    view = post(client, view, "agent").json()
    assert len(view["history"]) == 1 and not view["agent_to_move"] and view["note"].startswith("agent played")
    assert post(client, view, "agent").status_code == 409
    # The agent's move is the engine's UCT choice with the session's seed.
    assert view["history"][0] == territory.Uct(iterations=50, seed=0).choose(territory.Tabik(size=4))
    assert view["evaluations"] and view["evaluations"][0][0] == 0


def test_a_quick_agent_answers_in_the_same_request(client):
    view = client.post("/api/sessions", json={"game": "tabik", "params": {"size": 4}, "mode": "agent", "strength": 30}).json()
    view = post(client, view, "move", {"move": "b2-b3", "reply": True}).json()
    state = territory.Tabik(size=4)
    state.play("b2-b3")
    assert view["history"] == ["b2-b3", territory.Uct(iterations=30, seed=1).choose(state)]
    assert not view["agent_to_move"]


def test_undo_against_the_agent_goes_back_to_the_persons_turn(client):
    view = client.post("/api/sessions", json={"game": "tabik", "params": {"size": 4}, "mode": "agent", "agent_seat": 1, "strength": 20}).json()
    view = post(client, view, "move", {"move": "b2-b3"}).json()
    view = post(client, view, "agent").json()
    assert len(view["history"]) == 2
    view = post(client, view, "undo").json()
    assert view["history"] == [] and view["to_move"] == 0
    assert post(client, view, "undo").status_code == 409


def test_nume_choices_give_each_numbers_price_from_the_engine(client):
    view = new(client, "nume", {"n": 1})
    choices = post(client, view, "choices", {"cells": ["a2"]}).json()["choices"]
    assert [c["move"] for c in choices] == [f"a2={w}" for w in range(7)]
    for choice in choices:
        after = territory.Nume(n=1)
        after.play(choice["move"])
        price = next(g.price for g in after.groups() if "a2" in g.cells)
        assert choice["detail"] == f"price {price}" and choice["label"] == choice["move"].split("=")[1]
    assert post(client, view, "choices", {"cells": ["z9"]}).status_code == 400
    assert post(client, view, "choices", {"cells": "a2"}).status_code == 400


def test_migong_palette_is_exactly_the_pieces_legal_on_the_cell(client):
    view = new(client, "migong", {})
    state = territory.Migong()
    for cell in ("h7", "a1" if "a1" in {c for m in state.legal_moves() for c in state.move_cells(m)} else "g1"):
        choices = post(client, view, "choices", {"cells": [cell]}).json()["choices"]
        legal = [m for m in state.legal_moves() if state.move_cells(m) == [cell]]
        assert [c["move"] for c in choices] == legal
        assert all(c["svg"].startswith("<svg") and c["label"] == c["move"].split(":")[1] for c in choices)


# --- analysis -----------------------------------------------------------------------------


def test_analysis_gives_the_candidates_with_their_cells_for_the_board(client):
    view = new(client)
    result = post(client, view, "analyse", {"iterations": 500}).json()
    start = territory.Tabik(size=4)  # the board's UCT plays with the tuned c
    analysis = territory.Uct(iterations=500, c=tuned_uct_c(start), seed=0).analyse(start)
    assert result["value"] == pytest.approx(analysis.value) and result["best"] == analysis.best
    assert result["moves"][0]["visits"] == max(analysis.visits)
    assert result["ply"] == 0 and result["node"] == 0 and result["iterations"] == 500
    state = territory.Tabik(size=4)
    for entry in result["moves"]:
        assert entry["cells"] == state.move_cells(entry["move"]) and len(entry["cells"]) == 2  # both squares
    assert result["evaluations"] == [[0, pytest.approx(analysis.value)]]
    assert post(client, view, "analyse", {"iterations": 0}).status_code == 400
    assert post(client, view, "analyse", {"iterations": "many"}).status_code == 400


def test_nume_and_migong_candidates_carry_their_number_or_piece(client):
    for game, sep in (("nume", "="), ("migong", ":")):
        view = new(client, game, {"n": 1} if game == "nume" else {})
        moves = post(client, view, "analyse", {"iterations": 300}).json()["moves"]
        placed = [m for m in moves if sep in m["move"]]
        assert placed and all(m["label"] == m["move"].split(sep, 1)[1] and len(m["cells"]) == 1 for m in placed)


def test_the_solver_answers_on_small_boards_and_says_why_not_on_large_ones(client):
    small = new(client, params={"size": 3})
    answer = post(client, small, "solve").json()
    exact = territory.solve(territory.Tabik(size=3))
    assert answer["solved"] and answer["value"] == exact.value and answer["best_moves"] == exact.best_moves
    # The line of perfect play: each move a best move of the position it is played in.
    state = territory.Tabik(size=3)
    assert answer["line"][0] in exact.best_moves
    for move in answer["line"]:
        assert state.is_over or move in territory.solve(state).best_moves
        state.play(move)
    large = new(client, params={"size": 8})
    answer = post(client, large, "solve").json()
    assert not answer["solved"] and "too large" in answer["why"]


def test_evaluating_the_game_gives_one_value_per_position(client):
    view = new(client)
    for move in ("a1-a2", "c3-c4"):
        view = post(client, view, "move", {"move": move}).json()
    values = post(client, view, "evaluate", {"iterations": 50}).json()["evaluations"]
    assert [ply for ply, _ in values] == [0, 1, 2] and all(-1 <= v <= 1 for _, v in values)


def test_a_search_past_the_time_limit_gets_503_and_the_game_is_unchanged():
    with TestClient(create_app(search_seconds=0.01)) as client:
        view = client.post("/api/sessions", json={"game": "migong", "mode": "agent", "agent_seat": 0, "strength": 20_000}).json()
        answer = post(client, view, "agent")
        assert answer.status_code == 503 and "longer than" in answer.json()["error"]
        assert client.get(f"/api/sessions/{view['id']}").json()["history"] == []


@pytest.fixture
def endless(monkeypatch):
    """The iterations of a search that would run for minutes (the engine's bound: the
    page's is lifted), so that a search left running is told from a stopped one however
    loaded the machine is."""
    monkeypatch.setattr(app_module, "MAX_ITERATIONS", territory.agents.MAX_UCT_ITERATIONS)
    return territory.agents.MAX_UCT_ITERATIONS


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_a_timed_out_search_is_stopped_and_frees_its_thread(endless):
    """A search of minutes past a 1 s time limit: the answer comes at the limit, the
    search itself stops, and the one search thread serves the next request (before, it
    kept searching to the end, and the next request timed out behind it)."""
    with TestClient(create_app(search_seconds=1.0, search_threads=1)) as client:
        view = new(client, "migong", {})
        began = time.monotonic()
        answer = post(client, view, "analyse", {"iterations": endless})
        assert answer.status_code == 503 and "longer than 1 s" in answer.json()["error"]
        assert time.monotonic() - began < 5
        wait_until_no_search_runs(5.0)
        quick = post(client, view, "analyse", {"iterations": 100})
        assert quick.status_code == 200, quick.text
        assert client.get(f"/api/sessions/{view['id']}").json()["history"] == []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_a_search_whose_client_has_gone_is_stopped(endless):
    """The client sends its request and goes away (the server's next receive is
    ``http.disconnect``): the search stops within a fraction of a second, long before
    its time limit."""
    app = create_app(search_seconds=600, search_threads=1)
    with TestClient(app) as client:
        view = new(client, "migong", {})
    body = json.dumps({"iterations": endless}).encode()
    requests = [{"type": "http.request", "body": body, "more_body": False}]
    answers: list[dict] = []

    async def receive() -> dict:
        return requests.pop(0) if requests else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        answers.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": f"/api/sessions/{view['id']}/analyse", "raw_path": b"", "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json")], "client": ("127.0.0.1", 1), "server": ("test", 80)}
    began = time.monotonic()
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 10))  # a search left running would take minutes
    assert time.monotonic() - began < 5
    assert answers[0]["status"] == 499
    assert json.loads(b"".join(m.get("body", b"") for m in answers[1:])) == {"error": "the client went away"}
    wait_until_no_search_runs(5.0)


# --- records, positions -------------------------------------------------------------------


def test_records_and_positions_round_trip(client):
    view = new(client, "nume", {"n": 2})
    for move in ("a3=2", "c1=4", "b3"):
        view = post(client, view, "move", {"move": move}).json()
    text = client.get(f"/api/sessions/{view['id']}/record").text
    assert text == territory.load(text).to_record()
    loaded = client.post("/api/sessions", json={"record": text, "mode": "humans"}).json()
    assert loaded["history"] == view["history"] and loaded["position"] == view["position"]
    reopened = client.post("/api/sessions", json={"game": "nume", "params": {"n": 2}, "position": view["position"], "mode": "humans"}).json()
    assert reopened["position"] == view["position"] and reopened["history"] == []


# --- pictures -----------------------------------------------------------------------------


def test_heat_maps_and_piece_swatches_are_checked():
    state = territory.Tabik(size=3)
    picture = svg.render(state, heat={"a1": (1.0, 1.0), "b2": (0.0, -1.0)})
    assert picture.count('class="heat"') == 2 and svg.HEAT[2] in picture and svg.HEAT[0] in picture
    labelled = svg.render(state, heat={"c3": (0.5, 0.0, "42%")})
    assert re.search(r'class="heat-text" data-cell="c3"[^>]*>42%</text>', labelled)
    for bad in ({"z9": (1, 0)}, {"a1": (2, 0)}, {"a1": (0.5, -3)}, {"a1": "hot"}, {"a1": (1, 0, 3, 4)}):
        with pytest.raises(ValueError):
            svg.render(state, heat=bad)
    from territory.games import migong

    swatch = migong.piece("BYBYBY")
    assert swatch.count('class="wedge"') == 6 and "data-cell" not in swatch
    with pytest.raises(ValueError):
        migong.piece("BYBYB")


# --- the command --------------------------------------------------------------------------


def test_serve_binds_to_loopback_unless_told(monkeypatch):
    import socket

    import uvicorn

    from territory import cli
    from territory.cli import serve as cli_serve

    seen = []
    monkeypatch.setattr(cli_serve, "listen", lambda host, port: seen.append((host, port)) or socket.socket())
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: None)  # the app's server is one
    assert cli.main(["serve"]) == 0
    assert seen[-1] == ("127.0.0.1", 8000)
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert seen[-1] == ("0.0.0.0", 8123)


def test_serve_on_a_port_in_use_fails_with_one_line_and_no_address(capsys):
    import socket

    from territory import cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"territory serve: error: cannot listen on 127.0.0.1:{port}: Address already in use"]
    assert cli.main(["serve", "--host", "no-such-host.invalid", "--port", "8000"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "cannot listen on no-such-host.invalid:8000" in err and "open" not in err


def test_ctrl_c_on_serve_exits_130_once_it_listened():
    import socket

    from interrupting import interrupt, territory_script

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    lines: list[str] = []

    follower: list[socket.socket] = []

    def listening(process) -> bool:
        lines.append(process.stderr.readline())  # the address, printed once it listens
        # A page following a game keeps a connection open: Ctrl-C does not wait for it.
        import http.client

        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/api/sessions", body=json.dumps({"game": "tabik", "mode": "humans"}))
        sid = json.loads(connection.getresponse().read())["id"]
        connection.request("GET", f"/api/sessions/{sid}/events")
        assert connection.getresponse().read(9) == b"data: 0\n\n"
        follower.append(connection)
        return True

    ended = interrupt([territory_script(), "serve", "--port", str(port)], when=listening)
    assert lines == [f"territory serve: open http://127.0.0.1:{port}/ (Ctrl-C stops)\n"]
    assert ended.returncode == 130, (ended.returncode, ended.stderr)
    assert "Traceback" not in ended.stderr and ended.stderr.strip().splitlines() == ["territory: interrupted"]
    assert ended.seconds < 2.0
    follower[0].close()


def test_import_territory_does_not_import_the_web_server():
    code = "import sys, territory, territory.cli; territory.cli.build_parser(); print(sorted(m for m in ('starlette', 'uvicorn', 'territory.web') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_assets_are_installed_with_the_package():
    # CI runs the tests against the installed wheel: this checks the wheel carries them.
    from importlib import resources

    static = resources.files("territory.web") / "static"
    for name in ("index.html", "app.js", "style.css"):
        assert (static / name).is_file(), name


# --- hostile requests (issue 32) -------------------------------------------------------------


def _asgi_post(app, path, chunks, headers=()):
    """Posts ``chunks`` to the ASGI app one receive at a time; returns the status and how
    many bytes the app read before answering."""
    read = [0]
    feed = iter(chunks)
    answers: list[dict] = []

    async def receive() -> dict:
        chunk = next(feed, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read[0] += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict) -> None:
        answers.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"), *headers], "client": ("127.0.0.1", 1), "server": ("test", 80)}
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    return answers[0]["status"], read[0]


def test_a_body_over_the_limit_is_refused_while_it_is_read():
    """400 MB sent in 64 kB chunks with no declared length: the app stops reading just past
    1,000,000 bytes and answers 413 (before, it read the whole body first); a declared
    length over the limit is refused before reading anything."""
    app = create_app()
    chunk = b" " * 65_536
    status, read = _asgi_post(app, "/api/sessions", (chunk for _ in range(400_000_000 // 65_536)))
    assert status == 413 and read < 1_000_000 + 2 * 65_536
    status, read = _asgi_post(app, "/api/sessions", [chunk], headers=[(b"content-length", b"400000000")])
    assert status == 413 and read == 0


def test_the_body_limit_is_one_million_bytes(client):
    """The documented limit exactly: 1,000,000 bytes are read, 1,000,001 are not."""
    view = new(client)

    def padded(size):
        start = json.dumps({"move": "b2-b3", "pad": ""})
        return (start[:-2] + "x" * (size - len(start)) + start[-2:]).encode()

    assert len(padded(1_000_000)) == 1_000_000
    over = client.post(f"/api/sessions/{view['id']}/move", content=padded(1_000_001))
    assert over.status_code == 413 and "1000000" in over.json()["error"]
    assert client.get(f"/api/sessions/{view['id']}").json()["history"] == []
    under = client.post(f"/api/sessions/{view['id']}/move", content=padded(1_000_000))
    assert under.status_code == 200, under.text
    assert under.json()["history"] == ["b2-b3"]


@pytest.fixture
def live_server():
    """The app under uvicorn on a free loopback port (real connections, keep-alive)."""
    with serving(create_app()) as port:
        yield port


def test_deeply_nested_json_gets_400_and_the_connection_still_works(live_server):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", live_server, timeout=20)
    for nested in (b"[" * 100_000, b'{"a":' * 100_000):
        connection.request("POST", "/api/sessions", body=nested, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        assert answer.status == 400 and "nested too deeply" in json.loads(answer.read())["error"]
    connection.request("GET", "/api/games")
    answer = connection.getresponse()
    assert answer.status == 200 and "games" in json.loads(answer.read())
    connection.close()


def test_each_route_answers_its_own_method_only(client):
    """Reading routes answer GET, changing ones POST; the other gets 405 as JSON."""
    view = new(client)
    for path in ("/api/games", "/api/saved", f"/api/sessions/{view['id']}", f"/api/sessions/{view['id']}/thinking",
                 f"/api/sessions/{view['id']}/record"):
        answer = client.post(path, json={})
        assert answer.status_code == 405 and answer.json() == {"error": "Method Not Allowed"}, path
    for what in ("move", "undo", "goto", "agent", "agent/now", "choices", "analyse", "solve", "evaluate", "rename",
                 "delete"):
        answer = client.get(f"/api/sessions/{view['id']}/{what}")
        assert answer.status_code == 405 and answer.json() == {"error": "Method Not Allowed"}, what
    assert client.get(f"/api/sessions/{view['id']}").json()["history"] == []


def test_a_page_following_a_game_hears_each_version_and_the_stream_ends_with_the_server(monkeypatch):
    """Server-sent events: the version at once, then at every change, a comment when the
    game is quiet; the app's own server ends the stream when it stops (uvicorn alone
    would wait for it), and the page is no longer counted as following."""
    import http.client

    monkeypatch.setattr(app_module, "KEEP_ALIVE", 0.3)
    app = create_app()
    with serving(app, app_module.server) as port:
        pages = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        pages.request("POST", "/api/sessions", body=json.dumps({"game": "tabik", "params": {"size": 4}, "mode": "humans"}))
        sid = json.loads(pages.getresponse().read())["id"]
        follower = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        follower.request("GET", f"/api/sessions/{sid}/events")
        stream = follower.getresponse()
        assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.headers["Cache-Control"] == "no-store"
        assert [stream.readline(), stream.readline()] == [b"data: 0\n", b"\n"]
        assert [stream.readline(), stream.readline()] == [b": still here\n", b"\n"]
        pages.request("POST", f"/api/sessions/{sid}/move", body=json.dumps({"move": "b2-b3"}))
        assert pages.getresponse().read() and app.state.sessions.followers[sid]
        lines = [stream.readline(), stream.readline()]
        while lines[0].startswith(b":"):  # a comment may come first
            lines = [stream.readline(), stream.readline()]
        assert lines == [b"data: 1\n", b"\n"]
    assert stream.read() == b"", "the stream ended with the server"
    assert app.state.sessions.followers[sid] == set()


def test_evaluate_accepts_the_iterations_the_api_advertises(client):
    limit = client.get("/api/games").json()["max_iterations"]
    assert limit == session_module.MAX_ITERATIONS == 200_000
    view = new(client)
    for what in ("analyse", "evaluate"):
        assert post(client, view, what, {"iterations": limit + 1}).status_code == 400, what
        answer = post(client, view, what, {"iterations": "abc"})
        assert answer.status_code == 400 and "'abc'" in answer.json()["error"] and "200,000" in answer.json()["error"]
    # Above the old bound of 10,000 (an empty game: one position).
    assert post(client, view, "evaluate", {"iterations": 20_000}).status_code == 200


# --- the game tree: replay and variations ------------------------------------------------------


def test_stepping_back_and_a_variation_keep_the_main_line(client):
    view = new(client)
    for move in ("a1-a2", "c3-c4", "b1-b2"):
        view = post(client, view, "move", {"move": move}).json()
    main = [entry["node"] for entry in view["line"]]
    assert [e["move"] for e in view["line"]] == ["a1-a2", "c3-c4", "b1-b2"] and [e["seat"] for e in view["line"]] == [0, 1, 0]
    # Back to ply 1: the line still shows the moves ahead, the position is ply 1's.
    view = post(client, view, "goto", {"node": main[0]}).json()
    state = territory.Tabik(size=4)
    state.play("a1-a2")
    assert view["history"] == ["a1-a2"] and view["position"] == state.position() and view["ply"] == 1
    assert [e["move"] for e in view["line"]] == ["a1-a2", "c3-c4", "b1-b2"]
    # Another move there: a variation; the main line is one of its "others".
    view = post(client, view, "move", {"move": "d1-d2"}).json()
    assert [e["move"] for e in view["line"]] == ["a1-a2", "d1-d2"]
    assert view["line"][1]["others"] == [{"node": main[1], "move": "c3-c4"}]
    # Back on the main line, the variation is listed beside it.
    view = post(client, view, "goto", {"node": main[2]}).json()
    assert view["history"] == ["a1-a2", "c3-c4", "b1-b2"]
    assert [o["move"] for o in view["line"][1]["others"]] == ["d1-d2"]
    # The same move as one already tried goes to it, adding nothing.
    view = post(client, view, "goto", {"node": 0}).json()
    view = post(client, view, "move", {"move": "a1-a2"}).json()
    assert view["node"] == main[0] and [e["move"] for e in view["line"]] == ["a1-a2", "c3-c4", "b1-b2"]
    for bad in (-1, 99, "1", None, True, 1.5):
        answer = post(client, view, "goto", {"node": bad})
        assert answer.status_code == 400 and "no move number" in answer.json()["error"]
    assert client.get(f"/api/sessions/{view['id']}").json()["node"] == main[0]


def test_undo_keeps_the_move_to_step_forward_again(client):
    view = new(client)
    view = post(client, view, "move", {"move": "a1-a2"}).json()
    node = view["node"]
    view = post(client, view, "undo").json()
    assert view["history"] == [] and [e["move"] for e in view["line"]] == ["a1-a2"]
    assert post(client, view, "goto", {"node": node}).json()["history"] == ["a1-a2"]


def test_a_loaded_record_is_the_main_line_and_evaluations_follow_the_line_shown(client):
    state = territory.Tabik(size=4)
    for move in ("b2-b3", "c1-c2", "a3-a4"):
        state.play(move)
    view = client.post("/api/sessions", json={"record": state.to_record(), "mode": "humans"}).json()
    assert [e["move"] for e in view["line"]] == state.history and view["ply"] == 3
    values = post(client, view, "evaluate", {"iterations": 30}).json()["evaluations"]
    assert [ply for ply, _ in values] == [0, 1, 2, 3]
    first = view["line"][0]["node"]
    view = post(client, view, "goto", {"node": first}).json()
    view = post(client, view, "move", {"move": "d4-d3"}).json()
    # The variation's line: the evaluations of the positions it shares, none for its new one.
    assert [ply for ply, _ in view["evaluations"]] == [0, 1]


# --- a player's words ----------------------------------------------------------------------------


def test_the_result_speaks_of_you_and_the_agent():
    state = territory.Tabik(size=2)
    for move in ("a1-b1", "swap", "a2-b2", "pass", "pass"):
        state.play(move)
    session = session_module.Session(state, mode="agent", agent_seat=1)
    session._plant()
    view = session.view()
    names = view["names"]
    assert names == [f"{state.color_of(s).capitalize()} ({'agent' if s == 1 else 'you'})" for s in (0, 1)]
    assert view["headline"] == ("You lose" if state.winner == 1 else "You win")
    winner, scores = state.winner, state.scores()
    shown = [territory.record.format_score(x) for x in scores]
    if scores[0] != scores[1]:
        assert view["reason"].startswith(f"{names[winner]} wins {shown[winner]}-{shown[1 - winner]}: the higher score wins")
    else:
        assert view["reason"].startswith(f"{names[winner]} wins by the tie-break")
    humans = session_module.Session(state.copy(), mode="humans")
    assert humans.names()[0].endswith("(player 1)") and humans.headline() is None


def test_the_deciding_groups_are_those_of_the_size_the_winner_holds():
    rng = __import__("random").Random(5)
    for game, params in (("tabik", {"size": 4}), ("migong", {})):
        state = territory.new_game(game, **params)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        deciding = session_module.deciding_groups(state)
        score = state.scores()[state.winner]
        expected = [g for g in state.groups() if g.size == score] if score else []
        assert [d["cells"] for d in deciding] == [list(g.cells) for g in expected]
        assert not score or any(d["color"] == state.color_of(state.winner) for d in deciding)


def test_a_record_is_always_text_never_a_file_name_on_the_server(client, tmp_path):
    """A one-line record is a file name for ``territory.load``: the server must not open
    files of its machine for a client."""
    saved = tmp_path / "game.txt"
    state = territory.Tabik(size=3)
    state.play("a1-a2")
    saved.write_text(state.to_record())
    for text in (str(saved), "/etc/passwd", "not a record"):
        answer = client.post("/api/sessions", json={"record": text, "mode": "humans"})
        assert answer.status_code == 400, text
        assert "No such file" not in answer.json()["error"] and "root:" not in answer.json()["error"]


# --- games kept in SQLite (step 6) ---------------------------------------------------------------


from territory.web.store import Store, StoreError, default_path  # noqa: E402


def test_the_default_database_is_in_the_users_data_directory(data_dir):
    assert default_path() == data_dir / "territory" / "games.sqlite"


def test_games_are_kept_listed_renamed_reopened_after_a_restart_and_deleted(tmp_path):
    path = tmp_path / "games.sqlite"
    with TestClient(create_app(store=Store(path))) as client:
        view = new(client)
        for move in ("a1-a2", "c3-c4", "b1-b2"):
            view = post(client, view, "move", {"move": move}).json()
        first = view["line"][0]["node"]
        view = post(client, view, "goto", {"node": first}).json()
        view = post(client, view, "move", {"move": "d1-d2"}).json()  # a variation
        post(client, view, "evaluate", {"iterations": 20})
        assert post(client, view, "rename", {"name": "  my game "}).json()["name"] == "my game"
        assert post(client, view, "rename", {"name": ""}).status_code == 400
        listed = client.get("/api/saved").json()["games"]
        assert [(g["id"], g["name"], g["game"], g["moves"]) for g in listed] == [(view["id"], "my game", "tabik", 4)]
        before = client.get(f"/api/sessions/{view['id']}").json()
    # A new server on the same file: the whole game, its tree, evaluations and position.
    with TestClient(create_app(store=Store(path))) as client:
        after = client.get(f"/api/sessions/{view['id']}").json()
        assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
        assert [e["move"] for e in after["line"]] == ["a1-a2", "d1-d2"] and after["line"][1]["others"][0]["move"] == "c3-c4"
        assert post(client, after, "delete").json() == {"deleted": view["id"]}
        assert client.get(f"/api/sessions/{view['id']}").status_code == 404
        assert client.get("/api/saved").json()["games"] == []
        assert post(client, after, "delete").status_code == 404


def test_without_a_database_nothing_is_kept(client):
    view = new(client)
    assert client.get("/api/saved").json() == {"games": [], "kept": False}
    assert post(client, view, "delete").status_code == 404


@pytest.mark.parametrize("content, words", [
    (b"this is not a database, just text" * 100, "not a territory games database or is damaged"),
    (b"SQLite format 3\x00" + b"\x00" * 200, "not a territory games database or is damaged"),
])
def test_a_file_that_is_not_our_database_is_refused_and_left_alone(tmp_path, content, words):
    path = tmp_path / "games.sqlite"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=words):
        Store(path)
    assert path.read_bytes() == content


def test_another_programs_sqlite_database_is_refused_and_left_alone(tmp_path):
    import sqlite3

    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
        other.execute("INSERT INTO notes VALUES ('keep me')")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        Store(path)
    assert path.read_bytes() == before


def test_a_damaged_database_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "games.sqlite"
    store = Store(path)
    for i in range(200):
        store.save(f"g{i}", "name", "tabik", 1, {"pad": "x" * 500})
    store.close()
    data = bytearray(path.read_bytes())
    data[4096:12288] = b"\xff" * 8192  # pages of the table overwritten
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="is damaged"):
        Store(path)


def test_serve_with_a_foreign_db_is_one_line_exit_2(tmp_path, capsys):
    from territory import cli

    path = tmp_path / "notes.txt"
    path.write_text("my notes\n" * 100)
    assert cli.main(["serve", "--db", str(path), "--port", "8000"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "is not a territory games database" in err and "open http" not in err
    assert path.read_text() == "my notes\n" * 100


KILLED_WRITER = """
import os, sys
from territory.web.store import Store
store = Store(sys.argv[1])
i = 0
while True:
    store.save(f"g{i % 50}", f"v{i}", "tabik", i, {"version": i, "pad": "x" * 20000})
    i += 1
    if i == 200:
        print("writing", flush=True)
"""


def test_a_server_killed_mid_write_loses_no_game(tmp_path):
    """A writer killed with SIGKILL in the middle of its stream of saves: the database is
    whole, and every game holds one complete version."""
    import signal

    path = tmp_path / "games.sqlite"
    process = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "writing\n"
    time.sleep(0.3)
    process.send_signal(signal.SIGKILL)
    process.wait()
    store = Store(path)  # opens: quick_check passes
    games = store.games()
    assert len(games) == 50
    for entry in games:
        data = store.load(entry["id"])
        assert data["version"] == entry["moves"] and data["name"] == f"v{entry['moves']}" and len(data["pad"]) == 20000


def test_the_agents_move_goes_below_the_position_it_searched_even_if_the_player_stepped_away():
    """The player steps back while the agent thinks: the agent's move is added where it
    searched (the main line goes on), and the player's position stays the one chosen."""
    state = territory.Tabik(size=4)
    session = session_module.Session(state, mode="agent", agent_seat=1, strength=20)
    session._plant()
    session.play("b2-b3")
    searched, node = session.state.copy(), session.current
    session.goto(0)  # stepped back meanwhile
    analysis = session.agent(20).analyse(searched)
    session.apply_agent_move(node, searched, analysis.best, analysis.value)
    assert session.current == 0 and session.state.history == []
    assert [e["move"] for e in session.view()["line"]] == ["b2-b3", analysis.best]
    session.goto(node)
    assert session.nodes[node].children and session.view()["line"][1]["move"] == analysis.best


def test_a_kept_game_that_cannot_be_replayed_gives_a_clear_400(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    with TestClient(create_app(store=store)) as client:
        view = new(client)
        post(client, view, "move", {"move": "a1-a2"})
    data = store.load(view["id"])
    data["nodes"][1][0] = "z9-z8"  # a move the engine refuses
    store.save(view["id"], data.pop("name"), "tabik", 1, data)
    with TestClient(create_app(store=store)) as client:
        answer = client.get(f"/api/sessions/{view['id']}")
        assert answer.status_code == 400 and "cannot be read back" in answer.json()["error"]


def test_nume_rings_no_deciding_groups():
    state = territory.Nume(n=1)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    assert state.winner is not None and session_module.deciding_groups(state) == []


def think_then_move_now(client, view, session, strength):
    """Asks the agent of ``session`` (given ``strength``: minutes of search) for its move
    in another thread, reads its progress a few times, tells it to move now; returns the
    answer, the progress reports read and the seconds from "move now" to the answer."""
    import threading

    session.strength = strength  # past what a request may ask
    assert post(client, view, "agent/now").status_code == 409  # not thinking yet
    assert client.get(f"/api/sessions/{view['id']}/thinking").json() == {"thinking": None}
    answers: list = []
    worker = threading.Thread(target=lambda: answers.append(post(client, view, "agent")))
    worker.start()
    reports = []
    deadline = time.monotonic() + 30
    while len(reports) < 3 or reports[-1]["done"] == 0:
        assert time.monotonic() < deadline, reports
        report = client.get(f"/api/sessions/{view['id']}/thinking").json()["thinking"]
        if report is not None:
            reports.append(report)
        time.sleep(0.15)
    again = post(client, view, "agent")  # a second page asking meanwhile
    assert (again.status_code, again.json()) == (409, {"error": "the agent is already thinking (asked from another page)"})
    assert client.get(f"/api/sessions/{view['id']}").json()["thinking"]["of"] == strength
    told = time.monotonic()
    assert post(client, view, "agent/now").json() == {"moving": True}
    worker.join(60)
    assert answers and answers[0].status_code == 200, answers
    return answers[0].json(), reports, time.monotonic() - told


@pytest.mark.parametrize("agent", ["uct", "puct"])
def test_the_agent_reports_its_progress_and_told_to_move_now_plays_its_best_move(endless, agent):
    """An agent of minutes (UCT at the engine's bound; the learned model at 10 million
    simulations) reports simulations done and its best move while it thinks, and told to
    move now plays the best move it has, at once, and says so."""
    game, params = ("tabik", {"size": 6}) if agent == "puct" else ("migong", {})
    with TestClient(create_app(search_seconds=600)) as client:
        view = client.post("/api/sessions", json={"game": game, "params": params, "mode": "agent", "agent_seat": 0,
                                                  "agent": agent, "strength": 100}).json()
        session = client.app.state.sessions.by_id[view["id"]]
        moved, reports, seconds = think_then_move_now(client, view, session, endless)
        unit = "simulations" if agent == "puct" else "iterations"
        assert seconds < 5, seconds
        counts = [r["done"] for r in reports]
        assert counts == sorted(counts) and counts[-1] > 0
        state = territory.new_game(game, **params)
        assert all(r["of"] == endless and r["unit"] == unit and r["node"] == 0 for r in reports)
        assert all(r["best"] is None or r["best"] in state.legal_moves() for r in reports) and reports[-1]["best"]
        assert len(moved["history"]) == 1 and moved["history"][0] in state.legal_moves()
        assert re.search(rf"at once, after [\d,]+ of {endless:,} {unit}", moved["note"]), moved["note"]
        assert session.thinking is None and moved["thinking"] is None


def test_the_learned_model_plays_where_a_shipped_model_fits_and_is_refused_elsewhere(client):
    games = client.get("/api/games").json()
    assert games["model_strengths"] == session_module.MODEL_STRENGTHS and games["max_simulations"] == 20_000
    assert "tabik size=6" in games["models"] and "nume n=3" in games["models"]
    request = {"game": "tabik", "params": {"size": 6}, "mode": "agent", "agent_seat": 1, "agent": "puct", "strength": 200}
    view = client.post("/api/sessions", json=request).json()
    assert view["model"] == "tabik-6" and view["agent"] == "puct"
    assert view["agent_label"] == "learned model tabik-6, 200 simulations per move"
    moved = post(client, view, "move", {"move": "c3-c4", "reply": True}).json()
    state = territory.Tabik(size=6)
    state.play("c3-c4")
    expected = territory.Puct("tabik-6", 200, seed=1).choose(state)  # seeded by the ply, as UCT
    assert moved["history"] == ["c3-c4", expected] and moved["note"] == f"agent played {expected}"
    # No model for this board: refused, naming the boards the models play.
    refused = client.post("/api/sessions", json={**request, "params": {"size": 5}})
    assert refused.status_code == 400
    assert re.search(r"no learned model plays tabik size=5.*tabik size=6.*choose another game or the UCT agent",
                     refused.json()["error"]), refused.json()
    assert new(client, params={"size": 5})["model"] is None
    for bad, words in (({"agent": "alphazero"}, "agent must be 'uct' or 'puct'"),
                       ({"strength": 20_001}, "strength must be a number of simulations from 1 to 20,000")):
        answer = client.post("/api/sessions", json={**request, **bad})
        assert answer.status_code == 400 and words in answer.json()["error"], answer.json()


def test_a_kept_game_keeps_its_agent(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    request = {"game": "nume", "params": {"n": 3}, "mode": "agent", "agent_seat": 0, "agent": "puct", "strength": 50}
    with TestClient(create_app(store=store)) as client:
        view = client.post("/api/sessions", json=request).json()
    with TestClient(create_app(store=store)) as client:
        again = client.get(f"/api/sessions/{view['id']}").json()
        assert (again["agent"], again["strength"], again["model"]) == ("puct", 50, "nume-3")


def test_an_analysis_with_the_learned_model_gives_visits_and_no_values_it_does_not_have(client):
    view = new(client, params={"size": 6})
    result = post(client, view, "analyse", {"iterations": 300, "agent": "puct"}).json()
    assert result["agent"] == "puct" and result["iterations"] == 300
    state = territory.Tabik(size=6)
    visits, value = territory.Puct("tabik-6", 300, seed=0).analyse(state)
    assert result["value"] == pytest.approx(value)
    for m in result["moves"]:
        assert m["visits"] == visits[state.move_to_action(m["move"])] and m["value"] is None
    assert result["best"] == result["moves"][0]["move"]
    answer = post(client, view, "analyse", {"iterations": 20_001, "agent": "puct"})
    assert answer.status_code == 400 and "from 1 to 20,000, got 20001" in answer.json()["error"]
    no_model = new(client, params={"size": 5})
    answer = post(client, no_model, "analyse", {"iterations": 300, "agent": "puct"})
    assert answer.status_code == 400 and "no learned model" in answer.json()["error"]


def test_ownership_and_margin_reach_the_page_where_the_agent_gives_them(client, monkeypatch):
    """An agent that predicts ownership (per cell, in the board's cell order, for the
    player to move) and a margin: the analysis gives them by cell name; one that does
    not (UCT): None, and the page draws nothing."""
    view = new(client)
    plain = post(client, view, "analyse", {"iterations": 200}).json()
    assert plain["ownership"] is None and plain["margin"] is None
    cells = [c.name for c in territory.geometry.board_of(territory.Tabik(size=4)).cells]
    real = app_module.search

    def predicting(agent, state, stop=None, thinking=None):
        found = real(agent, state, stop, thinking)
        found.ownership, found.margin = session_module.prediction(
            state, [(-1) ** i * i / len(cells) for i in range(len(cells))] , 2.5)
        return found

    monkeypatch.setattr(app_module, "search", predicting)
    result = post(client, view, "analyse", {"iterations": 200}).json()
    assert set(result["ownership"]) == set(cells) and result["margin"] == 2.5
    assert result["ownership"][cells[3]] == pytest.approx(-3 / 16) and result["ownership"][cells[0]] == 0


def test_predictions_are_read_by_cell_and_bounded():
    state = territory.Tabik(size=4)
    cells = [c.name for c in territory.geometry.board_of(state).cells]
    ownership, margin = session_module.prediction(state, [2.0] + [0.5] * 15, float("nan"))
    assert ownership[cells[0]] == 1.0 and ownership[cells[1]] == 0.5 and margin is None
    ownership, margin = session_module.prediction(state, {"a1": -0.25, "b1": float("inf")}, 3)
    assert ownership == {"a1": -0.25} and margin == 3.0
    assert session_module.prediction(state, None, None) == (None, None)
