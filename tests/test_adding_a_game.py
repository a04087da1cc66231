"""docs/adding-a-game.md is true: its tables are compared with what the code requires of a
game (issue 33), so that the page cannot drift from the code again.

- The contract's traits: the supertraits of `territory::Contract` in the engine's
  registry.
- The files: those the code finds by a game's name (declared from the registry, looked up
  by name, read by the shared tests), each present for every game of the registry.
- The test data: what every game's module in `tests/games` must define.
- The hooks: `territory.games.HOOKS`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games as test_games
import territory
from territory import games as hooks

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"

#: The files the code requires of every game, each with what requires it (checked below
#: to exist for every game of the registry, and to be the doc's "required" files).
REQUIRED_FILES = {
    "rust/territory/src/games/<game>.rs": "games/mod.rs declares the module from game_list!",
    "rust/territory-py/src/<game>.rs": "the bindings' lib.rs declares the class module from game_list!",
    "python/territory/reference/<game>.py": "territory.reference.GAMES imports it by name",
    "tests/games/<game>.py": "the shared tests read its test data by name (tests/games)",
    "tests/data/<game>.perft": "tests/test_perft.py and rust/territory/tests/perft.rs read it for every game",
    "tests/data/<game>.playouts.json": "tests/test_pinned_playouts.py and rust/territory/tests/pinned_checksums.rs read it for every game",
    "python/territory/_native/<game>.py": "territory/__init__.py exports the class from it (generated: tests/gen_stubs.py)",
    "python/territory/_native/<game>.pyi": "its class's stub (generated: tests/gen_stubs.py; tests/test_typing.py)",
    "python/territory/data/vectors/<game>.jsonl.gz": "the shipped vectors of every game (crosscheck)",
    "docs/games/<game>.md": "tests/test_error_kinds.py reads its own error kinds there, for every game",
    "docs/RULES.md": "the rules the reference is written from",
}


def sections() -> dict[str, str]:
    """The page's sections by heading (``## X``)."""
    text = DOC.read_text()
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def table(section: str) -> dict[str, list[str]]:
    """A section's table rows: the first cell's backticked name -> the other cells."""
    rows = {}
    for line in sections()[section].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`([^`]+)`", cells[0]) if line.startswith("|") else None
        if match:
            rows[match.group(1)] = cells[1:]
    return rows


def test_the_contract_lists_the_traits_the_compiler_requires():
    source = (ROOT / "rust/territory/src/games/registry.rs").read_text()
    declared = re.search(r"pub trait Contract: ([^{]+)\{\}", source)
    assert declared, "registry.rs declares `pub trait Contract: A + B + ... {}`"
    traits = [t.strip() for t in declared.group(1).split("+") if t.strip() != "'static"]
    assert list(table("The contract")) == traits
    for game in territory.GAMES:
        text = (ROOT / f"rust/territory/src/games/{game}.rs").read_text()
        assert f"impl crate::Contract for {territory.GAMES[game].__name__} {{}}" in text, game


def test_the_required_files_are_those_the_code_requires():
    rows = table("Files")
    required = {path for path, (needed, *_) in rows.items() if needed == "required"}
    assert required == set(REQUIRED_FILES)
    assert {needed for needed, *_ in rows.values()} <= {"required", "optional", "registration"}
    for pattern in REQUIRED_FILES:
        for game in territory.GAMES:
            assert (ROOT / pattern.replace("<game>", game)).exists(), (game, pattern)


def test_the_registrations_are_the_checked_ones():
    import test_game_names

    rows = table("Files")
    registrations = {path for path, (needed, *_) in rows.items() if needed == "registration"}
    assert registrations == set(test_game_names.REGISTRATIONS)


def test_the_test_data_is_what_the_shared_tests_read():
    rows = table("Test data")
    assert {name for name, (needed, *_) in rows.items() if needed == "required"} == set(test_games.REQUIRED)
    for name, (needed, *_) in rows.items():
        if needed == "optional":  # read with a default by the shared tests
            assert name not in test_games.REQUIRED
            assert f'"{name}"' in "".join(p.read_text() for p in (ROOT / "tests").glob("*.py")), name


def test_the_hooks_are_those_territory_games_asks():
    assert list(table("Hooks")) == list(hooks.HOOKS)


@pytest.mark.parametrize("gone", ["game_class!", "params_methods!", "learn_methods!", "crosscheck_methods!"])
def test_the_page_names_the_bindings_macro_that_exists(gone):
    text = DOC.read_text()
    source = (ROOT / "rust/territory-py/src/game_class.rs").read_text()
    assert "native_class!" in text and "macro_rules! native_class" in source
    assert gone not in text and f"macro_rules! {gone[:-1]}" not in source


#: The headings every game's docs/games/<game>.md has, in order (a heading may go on
#: after a colon: "Observation: (8, k, k)").
GAME_DOC_SECTIONS = [
    "Parameters",
    "Cells",
    "Action space",
    "Results",
    "Error kinds",
    "Groups",
    "board() snapshot",
    "Maximum game length",
    "Observation",
    "Position string",
]


def headings(doc: Path) -> list[str]:
    return [h.split(":")[0] for h in re.findall(r"^## (.+)$", doc.read_text(), flags=re.M)]


def test_the_scaffolds_doc_has_the_headings_of_every_games_doc():
    assert headings(ROOT / "scaffold" / "toy" / "docs" / "games" / "toy.md") == GAME_DOC_SECTIONS


def test_each_game_has_its_doc_with_the_shared_headings_and_its_parameters():
    assert {p.stem for p in (ROOT / "docs" / "games").glob("*.md")} == set(territory.GAMES)
    for game, cls in territory.GAMES.items():
        text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
        assert headings(ROOT / "docs" / "games" / f"{game}.md") == GAME_DOC_SECTIONS, game
        parameters = re.split(r"^## ", text, flags=re.M)[1]
        documented = re.findall(r"^\| `(\w+)` \|", parameters, flags=re.M)
        assert documented == [p["name"] for p in cls.parameters()], game
        assert documented == list(cls().params), game


def test_the_scaffolds_test_data_defines_what_the_shared_tests_read():
    import importlib.util

    path = ROOT / "scaffold" / "toy" / "tests" / "games" / "toy.py"
    spec = importlib.util.spec_from_file_location("scaffold_toy_test_data", path)
    data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data)
    assert [name for name in test_games.REQUIRED if not hasattr(data, name)] == []
    # Toy's engine (scaffold/toy/rust/territory/src/games/toy.rs): size 5, 2N + 2 actions.
    assert data.DEFAULTS == {"size": 5}
    assert data.max_length({"size": 5}) == 52
