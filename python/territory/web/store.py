"""The games of ``territory serve`` kept in a local SQLite database (the standard
library's ``sqlite3``): every game played or loaded, listed, reopened, renamed, deleted.

Each game is one row: its settings and its whole tree (moves, variations, evaluations) as
JSON, written in one transaction at every change, so a server killed mid-write keeps
the last complete version (SQLite's journal). A file that is not this database (not
SQLite, another program's SQLite database, a corrupt one) is refused with a message
saying so and is never written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any, Optional

#: Written in the file's header (``PRAGMA application_id``): tells our database from others.
APPLICATION_ID = 0x54455252  # "TERR"
SCHEMA = 1


class StoreError(ValueError):
    """The database file cannot be used (the message says why and names the file)."""


def default_path() -> Path:
    """``games.sqlite`` in the user's data directory: ``$XDG_DATA_HOME/territory`` (else
    ``~/.local/share/territory``); ``%APPDATA%\\territory`` on Windows;
    ``~/Library/Application Support/territory`` on macOS."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "territory" / "games.sqlite"


class Store:
    """The games database at ``path`` (made if missing)."""

    def __init__(self, path: "str | os.PathLike[str]") -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the games database {self.path}: {error}") from None
        try:
            self._check()
        except sqlite3.DatabaseError as error:
            self.db.close()
            raise StoreError(f"{self.path} is not a territory games database or is damaged ({error}): "
                             "give another file with --db, or move this one away") from None

    def _check(self) -> None:
        (app,), (version,) = self.db.execute("PRAGMA application_id").fetchone(), self.db.execute("PRAGMA user_version").fetchone()
        tables = [row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if app == 0 and not tables:  # a new file, an empty one, or an empty database: made ours
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version = {SCHEMA}")
                self.db.execute(
                    "CREATE TABLE games (id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL,"
                    " moves INTEGER NOT NULL, created REAL NOT NULL, updated REAL NOT NULL, data TEXT NOT NULL)"
                )
            return
        if app != APPLICATION_ID:
            raise StoreError(f"{self.path} is an SQLite database of another program, not territory's games: "
                             "give another file with --db")
        if version != SCHEMA:
            raise StoreError(f"{self.path} is a territory games database of another version ({version}, this one reads {SCHEMA})")
        (ok,) = self.db.execute("PRAGMA quick_check").fetchone()
        if ok != "ok":
            raise sqlite3.DatabaseError(ok)

    def save(self, sid: str, name: str, game: str, moves: int, data: dict[str, Any]) -> None:
        """Writes one game whole, in one transaction (all of it or, if killed, the last version)."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO games (id, name, game, moves, created, updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET name = excluded.name, moves = excluded.moves,"
                " updated = excluded.updated, data = excluded.data",
                (sid, name, game, moves, now, now, json.dumps(data)),
            )

    def load(self, sid: str) -> Optional[dict[str, Any]]:
        row = self.db.execute("SELECT name, data FROM games WHERE id = ?", (sid,)).fetchone()
        if row is None:
            return None
        return {**json.loads(row[1]), "name": row[0]}

    def games(self) -> list[dict[str, Any]]:
        """Every game kept, the most recently changed first."""
        rows = self.db.execute("SELECT id, name, game, moves, created, updated FROM games ORDER BY updated DESC")
        return [dict(zip(("id", "name", "game", "moves", "created", "updated"), row)) for row in rows]

    def rename(self, sid: str, name: str) -> bool:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db.execute("UPDATE games SET name = ? WHERE id = ?", (name, sid)).rowcount == 1

    def delete(self, sid: str) -> bool:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db.execute("DELETE FROM games WHERE id = ?", (sid,)).rowcount == 1

    def close(self) -> None:
        self.db.close()
