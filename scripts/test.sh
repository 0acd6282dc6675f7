#!/usr/bin/env bash
# The test command: set up, then lint, type-check and run the whole suite against a real Neo4j
# that the test session starts on free ports (its own data directory) and stops afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_BROWSER=1 scripts/setup.sh
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
echo "[test] ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "[test] mypy"
.venv/bin/mypy
echo "[test] import floors (import-linter)"
.venv/bin/lint-imports
echo "[test] pytest"
# two workers, each test file on one of them (module-scoped builds stay whole), heavy files
# first (tests/conftest.py orders them); each worker starts its own Neo4j
.venv/bin/pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=25 "$@"
