"""The Python package is layered one way (issue 33): no circle of imports longer than two
files, counting the imports inside functions; ``import territory`` loads the light core
only, the rest on first use (PEP 562); the exceptions live in a leaf module the native
module can import; a sharded match calls down and never back into ``agents``."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import territory

PACKAGE = Path(territory.__file__).resolve().parent
SOURCE = Path(__file__).resolve().parents[1] / "python" / "territory"

#: The longest circle of imports allowed (two modules that import each other inside
#: functions, as ``agents`` and ``puct``, are one layer).
LONGEST_CYCLE = 2

#: Cycles known to be longer, each with what removes it; the test fails once one is gone,
#: so that its entry is deleted.
KNOWN: dict[tuple[str, ...], str] = {}


def modules() -> dict[str, Path]:
    """Every module of the package's source by dotted name (packages by their own)."""
    out = {}
    for path in SOURCE.rglob("*.py"):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def native_modules() -> set[str]:
    """The native modules (a stub beside the extension: ``territory._core``): leaves."""
    return {".".join(p.relative_to(SOURCE.parent).with_suffix("").parts) for p in SOURCE.rglob("*.pyi")}


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its code (functions and
    ``TYPE_CHECKING`` blocks included), by dotted name: ``from a import b`` is the
    submodule ``a.b`` when there is one, else ``a``; native modules are left out."""
    natives = native_modules()
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                sub = f"{prefix}.{alias.name}"
                targets.append(sub if sub in known or sub in natives else prefix)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            targets = [node.args[0].value]
        found |= {t for t in targets if t in known and t != name}
    if name == "territory":  # what the package loads on first use (its _LAZY table)
        found |= {f"territory.{m}" for m in territory._LAZY.values()}
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_cycles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}}
    assert sorted(cycles(edges)) == [["a", "b", "c"], ["e", "f"]]
    known = modules()
    assert "territory.errors" in imports("territory.agents", known["territory.agents"], known)
    assert "territory.agents" in imports("territory", known["territory"], known)  # loaded on first use


def test_no_import_cycle_longer_than_two_files():
    long = [tuple(c) for c in cycles(graph()) if len(c) > LONGEST_CYCLE]
    assert not [c for c in long if c not in KNOWN], f"import cycles of more than {LONGEST_CYCLE} files: {long}"
    assert not [c for c in KNOWN if c not in long], "a known cycle is gone: delete its KNOWN entry"


def test_the_exceptions_module_is_a_leaf():
    """The native module imports its exceptions from ``territory.errors``, which imports
    nothing of the package; the old import paths keep working."""
    assert graph()["territory.errors"] == set()
    from territory import agents, errors

    for name in ("NodeLimitError", "TimeLimitError", "StoppedError", "SolveLimitError", "AgentError"):
        assert getattr(agents, name) is getattr(errors, name) is getattr(territory, name)
    rust = Path(__file__).resolve().parents[1] / "rust" / "territory-py" / "src"
    for path in rust.glob("*.rs"):
        for line in path.read_text().splitlines():
            if "import_exception!" in line and "macro_rules" not in line:
                assert "territory.errors," in line, f"{path.name}: {line.strip()}"


HEAVY = ("territory.agents", "territory.evaluate", "territory.puct", "territory.record", "territory.model",
         "territory.distributed", "territory.matches", "territory.playouts")


def _loaded_after(code: str) -> list[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('territory'))))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_import_territory_loads_the_light_core_only():
    loaded = _loaded_after("import territory")
    assert not [m for m in loaded if m in HEAVY or m.startswith("territory.evaluate")], loaded
    assert "territory.agents" in _loaded_after("import territory; territory.Uct")
    # The first import of the submodule territory.evaluate keeps territory.evaluate the function.
    assert "territory.evaluate.komi" in _loaded_after(
        "import territory, territory.evaluate.komi; assert callable(territory.evaluate), territory.evaluate")


def test_lazy_names_work_as_eager_ones():
    from territory import Uct, evaluate, fair_komi, load, play_match  # noqa: F401

    assert callable(territory.evaluate) and territory.evaluate is evaluate
    importlib.import_module("territory.evaluate.komi")  # a submodule's import keeps the function

    assert callable(territory.evaluate)
    assert territory.Uct is territory.agents.Uct
    for name in territory.__all__:
        assert name in dir(territory), name
        assert getattr(territory, name) is not None
    with pytest.raises(AttributeError):
        territory.no_such_name  # noqa: B018


def test_a_sharded_match_calls_down():
    """``play_match`` hands ``distributed.run_sharded`` the unit of work of
    ``territory.matches``, which imports neither ``agents`` nor ``distributed``: the walk
    agents -> distributed -> matches never comes back."""
    edges = graph()
    assert "territory.agents" not in edges["territory.matches"]
    assert "territory.distributed" not in edges["territory.matches"]
    assert "territory.agents" not in edges["territory.distributed"]
    source = (SOURCE / "agents.py").read_text()
    assert "run_sharded(\n            executor, matches.match_shard," in source
