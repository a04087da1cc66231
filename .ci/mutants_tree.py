"""The copy of the workspace that cargo-mutants mutates (.ci/mutants, .ci/mutants-census).

cargo-mutants finds a crate's files by following its `mod` items from the crate root,
and does not expand macros; the games' modules are declared by a macro, from the
registry (`games/mod.rs`: `$(pub mod $module;)*`), so that a new game is one line of
`game_list!`. Run on the workspace itself, cargo-mutants never sees `games/`: the rules
themselves. The copy declares the same modules as plain `pub mod` lines, which compile to
the same crate, and the mutants' names (file:line:column) are those of the workspace's
files, every file but `games/mod.rs` being the same.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

#: What the engine's build and tests read: the workspace, its tools' configuration, and
#: the data files the engine's tests read (`tests/data`).
COPIED = (".cargo", ".config", "rust", "tests/data")
REGISTRY = "rust/territory/src/games/registry.rs"
MODULES = "rust/territory/src/games/mod.rs"
MACRO_DECLARATION = "        $(pub mod $module;)*\n"


def game_modules(registry: str) -> list[str]:
    """The games' modules in the registry's `game_list!` (`module::Type,` lines)."""
    body = registry[registry.index("macro_rules! game_list"):]
    body = body[: body.index("\n}\n")]
    modules = re.findall(r"^\s+([a-z_][a-z0-9_]*)::[A-Z]\w*,$", body, re.M)
    if not modules:
        raise ValueError(f"no `module::Type,` line in game_list! of {REGISTRY}")
    return modules


def plain_declarations(mod_rs: str, modules: list[str]) -> str:
    """games/mod.rs with its macro's module declarations made plain `pub mod` lines."""
    if MACRO_DECLARATION not in mod_rs or "pub mod registry;\n" not in mod_rs:
        raise ValueError(f"{MODULES} no longer declares the games as {MACRO_DECLARATION.strip()!r}: "
                         "update .ci/mutants_tree.py")
    lines = "".join(f"pub mod {module};\n" for module in modules)
    return mod_rs.replace(MACRO_DECLARATION, "").replace("pub mod registry;\n", "pub mod registry;\n" + lines, 1)


def mutation_tree(root: Path, name: str) -> Path:
    """A fresh copy of the workspace at ``root``/target/``name`` for cargo-mutants."""
    tree = root / "target" / name
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    for file in ("Cargo.toml", "Cargo.lock"):
        shutil.copyfile(root / file, tree / file)
    for folder in COPIED:
        shutil.copytree(root / folder, tree / folder, ignore=shutil.ignore_patterns("target"))
    modules = game_modules((root / REGISTRY).read_text())
    (tree / MODULES).write_text(plain_declarations((root / MODULES).read_text(), modules))
    return tree
