"""Requests the web tests make through Starlette's TestClient: a new game, and a POST
to a game's route."""

from __future__ import annotations

from typing import Any, Optional


def new(client: Any, game: str = "tabik", params: Optional[dict] = None, **extra: Any) -> dict:
    """A new game between two people (Tabik 4x4 by default); its view."""
    answer = client.post("/api/sessions", json={"game": game, "params": {"size": 4} if params is None else params,
                                                 "mode": "humans", **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def post(client: Any, view: dict, what: str, body: Optional[dict] = None) -> Any:
    """POSTs ``body`` (an empty object by default) to the game's route ``what``."""
    return client.post(f"/api/sessions/{view['id']}/{what}", json=body if body is not None else {})
