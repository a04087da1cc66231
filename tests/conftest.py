"""Shared fixtures: rule tests run against both the native engine and the reference."""

from __future__ import annotations

import importlib

import pytest


class Implementation:
    """The classes Tabik, Migong and Nume of one implementation; a class that does not
    exist (yet) skips the test that asks for it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, cls: str):
        module = "territory" if self.name == "native" else f"territory.reference.{cls.lower()}"
        try:
            return getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError):
            pytest.skip(f"{self.name} {cls} not available")

    def __repr__(self) -> str:
        return self.name


@pytest.fixture(params=["native", "reference"])
def impl(request):
    """Namespace-like access to Tabik, Migong and Nume of one implementation."""
    return Implementation(request.param)
