"""The ``territory serve`` command (a local web app to play and analyse, docs/web.md),
registered by ``territory.cli`` with ``register(commands)``; it follows the conventions of
:mod:`territory.cli`."""

from __future__ import annotations

import argparse
import importlib.util
import socket
import sys
from typing import Any

from territory.cli.common import UsageError, add_command, integer

MISSING_EXTRA = "territory serve needs the web extra: pip install 'territory-games[web]' (Starlette and uvicorn)"


def register(commands: Any) -> None:
    """Adds ``serve`` to ``commands`` (argparse subparsers)."""
    parser = add_command(
        commands, "serve", "play and analyse in the browser (a local web app)",
        "Serves a web app to play Migong, Nume and Tabik against the UCT agent or between two\n"
        "people at one screen, with undo, analysis (the agent's visits and values on the board,\n"
        "the exact solver on small boards, a graph of the evaluation), records and position\n"
        "strings. It listens on 127.0.0.1 only unless --host says otherwise. Needs the web\n"
        "extra: pip install 'territory-games[web]'. Stop it with Ctrl-C.",
        "  territory serve                  # then open http://127.0.0.1:8000/\n"
        "  territory serve --port 8080\n"
        "  territory serve --db games.sqlite  # keep the games in this file\n"
        "  territory serve --host 0.0.0.0   # reachable from other machines: trusted networks only\n",
        run_serve,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=integer(1, 65535), default=8000, help="port, 1..65535 (default 8000)")
    parser.add_argument(
        "--db", metavar="PATH", default=None,
        help="the SQLite file every game is kept in (default: games.sqlite in the user's data "
             "directory, ~/.local/share/territory on Linux)",
    )
    parser.add_argument(
        "--search-seconds", type=integer(1, 3600), default=30,
        help="time limit of one search (agent move, analysis, solver), 1..3600 (default 30)",
    )


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or one line saying why not (port in use, no
    such address)."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
        sock.listen(2048)
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def run_serve(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        raise UsageError(MISSING_EXTRA)
    from territory.web.app import create_app, server
    from territory.web.store import Store, StoreError, default_path

    try:
        store = Store(args.db if args.db is not None else default_path())
    except StoreError as error:
        raise UsageError(str(error)) from None
    app = create_app(search_seconds=args.search_seconds, store=store)
    sock = listen(args.host, args.port)

    def listening() -> None:
        shown = f"[{args.host}]" if ":" in args.host else args.host
        print(f"territory serve: open http://{shown}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)

    with sock:
        # uvicorn shuts down cleanly on Ctrl-C and then raises it again: the command ends
        # as an interrupted one (exit 130), like every other (uvicorn.run would swallow it).
        server(app, listening, log_level="warning").run(sockets=[sock])
    return 0
