"""The web app behind ``territory serve`` (Starlette; docs/web.md).

The page (``static/``) asks, the server asks the engine. Every request is checked: a
malformed or illegal move, a bad parameter, record or position gets a 4xx answer with
the engine's message (``{"error": ...}``) and the game unchanged. Each game lives in its
own session (an unguessable id). Searches (the agent's move, analysis, the solver) run in
worker threads on a copy of the state, with a time limit, never on the event loop; a
search past its time limit, or whose client has gone, is stopped at once. Game states
themselves are only touched on the event loop. Only the files in ``static/`` are
served.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from territory import registry
from territory.agents import Stop, Uct, tuned_uct_c
from territory.web.store import Store
from territory.web.session import (
    MAX_ITERATIONS, MAX_SIMULATIONS, MODEL_STRENGTHS, STRENGTHS, Conflict, Session, Thinking, UNITS,
    analysis_view, models_offered, search, solve_view,
)

STATIC = Path(__file__).resolve().parent / "static"
#: Sessions kept at most; the least recently used one goes first.
MAX_SESSIONS = 500
#: Largest request body read (bytes): a long record fits easily.
MAX_BODY = 1_000_000
#: How often a request waiting for its search looks whether its client has gone (seconds).
CLIENT_POLL = 0.2
#: How long an event stream stays silent before a comment keeps the line open (seconds).
KEEP_ALIVE = 15.0


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Sessions:
    """What the app keeps between requests: the games (``by_id``, the most recently used
    last), the threads searches run on, the pages following each game, the database."""

    def __init__(self, search_seconds: float, search_threads: int, store: Optional[Store]) -> None:
        self.search_seconds = search_seconds
        self.store = store
        self.by_id: "OrderedDict[str, Session]" = OrderedDict()
        self.searches = ThreadPoolExecutor(max_workers=search_threads, thread_name_prefix="territory-search")
        #: Per game, the queues of the pages following it live (server-sent events).
        self.followers: "dict[str, set[asyncio.Queue[Optional[int]]]]" = {}

    def end_streams(self) -> None:
        for queues in self.followers.values():
            for queue in queues:
                queue.put_nowait(None)

    def remember(self, session: Session) -> None:
        self.by_id[session.id] = session
        self.by_id.move_to_end(session.id)
        while len(self.by_id) > MAX_SESSIONS:
            self.by_id.popitem(last=False)  # still in the database, if there is one

    def of(self, request: Request) -> Session:
        """The game a request names (``sid``), read back from the database if need be."""
        sid = request.path_params["sid"]
        session = self.by_id.get(sid)
        if session is None and self.store is not None:
            data = self.store.load(sid)
            if data is not None:
                session = Session.from_data(data)
        if session is None:
            raise ApiError(404, "no such game (it was deleted, or the server keeps no games): start a new one")
        self.remember(session)
        return session

    def changed(self, session: Session) -> None:
        """After every change: the game kept, its followers told."""
        if self.store is not None:
            self.store.save(session.id, session.name, session.root.game, len(session.nodes) - 1, session.to_data())
        for queue in self.followers.get(session.id, ()):
            queue.put_nowait(session.version)

    def kept(self) -> Store:
        if self.store is None:
            raise ApiError(404, "this server keeps no games (started without a database)")
        return self.store

    async def run_search(self, request: Request, work: Callable[[Stop], Any], stop: Optional[Stop] = None) -> Any:
        """``work(stop)`` on a search thread. A search past the time limit, or whose client
        has gone, is stopped (``stop`` set: the engine ends within milliseconds; one still
        queued is dropped), so it holds no search thread any longer. ``stop``: one that
        others may set too (StoppedError then)."""
        stop = stop or Stop()
        future = asyncio.wrap_future(self.searches.submit(work, stop))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.search_seconds
        try:
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    raise ApiError(503, f"the search took longer than {self.search_seconds:g} s: try fewer iterations")
                done, _ = await asyncio.wait({future}, timeout=min(left, CLIENT_POLL))
                if done:
                    return future.result()
                if await request.is_disconnected():
                    raise ApiError(499, "the client went away")
        finally:
            if not future.done():
                stop.set()
                future.cancel()


def sessions_of(request: Request) -> Sessions:
    return request.app.state.sessions  # type: ignore[no-any-return]


def endpoint(handler: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """Turns errors into JSON answers: 4xx with the message, the game unchanged."""

    async def wrapped(request: Request) -> Response:
        try:
            result = await handler(request)
        except ApiError as error:
            return JSONResponse({"error": str(error)}, status_code=error.status)
        except Conflict as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        except (ValueError, TypeError) as error:  # the engine's IllegalMoveError, RecordError, ...
            return JSONResponse({"error": str(error), "kind": type(error).__name__}, status_code=400)
        if isinstance(result, Response):
            return result
        return JSONResponse(result)

    return wrapped


async def body(request: Request) -> dict[str, Any]:
    # Read chunk by chunk and refused as soon as it is too large: a huge body is
    # never held (a declared length over the limit is refused before reading).
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, f"request too large ({int(declared)} bytes, at most {MAX_BODY})")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"request too large (over {MAX_BODY} bytes)")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the request body is not JSON") from None
    except RecursionError:
        raise ApiError(400, "the request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def iterations_of(data: dict[str, Any], default: int, most: int) -> int:
    iterations = data.get("iterations", default)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= most:
        raise ApiError(400, f"iterations must be a whole number from 1 to {most:,}, got {iterations!r}")
    return iterations


# --- the routes: each reads the app's Sessions from the request ------------------------------

async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def games(request: Request) -> Any:
    return {
        "games": {name: cls.parameters() for name, cls in registry.GAMES.items()},  # type: ignore[attr-defined]
        "strengths": STRENGTHS,
        "model_strengths": MODEL_STRENGTHS,
        "models": models_offered(),
        "max_iterations": MAX_ITERATIONS,
        "max_simulations": MAX_SIMULATIONS,
    }


async def create(request: Request) -> Any:
    sessions = sessions_of(request)
    session = Session.create(await body(request))
    sessions.remember(session)
    sessions.changed(session)
    return JSONResponse(session.view(), status_code=201)


async def show(request: Request) -> Any:
    return sessions_of(request).of(request).view()


async def move(request: Request) -> Any:
    sessions = sessions_of(request)
    session = sessions.of(request)
    data = await body(request)
    if "move" not in data:
        raise ApiError(400, "the request needs a 'move'")
    session.play(data["move"])
    sessions.changed(session)
    if data.get("reply") is True and session.agent_to_move():
        # The agent answers in the same request (the page asks so for quick agents);
        # if it cannot in time, the page sees the agent to move and asks /agent.
        try:
            await agent_move(request, session)
        except (ApiError, Conflict):
            pass
    return session.view()


async def undo(request: Request) -> Any:
    sessions = sessions_of(request)
    session = sessions.of(request)
    session.undo()
    sessions.changed(session)
    return session.view()


async def goto(request: Request) -> Any:
    sessions = sessions_of(request)
    session = sessions.of(request)
    session.goto((await body(request)).get("node"))
    sessions.changed(session)
    return session.view()


async def agent_move(request: Request, session: Session) -> None:
    sessions = sessions_of(request)
    (state, _), agent, node = session.snapshot(), session.agent(session.strength), session.current
    unit = UNITS[session.agent_kind]
    thinking = session.thinking = Thinking(node, session.strength, unit)
    try:
        found = await sessions.run_search(request, lambda stop: search(agent, state, thinking=thinking), thinking.stop)
    finally:
        if session.thinking is thinking:
            session.thinking = None
    # "Move now": the search ended early with the best move it had.
    done = sum(found.visits)
    note = f"at once, after {done:,} of {session.strength:,} {unit}" if thinking.finish.is_set() else None
    session.apply_agent_move(node, state, found.best, found.value, note)
    sessions.changed(session)


async def agent_now(request: Request) -> Any:
    session = sessions_of(request).of(request)
    if session.thinking is None:
        raise Conflict("the agent is not thinking")
    session.thinking.finish.set()
    return {"moving": True}


async def thinking(request: Request) -> Any:
    """The agent's search under way: simulations done of how many, its best move so
    far and its value for the agent, the seconds it has taken; None when idle."""
    session = sessions_of(request).of(request)
    return {"thinking": session.thinking.view() if session.thinking is not None else None}


async def agent(request: Request) -> Any:
    session = sessions_of(request).of(request)
    if not session.agent_to_move():
        raise Conflict("it is not the agent's turn")
    if session.thinking is not None:
        raise Conflict("the agent is already thinking (asked from another page)")
    await agent_move(request, session)
    return session.view()


async def choices(request: Request) -> Any:
    session = sessions_of(request).of(request)
    return {"choices": session.choices((await body(request)).get("cells"))}


async def analyse(request: Request) -> Any:
    sessions = sessions_of(request)
    session = sessions.of(request)
    data = await body(request)
    kind = data.get("agent", "uct")
    if kind not in ("uct", "puct"):
        raise ApiError(400, f"agent must be 'uct' or 'puct' (the learned model), got {kind!r}")
    if kind == "puct" and session.model is None:
        raise ApiError(400, "no learned model plays this game's parameters: analyse with UCT")
    most = MAX_SIMULATIONS if kind == "puct" else MAX_ITERATIONS
    iterations = iterations_of(data, min(session.strength, most), most)
    (state, _), agent, node = session.snapshot(), session.agent(iterations, kind=kind), session.current
    result = await sessions.run_search(request, lambda stop: analysis_view(state, search(agent, state, stop)))
    session.record_evaluation(node, result["to_move"], result["value"])  # the node's position, whatever is shown now
    sessions.changed(session)
    return {**result, "iterations": iterations, "agent": kind, "node": node, "ply": len(state.history),
            "evaluations": sorted(session.evaluations.items())}


async def solve(request: Request) -> Any:
    sessions = sessions_of(request)
    state, _ = sessions.of(request).snapshot()
    return await sessions.run_search(request, lambda stop: solve_view(state, stop=stop))


def evaluations(state: Any, iterations: int, stop: Stop) -> list[tuple[int, int, float]]:
    """A UCT value of every position of ``state``'s game so far, not over: (ply, the
    seat to move, its value for that seat)."""
    moves = list(state.history)
    while state.history:
        state.undo()
    found = []
    for ply in range(len(moves) + 1):
        if not state.is_over:
            value = Uct(iterations=iterations, c=tuned_uct_c(state), seed=ply).analyse(state, stop=stop).value
            found.append((ply, state.to_move, value))
        if ply < len(moves):
            state.play(moves[ply])
    return found


async def evaluate_game(request: Request) -> Any:
    """An evaluation of every position of the game so far (for the graph)."""
    sessions = sessions_of(request)
    session = sessions.of(request)
    # The same bound as an analysis (per position; the time limit bounds the whole).
    iterations = iterations_of(await body(request), 300, MAX_ITERATIONS)
    state, path = session.state.copy(), session.path()
    for ply, to_move, value in await sessions.run_search(request, lambda stop: evaluations(state, iterations, stop)):
        session.record_evaluation(path[ply], to_move, value)
    sessions.changed(session)
    return {"evaluations": sorted(session.evaluations.items())}


async def saved(request: Request) -> Any:
    store = sessions_of(request).store
    return {"games": store.games() if store is not None else [], "kept": store is not None}


async def rename(request: Request) -> Any:
    sessions = sessions_of(request)
    session = sessions.of(request)
    name = (await body(request)).get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise ApiError(400, f"a game's name must be 1 to 200 characters, got {name!r}")
    session.name = name.strip()
    sessions.changed(session)
    return session.view()


async def delete(request: Request) -> Any:
    sessions = sessions_of(request)
    sid = request.path_params["sid"]
    found = sessions.kept().delete(sid)
    sessions.by_id.pop(sid, None)
    if not found:
        raise ApiError(404, "no such game")
    return {"deleted": sid}


async def events(request: Request) -> Response:
    """Server-sent events: the game's version at every change (a page following the
    game fetches the view then), and a comment after 15 s of silence to keep the line open."""
    sessions = sessions_of(request)
    session = sessions.of(request)
    queue: "asyncio.Queue[Optional[int]]" = asyncio.Queue()
    followers = sessions.followers.setdefault(session.id, set())
    followers.add(queue)

    async def stream() -> Any:
        try:
            yield f"data: {session.version}\n\n"
            while True:
                try:
                    version = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                    if version is None:  # the server is shutting down
                        return
                    yield f"data: {version}\n\n"
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
        finally:
            followers.discard(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


async def record_text(request: Request) -> Any:
    session = sessions_of(request).of(request)
    name = f"{session.state.game}-{len(session.state.history)}.txt"
    return PlainTextResponse(session.state.to_record(), headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


def route(path: str, handler: Callable[[Request], Awaitable[Any]], methods: Optional[list[str]] = None) -> Route:
    return Route(path, endpoint(handler), methods=methods or ["GET"])


def routes() -> list[Any]:
    post = ["POST"]
    return [
        Route("/", index),
        route("/api/games", games),
        route("/api/sessions", create, post),
        route("/api/sessions/{sid}", show),
        route("/api/sessions/{sid}/move", move, post),
        route("/api/sessions/{sid}/undo", undo, post),
        route("/api/sessions/{sid}/goto", goto, post),
        route("/api/sessions/{sid}/agent", agent, post),
        route("/api/sessions/{sid}/agent/now", agent_now, post),
        route("/api/sessions/{sid}/thinking", thinking),
        route("/api/sessions/{sid}/choices", choices, post),
        route("/api/sessions/{sid}/analyse", analyse, post),
        route("/api/sessions/{sid}/solve", solve, post),
        route("/api/sessions/{sid}/evaluate", evaluate_game, post),
        route("/api/sessions/{sid}/record", record_text),
        route("/api/sessions/{sid}/rename", rename, post),
        route("/api/sessions/{sid}/delete", delete, post),
        route("/api/sessions/{sid}/events", events),
        route("/api/saved", saved),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]


def create_app(*, search_seconds: float = 30.0, search_threads: int = 2, store: Optional[Store] = None) -> Starlette:
    """The ASGI app. ``search_seconds``: the time limit of one search (agent move,
    analysis, solver, evaluating a game); ``search_threads``: searches run at once;
    ``store``: the database every game is kept in (none: games live while the server runs)."""
    app = Starlette(routes=routes(), exception_handlers={HTTPException: http_error})
    app.state.sessions = Sessions(search_seconds, search_threads, store)
    return app


def server(app: Starlette, sockets_ready: Optional[Callable[[], None]] = None, **config: Any) -> Any:
    """A uvicorn server for ``app`` that ends the pages' event streams when it shuts down
    (uvicorn would wait for them: a page following a game holds one open), and calls
    ``sockets_ready`` once it listens and handles Ctrl-C."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if not self.should_exit and sockets_ready is not None:
                sockets_ready()

        async def shutdown(self, sockets: Any = None) -> None:
            app.state.sessions.end_streams()
            await super().shutdown(sockets=sockets)

    return Server(uvicorn.Config(app, **config))
