"""The registry is the one list of games: outside a game's own files, only the files in
``REGISTRATIONS`` may name a game (docs/adding-a-game.md lists them).

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
* A file of ``REGISTRATIONS`` may name each game on at most its given number of lines
  (None: any number, for the tables of how each game looks and for test data).
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

import territory

ROOT = Path(__file__).resolve().parent.parent
SCANNED_DIRS = ("rust/territory/src", "rust/territory-py/src", "python/territory")
SCANNED_TOOLS = ("tests/make_perft.py", "tests/perft.py", "tests/gen_stubs.py")

#: The files besides a game's own that name it: (lines naming each game at most, why).
REGISTRATIONS: dict[str, tuple[int | None, str]] = {
    "rust/territory/src/games/registry.rs": (1, "the registry: one line in for_each_game!"),
    "rust/territory/src/games/mod.rs": (1, "the game's module"),
    "rust/territory/src/lib.rs": (1, "the game's re-export"),
    "rust/territory-py/src/lib.rs": (1, "the bindings' module of the game's class"),
    "python/territory/__init__.py": (2, "the class in the import (for type checkers) and in __all__"),
    "python/territory/reference/__init__.py": (2, "the reference's import and its line in GAMES"),
    "tests/gen_stubs.py": (1, "the class's entry in the stubs (score type, extra methods)"),
    "tests/make_perft.py": (None, "test data: the option sets whose perft counts are recorded"),
    "python/territory/_presentation.py": (None, "how the game looks: its text diagram"),
    "python/territory/svg.py": (None, "how the game looks: its picture"),
    "python/territory/geometry.py": (None, "how the game looks: its board shape"),
    "python/territory/evaluate_plots.py": (None, "how the game looks: its board in heat maps"),
    "rust/territory/src/rules/error.rs": (None, "per-game errors (being moved behind the Game trait)"),
    "python/territory/evaluate/komi.py": (None, "fair komi: an analysis of Nume's komi"),
    "python/territory/cli_evaluate.py": (None, "command-line help (its examples name games); the komi command is Nume's"),
    "python/territory/cli.py": (None, "command-line help: its examples name games"),
    "python/territory/cli_search.py": (None, "command-line help: its examples name games"),
    "python/territory/cli_crosscheck.py": (None, "command-line help: its examples name games"),
    "python/territory/cli_serve.py": (None, "command-line help: its examples name games"),
    "python/territory/cli_train.py": (None, "command-line help: its examples name games"),
    "python/territory/puct.py": (None, "an error message's example: a shipped model's name"),
    "python/territory/train.py": (None, "the default game of a training run"),
    "python/territory/crosscheck/vectors.py": (None, "test data: the edge cases of each game's rules"),
    "python/territory/web/session.py": (None, "how each game's moves are clicked on the board"),
    "rust/territory/src/search/symmetry.rs": (None, "each board's symmetries (the solver's keys)"),
}

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


def test_the_scanner_sees_names_and_skips_documentation():
    assert games_named("PyTabik") == {"tabik"} and games_named("enumerate") == set()
    assert games_named("_migong_grid") == {"migong"} and games_named("'nume'") == {"nume"}
    rust = 'use crate::tabik::Tabik; // Nume\n/// Migong\nlet s = "nume";\n#[cfg(test)]\nmod tests { Migong }\n'
    assert [(line, games_named(t)) for line, t in rust_names(rust) if games_named(t)] == [(1, {"tabik"}), (1, {"tabik"}), (3, {"nume"})]
    python = '"""Tabik."""\nx = "nume"  # migong\ndef f():\n    """Migong."""\n    return Tabik\n'
    assert [(line, games_named(t)) for line, t in python_names(python) if games_named(t)] == [(2, {"nume"}), (5, {"tabik"})]
    assert own_game("rust/territory/src/games/tabik/position.rs") == "tabik" and own_game("python/territory/svg.py") is None


def test_only_registrations_name_a_game():
    """A fourth game is its own files plus the lines of REGISTRATIONS: every other file
    asks the registry (``for_each_game!``/``with_game!``, ``territory.GAMES``, the class)."""
    outside = {path: {g: sorted(lines) for g, lines in games.items()} for path, games in names_by_file().items() if path not in REGISTRATIONS}
    assert outside == {}, "files outside docs/adding-a-game.md's list name a game"
    for path, games in names_by_file().items():
        most, why = REGISTRATIONS[path]
        for game, lines in games.items():
            assert most is None or len(lines) <= most, f"{path} ({why}) names {game} on lines {sorted(lines)}"


@pytest.mark.parametrize("path", sorted(REGISTRATIONS))
def test_docs_list_every_registration(path):
    assert f"`{path}`" in (ROOT / "docs/adding-a-game.md").read_text()
