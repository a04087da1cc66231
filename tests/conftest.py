"""Shared fixtures: rule tests run against both the native engine and the reference; one
Dask cluster per test module that asks for it."""

from __future__ import annotations

import importlib
import logging

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


@pytest.fixture(scope="module")
def dask_client():
    """A client of a real two-process Dask ``LocalCluster`` (skips without Dask)."""
    dd = pytest.importorskip("distributed")
    with dd.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                         silence_logs=logging.ERROR) as cluster, dd.Client(cluster) as client:
        yield client
