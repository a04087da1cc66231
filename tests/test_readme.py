"""Every ```python block of README.md runs as written (like a doctest), in a scratch
directory: each statement in turn, in one namespace per block. A statement whose
comment starts with an exception's name (``# IllegalMoveError: ...``) must raise it."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest

import territory

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
EXPECTED_ERROR = re.compile(r"#\s*([A-Z]\w*Error)\b")


def python_blocks() -> list[str]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def test_the_readme_has_python_blocks():
    assert python_blocks()


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_python_block_runs(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = python_blocks()[index]
    lines = source.splitlines()
    namespace: dict = {}
    for statement in ast.parse(source).body:
        code = compile(ast.Module([statement], type_ignores=[]), "README.md", "exec")
        expected = EXPECTED_ERROR.search(lines[statement.lineno - 1])
        if expected is None:
            exec(code, namespace)
            continue
        error = getattr(territory, expected.group(1), None) or getattr(builtins, expected.group(1), None)
        assert isinstance(error, type), f"README names {expected.group(1)}, which is not an exception"
        with pytest.raises(error):
            exec(code, namespace)

