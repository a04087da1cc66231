"""The registry is the one list of games: outside a game's own files, only the files in
``REGISTRATIONS`` (and ``MENTIONS``, which are not registrations) may name a game
(docs/adding-a-game.md lists them).

The rule, precisely:

* Scanned: the library's code (``rust/territory/src``, ``rust/territory-py/src``,
  ``python/territory``: every ``.rs`` and ``.py`` file) and the test tools that handle
  every game (``SCANNED_TOOLS``). Not scanned: tests (``test_*.py``, their strategies and
  pins, Rust ``#[cfg(test)]`` modules and ``tests.rs`` files), benches, examples, fuzz targets, docs and
  data: they are about particular games on purpose.
* A game's own files are not checked: a file named after it (``tabik.rs``,
  ``reference/tabik.py``) or under a folder named after it (``src/games/tabik/``).
* Naming a game: an identifier or a string literal holding a game's name as a word
  (``Tabik``, ``TabikConfig``, ``PyTabik``, ``tabik::``, ``"tabik"``, ``_tabik_diagram``;
  not ``enumerate``). Comments, Rust doc comments and Python docstrings are
  documentation, not checked.
* A file of ``REGISTRATIONS`` may name each game on at most its given number of lines; a
  file of ``MENTIONS`` (help text, test data, a default: not registrations) on any
  number. Every other file names no game.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

import pytest

import territory

ROOT = Path(__file__).resolve().parent.parent
SCANNED_DIRS = ("rust/territory/src", "rust/territory-py/src", "python/territory")
SCANNED_TOOLS = ("tests/make_perft.py", "tests/perft.py", "tests/gen_stubs.py")

#: The registrations: files besides a game's own that name it, each on at most the given
#: number of lines per game, and why.
REGISTRATIONS: dict[str, tuple[int, str]] = {
    "rust/territory/src/games/registry.rs": (1, "the registry: one line in game_list!"),
    "python/territory/__init__.py": (1, "the class's export; the `as` form re-exports it to type checkers"),
}

#: Files that may name games on any number of lines but are not registrations: a new game
#: needs no line in them (documentation text, test data, a default), and why.
MENTIONS: dict[str, str] = {
    "python/territory/cli/__init__.py": "command-line help: its examples name games",
    "python/territory/cli/search.py": "command-line help: its examples name games",
    "python/territory/cli/crosscheck.py": "command-line help: its examples name games",
    "python/territory/cli/serve.py": "command-line help: its examples name games",
    "python/territory/cli/train.py": "command-line help: its examples name games",
    "python/territory/cli/evaluate.py": "command-line help: its examples name games; the komi command's options are Nume's",
    "python/territory/puct.py": "an error message's example: a shipped model's name",
    "python/territory/train.py": "the default game of a training run",
    "python/territory/crosscheck/wrong_tie_break.py": "docs/crosscheck.md's example of a wrong engine: a Tabik adapter with a planted bug",
}

#: The most one-line registrations a new game may need, engine, bindings and Python
#: together: the registry's line and the package's export (issue 33; the third line
#: outside its own files is its rules, in docs/RULES.md).
MOST_REGISTRATIONS = 2

WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
GAME_NAMES = set(territory.GAMES)


def games_named(token: str) -> set[str]:
    """The games a token names: its words (split at case changes, underscores and
    punctuation) that are a game's name."""
    return {w.lower() for w in WORD.findall(token)} & GAME_NAMES


def own_game(path: str) -> str | None:
    parts = Path(path).with_suffix("").parts
    return next((p for p in parts if p in GAME_NAMES), None)


RUST_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|r#*"|b?"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|[A-Za-z_][A-Za-z0-9_]*', re.S)


def rust_names(text: str) -> list[tuple[int, str]]:
    """(line, token) of the identifiers and string literals of Rust code, outside
    comments and ``#[cfg(test)]`` modules."""
    out = []
    test_module = re.search(r"^\s*#\[cfg\(test\)\]\s*\n\s*(pub\s+)?mod\s", text, re.M)
    if test_module:
        text = text[: test_module.start()]
    for match in RUST_TOKEN.finditer(text):
        token = match.group()
        if token.startswith(("//", "/*")):
            continue
        if token.startswith("r") and token.endswith('"') and token[1:].strip("#") == '"':  # raw string
            hashes = len(token) - 2
            end = text.find('"' + "#" * hashes, match.end())
            token = text[match.end(): end]
        out.append((text.count("\n", 0, match.start()) + 1, token))
    return out


def python_names(text: str) -> list[tuple[int, str]]:
    """(line, token) of the names and string literals of Python code, outside comments
    and docstrings (a string that is a statement of its own)."""
    out = []
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
              if t.type not in (tokenize.COMMENT, tokenize.NL)]
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.STRING:
            before = tokens[i - 1].type if i else tokenize.NEWLINE
            after = tokens[i + 1].type if i + 1 < len(tokens) else tokenize.NEWLINE
            if before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) and after in (tokenize.NEWLINE, tokenize.ENDMARKER):
                continue  # a docstring
        if tok.type in (tokenize.NAME, tokenize.STRING) or (tok.type == tokenize.OP and False):
            out.append((tok.start[0], tok.string))
        elif tok.type not in (tokenize.OP, tokenize.NUMBER, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            out.append((tok.start[0], tok.string))  # f-string parts (Python 3.12+)
    return out


def scanned_files() -> list[str]:
    code = {
        path.relative_to(ROOT).as_posix()
        for folder in SCANNED_DIRS
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".rs", ".py") and path.name != "tests.rs" and "__pycache__" not in path.parts
    }
    return sorted(code | set(SCANNED_TOOLS))


def names_by_file() -> dict[str, dict[str, set[int]]]:
    """For each scanned file not a game's own: game -> lines naming it."""
    found: dict[str, dict[str, set[int]]] = {}
    for path in scanned_files():
        text = (ROOT / path).read_text()
        tokens = rust_names(text) if path.endswith(".rs") else python_names(text)
        owner = own_game(path)
        for line, token in tokens:
            for game in games_named(token) - {owner}:
                found.setdefault(path, {}).setdefault(game, set()).add(line)
    return found


def violations(found: dict[str, dict[str, set[int]]]) -> list[str]:
    """What breaks the rule in ``names_by_file()``'s answer."""
    out = []
    for path, games in sorted(found.items()):
        if path in MENTIONS:
            continue
        for game, lines in sorted(games.items()):
            if path not in REGISTRATIONS:
                out.append(f"{path} names {game} on lines {sorted(lines)}: ask territory.GAMES, the class or territory.games")
            elif len(lines) > REGISTRATIONS[path][0]:
                out.append(f"{path} ({REGISTRATIONS[path][1]}) names {game} on lines {sorted(lines)}")
    return out


def test_the_scanner_sees_names_and_skips_documentation():
    assert games_named("PyTabik") == {"tabik"} and games_named("enumerate") == set()
    assert games_named("_migong_grid") == {"migong"} and games_named("'nume'") == {"nume"}
    rust = 'use crate::tabik::Tabik; // Nume\n/// Migong\nlet s = "nume";\n#[cfg(test)]\nmod tests { Migong }\n'
    assert [(line, games_named(t)) for line, t in rust_names(rust) if games_named(t)] == [(1, {"tabik"}), (1, {"tabik"}), (3, {"nume"})]
    python = '"""Tabik."""\nx = "nume"  # migong\ndef f():\n    """Migong."""\n    return Tabik\n'
    assert [(line, games_named(t)) for line, t in python_names(python) if games_named(t)] == [(2, {"nume"}), (5, {"tabik"})]
    assert own_game("rust/territory/src/games/tabik/position.rs") == "tabik" and own_game("python/territory/svg.py") is None


def test_a_shared_file_naming_a_game_fails(tmp_path, monkeypatch):
    """The rule catches a shared module that names a game (a table entry, a comparison
    with its name), a registration over its lines, and not a game's own module."""
    (tmp_path / "python/territory/games").mkdir(parents=True)
    (tmp_path / "python/territory/svg.py").write_text('"""Tabik."""\nif state.game == "migong":\n    pass\n')
    (tmp_path / "python/territory/games/migong.py").write_text('new_game("migong")\n')
    (tmp_path / "python/territory/__init__.py").write_text("from territory._core import Nume as Nume\nNume\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "SCANNED_DIRS", ("python/territory",))
    monkeypatch.setattr(sys.modules[__name__], "SCANNED_TOOLS", ())
    found = names_by_file()
    assert found == {"python/territory/svg.py": {"migong": {2}}, "python/territory/__init__.py": {"nume": {1, 2}}}
    assert len(violations(found)) == 2


def test_only_registrations_name_a_game():
    """A fourth game is its own files plus the lines of REGISTRATIONS: every other file
    asks the registry (``for_each_game!``/``with_game!``, ``territory.GAMES``, the class,
    ``territory.games``)."""
    assert violations(names_by_file()) == [], "files outside docs/adding-a-game.md's list name a game"


def test_a_new_game_needs_at_most_two_one_line_registrations():
    assert sum(most for most, _ in REGISTRATIONS.values()) <= MOST_REGISTRATIONS


@pytest.mark.parametrize("path", sorted(REGISTRATIONS | MENTIONS))
def test_docs_list_every_registration(path):
    assert f"`{path}`" in (ROOT / "docs/adding-a-game.md").read_text()


def test_game_modules_are_found_by_name_and_give_their_hooks():
    """territory.games: each game's own module by its name; a game without one gets the
    defaults; only the documented hooks are asked."""
    from territory import games

    assert games.hook("no-such-game", "diagram") is None and games.hook("no-such-game", "HAND_WORKED", []) == []
    for game in territory.GAMES:
        module = games.module(game)  # optional: a game without one gets every default
        if module is not None:
            assert module.__name__ == f"territory.games.{game}"
            assert any(hasattr(module, name) for name in games.HOOKS)
    with pytest.raises(ValueError, match="not a hook"):
        games.hook(next(iter(territory.GAMES)), "diagramm")

