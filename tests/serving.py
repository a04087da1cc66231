"""The web app served for real (uvicorn on a free loopback port, in a thread), for the
tests that need real connections: ``tests/test_web.py``, ``tests/test_web_app_exact.py`` and
``tests/test_web_browser.py``."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any, Iterator


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(app: Any, make_server: Any = None) -> Iterator[int]:
    """Serves ``app`` on a free loopback port until the block ends; yields the port.
    ``make_server(app, **config)``: the server to run (uvicorn's by default; the app's
    own ``territory.web.app.server`` ends its event streams on the way out)."""
    import uvicorn

    port = free_port()
    config = {"host": "127.0.0.1", "port": port, "log_level": "warning"}
    instance = make_server(app, **config) if make_server else uvicorn.Server(uvicorn.Config(app, **config))
    with running(instance):
        yield port


@contextlib.contextmanager
def running(instance: Any, **run: Any) -> Iterator[threading.Thread]:
    """Runs a uvicorn server ``instance`` in a thread (``instance.run(**run)``) until the
    block ends; yields the thread once the server has started."""
    thread = threading.Thread(target=instance.run, kwargs=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield thread
    finally:
        instance.should_exit = True
        thread.join(10)
