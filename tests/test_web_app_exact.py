"""territory.web.app's answers checked whole (issue 36: what mutmut's survivors in
web/app.py asked for): each refusal's status and words, what each route sends back, and
how the app's Sessions keep, forget and read back games."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import territory  # noqa: E402
from interrupting import wait_until_no_search_runs  # noqa: E402
from moves import play_all  # noqa: E402
from serving import running  # noqa: E402
from territory.web import app as app_module  # noqa: E402
from territory.web import session as session_module  # noqa: E402
from territory.web.app import MAX_BODY, create_app  # noqa: E402
from territory.web.store import Store  # noqa: E402
from web_api import new, post  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app(search_seconds=20)) as c:
        yield c


def test_the_games_on_offer_are_listed_whole(client):
    assert client.get("/api/games").json() == {
        "games": {name: json.loads(json.dumps(cls.parameters())) for name, cls in territory.registry.GAMES.items()},
        "strengths": {"1": 100, "2": 1000, "3": 10000, "4": 100000},
        "model_strengths": {"1": 100, "2": 1000, "3": 5000, "4": 20000},
        "models": session_module.models_offered(),
        "max_iterations": 200_000,
        "max_simulations": 20_000,
    }


def test_errors_are_json_with_their_status_and_the_engines_kind(client):
    view = new(client, mode="agent", agent_seat=1)
    illegal = post(client, view, "move", {"move": "a1-c1"})
    assert (illegal.status_code, set(illegal.json()), illegal.json()["kind"]) == (400, {"error", "kind"}, "IllegalMoveError")
    answer = post(client, view, "move", {"move": "a1-a2"})
    assert answer.status_code == 200
    refused = post(client, view, "move", {"move": "b1-b2"})
    assert (refused.status_code, refused.json()) == (409, {"error": "it is the agent's turn"})
    missing = post(client, view, "move", {"reply": True})
    assert (missing.status_code, missing.json()) == (400, {"error": "the request needs a 'move'"})
    gone = client.get("/api/sessions/nope")
    assert (gone.status_code, gone.json()) == (
        404, {"error": "no such game (it was deleted, or the server keeps no games): start a new one"})
    bad = client.post("/api/sessions", json={"game": "tabik", "params": {"size": 1}})
    assert bad.status_code == 400 and bad.json()["kind"] == "ParameterError"
    wrong = client.post("/api/sessions", json={"game": "go"})
    assert wrong.status_code == 400 and wrong.json()["kind"] == "SessionError"
    assert client.get("/no/such/page").json() == {"error": "Not Found"}


def test_the_illegal_moves_message_is_the_engines(client):
    view = new(client)
    with pytest.raises(ValueError) as error:
        territory.Tabik(size=4).play("a1-c1")
    answer = post(client, view, "move", {"move": "a1-c1"})
    assert (answer.status_code, answer.json()) == (400, {"error": str(error.value), "kind": type(error.value).__name__})


def test_request_bodies_are_refused_with_their_words(client):
    view = new(client)
    url = f"/api/sessions/{view['id']}/move"
    for raw, words in ((b"not json", "the request body is not JSON"), (b"\xff\xfe", "the request body is not JSON"),
                       (b"[1, 2]", "the request body must be a JSON object"),
                       (b"[" * 100_000, "the request body is nested too deeply")):
        answer = client.post(url, content=raw)
        assert (answer.status_code, answer.json()) == (400, {"error": words}), raw[:10]
    over = client.post(url, content=b" " * (MAX_BODY + 1))
    assert (over.status_code, over.json()) == (413, {"error": f"request too large ({MAX_BODY + 1} bytes, at most {MAX_BODY})"})
    empty = client.post(url, content=b"")
    assert (empty.status_code, empty.json()) == (400, {"error": "the request needs a 'move'"})
    assert client.get(f"/api/sessions/{view['id']}").json()["history"] == []


def test_iterations_are_checked_against_the_agents_own_bound(client):
    view = new(client)
    for sent in (0, 200_001, True, "abc", 2.0):
        answer = post(client, view, "evaluate", {"iterations": sent})
        assert (answer.status_code, answer.json()) == (
            400, {"error": f"iterations must be a whole number from 1 to 200,000, got {sent!r}"}), sent
    answer = post(client, view, "analyse", {"agent": "puct", "iterations": 20_001})
    assert (answer.status_code, answer.json()) == (400, {"error": "iterations must be a whole number from 1 to 20,000, got 20001"})
    answer = post(client, view, "analyse", {"agent": "random"})
    assert (answer.status_code, answer.json()) == (400, {"error": "agent must be 'uct' or 'puct' (the learned model), got 'random'"})
    five = new(client, params={"size": 5})
    answer = post(client, five, "analyse", {"agent": "puct"})
    assert (answer.status_code, answer.json()) == (400, {"error": "no learned model plays this game's parameters: analyse with UCT"})
    assert post(client, view, "analyse", {"iterations": 1}).json()["iterations"] == 1
    assert post(client, view, "analyse", {"iterations": 200_000 // 1000}).json()["iterations"] == 200


def test_an_analysis_is_recorded_for_its_position_and_answered_whole(client):
    view = new(client)
    view = post(client, view, "move", {"move": "a1-a2"}).json()
    answer = post(client, view, "analyse", {"iterations": 50}).json()
    assert set(answer) == {"value", "to_move", "best", "moves", "ownership", "margin", "iterations", "agent", "node",
                           "ply", "evaluations"}
    assert (answer["iterations"], answer["agent"], answer["node"], answer["ply"], answer["to_move"]) == (50, "uct", 1, 1, 1)
    assert answer["evaluations"] == [[1, -answer["value"]]], "kept for seat 0"
    default = post(client, view, "analyse").json()
    assert default["iterations"] == 1000, "the session's strength"
    puct = post(client, view, "analyse", {"agent": "puct", "iterations": 30}).json()
    assert (puct["agent"], puct["iterations"], puct["node"]) == ("puct", 30, 1)
    drawn = play_all(territory.Nume(square=2, komi=None), ["a1=1", "b2=1", "b1", "a2"])
    over = new(client, record=drawn.to_record())
    answer = post(client, over, "analyse")
    assert (answer.status_code, answer.json()) == (409, {"error": "the game is over"})


def test_evaluating_records_each_position_of_the_line_for_seat_0(client):
    view = new(client)
    for move in ("a1-a2", "c3-c4"):
        view = post(client, view, "move", {"move": move}).json()
    answer = post(client, view, "evaluate", {"iterations": 40}).json()
    state = territory.Tabik(size=4)
    expected = []
    for ply, move in enumerate([*view["history"], None]):
        value = territory.Uct(iterations=40, c=territory.agents.tuned_uct_c(state), seed=ply).analyse(state).value
        expected.append([ply, value if state.to_move == 0 else -value])
        if move:
            state.play(move)
    assert answer == {"evaluations": expected}
    # The game's own line, whatever position is shown now.
    post(client, view, "goto", {"node": 1})
    assert client.get(f"/api/sessions/{view['id']}").json()["evaluations"] == expected


def test_stepping_renaming_and_the_record_answer_with_the_view(client):
    view = new(client)
    view = post(client, view, "move", {"move": "a1-a2"}).json()
    back = post(client, view, "undo").json()
    assert (back["node"], back["history"], back["version"]) == (0, [], 2)
    forward = post(client, view, "goto", {"node": 1}).json()
    assert (forward["node"], forward["history"], forward["version"]) == (1, ["a1-a2"], 3)
    bad = post(client, view, "goto", {"node": 5})
    assert (bad.status_code, bad.json()["error"]) == (400, "no move number 5 in this game")
    renamed = post(client, view, "rename", {"name": "  my game  "}).json()
    assert renamed["name"] == "my game"
    for name in ("", "   ", "x" * 201, 5, None):
        answer = post(client, view, "rename", {"name": name})
        assert (answer.status_code, answer.json()) == (400, {"error": f"a game's name must be 1 to 200 characters, got {name!r}"})
    assert post(client, view, "rename", {"name": "y" * 200}).json()["name"] == "y" * 200
    record = client.get(f"/api/sessions/{view['id']}/record")
    assert record.headers["content-disposition"] == 'attachment; filename="tabik-1.txt"'
    assert record.headers["content-type"].startswith("text/plain")
    assert territory.load(record.text).history == ["a1-a2"]
    choices = post(client, view, "choices", {"cells": ["b1", "b2"]}).json()
    assert choices == {"choices": [{"move": "b1-b2", "label": "b1-b2"}]}


def test_the_agent_answers_in_the_same_request_only_when_asked(client):
    view = new(client, mode="agent", agent_seat=1, strength=20)
    played = post(client, view, "move", {"move": "a1-a2"}).json()
    assert played["history"] == ["a1-a2"] and played["agent_to_move"] is True
    assert post(client, view, "thinking").status_code == 405
    assert client.get(f"/api/sessions/{view['id']}/thinking").json() == {"thinking": None}
    answered = post(client, view, "agent").json()
    assert len(answered["history"]) == 2 and answered["note"].startswith("agent played ")
    assert answered["evaluations"][0][0] == 1
    replied = post(client, view, "move", {"move": _any_legal(answered), "reply": True})
    assert len(replied.json()["history"]) == 4
    refused = post(client, view, "agent")
    assert (refused.status_code, refused.json()) == (409, {"error": "it is not the agent's turn"})
    idle = post(client, view, "agent/now")
    assert (idle.status_code, idle.json()) == (409, {"error": "the agent is not thinking"})


def _any_legal(view):
    state = territory.Tabik.from_position(view["position"], size=4)
    return state.legal_moves()[0]


def test_a_reply_that_cannot_come_leaves_the_persons_move_played():
    with TestClient(create_app(search_seconds=0.01)) as client:
        view = new(client, "migong", {}, mode="agent", agent_seat=1, strength=50_000)
        move = territory.Migong().legal_moves()[0]
        answer = post(client, view, "move", {"move": move, "reply": True})
        assert answer.status_code == 200 and answer.json()["history"] == [move]
        assert answer.json()["agent_to_move"] is True
        late = post(client, view, "agent")
        assert (late.status_code, late.json()) == (503, {"error": "the search took longer than 0.01 s: try fewer iterations"})


def test_without_a_database_nothing_is_kept_or_deleted(client):
    view = new(client)
    assert client.get("/api/saved").json() == {"games": [], "kept": False}
    answer = post(client, view, "delete")
    assert (answer.status_code, answer.json()) == (404, {"error": "this server keeps no games (started without a database)"})


def test_sessions_are_forgotten_oldest_first_and_read_back_from_the_database(tmp_path, monkeypatch):
    monkeypatch.setattr(app_module, "MAX_SESSIONS", 2)
    store = Store(tmp_path / "games.db")
    with TestClient(create_app(store=store)) as client:
        kept = client.app.state.sessions
        one, two = new(client), new(client)
        client.get(f"/api/sessions/{one['id']}")  # one is now the most recently used
        three = new(client)
        assert list(kept.by_id) == [one["id"], three["id"]]
        post(client, two, "move", {"move": "a1-a2"})  # read back from the database
        assert list(kept.by_id) == [three["id"], two["id"]]
        assert client.get(f"/api/sessions/{two['id']}").json()["history"] == ["a1-a2"]
        listed = client.get("/api/saved").json()
        assert listed["kept"] is True and {g["id"] for g in listed["games"]} == {one["id"], two["id"], three["id"]}
        assert [g["moves"] for g in listed["games"] if g["id"] == two["id"]] == [1]
        assert post(client, two, "delete").json() == {"deleted": two["id"]}
        assert two["id"] not in kept.by_id
        again = post(client, two, "delete")
        assert (again.status_code, again.json()) == (404, {"error": "no such game"})
        assert client.get(f"/api/sessions/{two['id']}").status_code == 404


def test_the_solver_answers_whole_and_a_solve_past_the_time_limit_is_stopped(client, monkeypatch):
    view = new(client, params={"size": 4, "pie": False})
    for move in ("c3-b3", "a2-a1", "d1-c1"):  # about 260,000 positions: longer than a poll of the client
        view = post(client, view, "move", {"move": move}).json()
    answer = post(client, view, "solve").json()
    assert (answer["solved"], answer["nodes"], answer["to_move"], len(answer["line"])) == (True, 261_737, 1, 15)
    monkeypatch.setattr(session_module, "SOLVE_NODES", 10**12)  # a solve of hours
    with TestClient(create_app(search_seconds=0.5, search_threads=1)) as quick:
        large = new(quick, params={"size": 8})
        answer = post(quick, large, "solve")
        assert (answer.status_code, answer.json()) == (503, {"error": "the search took longer than 0.5 s: try fewer iterations"})
        wait_until_no_search_runs(5.0)
    assert client.get("/").headers["content-type"] == "text/html; charset=utf-8"


def test_evaluating_takes_300_iterations_by_default_and_stops_past_the_time_limit(client, monkeypatch):
    view = new(client)
    view = post(client, view, "move", {"move": "a1-a2"}).json()
    answer = post(client, view, "evaluate").json()
    state = territory.Tabik(size=4)
    first = territory.Uct(iterations=300, c=territory.agents.tuned_uct_c(state), seed=0).analyse(state).value
    assert answer["evaluations"][0] == [0, first]
    monkeypatch.setattr(app_module, "MAX_ITERATIONS", territory.agents.MAX_UCT_ITERATIONS)
    with TestClient(create_app(search_seconds=0.5, search_threads=1)) as quick:
        endless = new(quick, "migong", {})
        answer = post(quick, endless, "evaluate", {"iterations": territory.agents.MAX_UCT_ITERATIONS})
        assert (answer.status_code, answer.json()) == (503, {"error": "the search took longer than 0.5 s: try fewer iterations"})
        wait_until_no_search_runs(5.0)
        assert quick.get(f"/api/sessions/{endless['id']}").json()["evaluations"] == []


def test_an_agents_move_past_the_time_limit_is_stopped(monkeypatch):
    """The agent searches under its own stop (the page's "move now" has another): the
    time limit sets that one, so the search ends with the 503, not thousands of
    iterations later."""
    monkeypatch.setattr(session_module, "MAX_ITERATIONS", territory.agents.MAX_UCT_ITERATIONS)
    with TestClient(create_app(search_seconds=0.5, search_threads=1)) as client:
        view = new(client, "migong", {}, mode="agent", agent_seat=0, strength=territory.agents.MAX_UCT_ITERATIONS)
        answer = post(client, view, "agent")
        assert (answer.status_code, answer.json()) == (503, {"error": "the search took longer than 0.5 s: try fewer iterations"})
        wait_until_no_search_runs(5.0)
        assert client.get(f"/api/sessions/{view['id']}").json()["thinking"] is None


def test_versions_count_every_move():
    game = session_module.Session.create({"game": "tabik", "params": {"size": 4}, "mode": "humans"})
    game.play("a1-a2")
    game.play("b1-b2")
    assert game.version == 2


def test_the_apps_server_serves_sockets_handed_to_it_says_when_it_listens_and_closes_them():
    import http.client
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    ready: list[bool] = []
    instance = app_module.server(create_app(), sockets_ready=lambda: ready.append(True), log_level="warning")
    with running(instance, sockets=[sock]) as thread:
        assert ready == [True]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        connection.request("GET", "/api/saved")
        assert json.loads(connection.getresponse().read()) == {"games": [], "kept": False}
        connection.close()
    assert not thread.is_alive() and sock.fileno() == -1, "the handed socket is closed on the way out"


def test_a_streamed_body_over_the_limit_is_refused_with_its_words(client):
    view = new(client)
    chunks = (b" " * 65_536 for _ in range(MAX_BODY // 65_536 + 2))  # no declared length
    answer = client.post(f"/api/sessions/{view['id']}/move", content=chunks)
    assert (answer.status_code, answer.json()) == (413, {"error": f"request too large (over {MAX_BODY} bytes)"})


def searches_at_once(searches, count):
    """Submits ``count`` searches that each wait to be released. Returns the names of the
    threads that started one within half a second, then of those that ran them all once
    released."""
    import threading
    import time

    started, release = [], threading.Event()

    def work():
        started.append(threading.current_thread().name)
        release.wait(10)

    futures = [searches.submit(work) for _ in range(count)]
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline and len(started) < count:
        time.sleep(0.01)
    at_once = sorted(started)
    release.set()
    for future in futures:
        future.result(10)
    searches.shutdown()
    return at_once, sorted(started)


def test_searches_run_on_as_many_named_threads_as_asked():
    at_once, all_of_them = searches_at_once(create_app(search_threads=1).state.sessions.searches, 2)
    assert at_once == ["territory-search_0"], "one thread: the second search waits"
    assert all_of_them == ["territory-search_0"] * 2


def test_by_default_two_searches_run_at_once_for_at_most_30_seconds():
    sessions = create_app().state.sessions
    assert sessions.search_seconds == 30.0 and sessions.store is None
    at_once, _ = searches_at_once(sessions.searches, 3)
    assert at_once == ["territory-search_0", "territory-search_1"], "the third waits"
