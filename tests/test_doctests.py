"""Every example in the package's docstrings runs and gives what it shows.

Docstring examples are the first thing a newcomer reads; one that no longer runs misleads.
Modules are imported by their package name (``seekgraph.synth.ingest.inspect``), so a module
named like a standard one is not confused with it.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import seekgraph

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(seekgraph.__path__, prefix="seekgraph.")
    if not m.ispkg and m.name != "seekgraph.__main__"  # importing it runs the CLI
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
