"""territory.web.store checked exactly (issue 36, mutation testing): the default path on
each platform, the header written, the rows kept, the messages of each refusal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from territory.web import store
from territory.web.store import APPLICATION_ID, SCHEMA, Store, StoreError


def test_the_default_path_on_each_platform(monkeypatch, tmp_path):
    monkeypatch.setattr(store.Path, "home", staticmethod(lambda: tmp_path))
    monkeypatch.setattr(store.sys, "platform", "linux")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert store.default_path() == tmp_path / ".local" / "share" / "territory" / "games.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert store.default_path() == tmp_path / "x" / "territory" / "games.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert store.default_path() == tmp_path / ".local" / "share" / "territory" / "games.sqlite"
    monkeypatch.setattr(store.sys, "platform", "darwin")
    assert store.default_path() == tmp_path / "Library" / "Application Support" / "territory" / "games.sqlite"
    monkeypatch.setattr(store.sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "roaming"))
    assert store.default_path() == tmp_path / "roaming" / "territory" / "games.sqlite"
    monkeypatch.setenv("APPDATA", "")
    assert store.default_path() == tmp_path / ".local" / "share" / "territory" / "games.sqlite"  # no APPDATA: as elsewhere


def test_a_new_database_has_our_header_and_table(tmp_path):
    path = tmp_path / "sub" / "games.sqlite"
    kept = Store(path)
    assert kept.path == path and path.exists()
    kept.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,) == (0x54455252,)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA,) == (1,)
    columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    assert columns == ["id", "name", "game", "moves", "created", "updated", "data"]
    db.close()
    Store(path).close()  # reopened: ours


def test_games_are_saved_loaded_listed_renamed_and_deleted(tmp_path, monkeypatch):
    kept = Store(tmp_path / "g.sqlite")
    clock = iter([100.0, 200.0, 300.0])
    monkeypatch.setattr(store.time, "time", lambda: next(clock))
    kept.save("a", "first", "tabik", 3, {"x": [1, 2]})
    kept.save("b", "second", "nume", 0, {})
    assert kept.load("a") == {"x": [1, 2], "name": "first"} and kept.load("zz") is None
    assert kept.games() == [
        {"id": "b", "name": "second", "game": "nume", "moves": 0, "created": 200.0, "updated": 200.0},
        {"id": "a", "name": "first", "game": "tabik", "moves": 3, "created": 100.0, "updated": 100.0},
    ]
    kept.save("a", "renamed", "other", 5, {"x": 3})  # the game and created stay
    assert kept.games()[0] == {"id": "a", "name": "renamed", "game": "tabik", "moves": 5, "created": 100.0, "updated": 300.0}
    assert kept.load("a") == {"x": 3, "name": "renamed"}
    assert kept.rename("a", "new") is True and kept.rename("zz", "new") is False
    assert kept.load("a")["name"] == "new"
    assert kept.delete("b") is True and kept.delete("b") is False
    assert [g["id"] for g in kept.games()] == ["a"]
    kept.close()


def test_refusals_say_why_and_name_the_file(tmp_path):
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError) as error:
        Store(other)
    assert str(error.value) == f"{other} is an SQLite database of another program, not territory's games: give another file with --db"
    newer = tmp_path / "newer.sqlite"
    Store(newer).close()
    db = sqlite3.connect(newer)
    db.execute("PRAGMA user_version = 7")
    db.close()
    with pytest.raises(StoreError) as error:
        Store(newer)
    assert str(error.value) == f"{newer} is a territory games database of another version (7, this one reads 1)"
    # Our header, no table yet: made (an empty database of ours).
    empty = tmp_path / "empty.sqlite"
    db = sqlite3.connect(empty)
    db.execute("PRAGMA user_version = 0")
    db.execute("CREATE TABLE t (x)")
    db.execute("DROP TABLE t")
    db.commit()
    db.close()
    Store(empty).close()
    text = tmp_path / "text.sqlite"
    text.write_text("not a database at all, long enough to be read as a header" * 10)
    with pytest.raises(StoreError) as error:
        Store(text)
    assert str(error.value).startswith(f"{text} is not a territory games database or is damaged (")
    assert str(error.value).endswith("): give another file with --db, or move this one away")
    assert text.read_text().startswith("not a database at all")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError) as error:
        Store(blocker / "games.sqlite")
    assert str(error.value).startswith(f"cannot open the games database {blocker / 'games.sqlite'}: ")


def test_an_empty_file_is_made_ours(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    kept = Store(path)
    kept.save("a", "first", "tabik", 0, {})
    kept.close()
    assert Store(path).load("a") == {"name": "first"}


def test_a_damaged_database_of_ours_is_refused_with_sqlites_report(tmp_path):
    """A file with our header whose tree is broken (found by ``PRAGMA quick_check``, not
    by opening it) is refused with the check's own words, and left as it was."""
    path = tmp_path / "g.sqlite"
    kept = Store(path)
    for i in range(50):
        kept.save(f"id{i}", "n", "tabik", 1, {"x": "y" * 500})
    kept.close()
    db = sqlite3.connect(path)
    (page_size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    data = bytearray(path.read_bytes())
    third = 2 * page_size  # page 3, a leaf of the games table: its cell content start made 1
    data[third + 5:third + 7] = b"\x00\x01"
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as error:
        Store(path)
    message = str(error.value)
    assert message.startswith(f"{path} is not a territory games database or is damaged (*** in database main ***\n")
    assert "Page 3: " in message and message.endswith("): give another file with --db, or move this one away")
    assert path.read_bytes() == bytes(data)
