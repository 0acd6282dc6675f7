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
echo "[test] import floors (import-linter)"
.venv/bin/lint-imports
# mypy starts cold on a fresh clone (about 50 CPU seconds) and reads only the sources, so it
# runs beside pytest at the lowest priority, on the tenth of the cores pytest's servers leave
# idle (at normal priority it slowed the suite's first, busiest minutes by as much); its
# verdict is printed and counted after pytest's.
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
echo "[test] mypy (beside pytest; its output follows pytest's)"
(nice -n 19 .venv/bin/mypy > "$checks/mypy.log" 2>&1; echo $? > "$checks/mypy.rc") &
mypy_pid=$!
echo "[test] pytest"
# two workers, each test file on one of them (module-scoped builds stay whole), heavy files
# first (tests/conftest.py orders them); each worker starts its own Neo4j
pytest_rc=0
.venv/bin/pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=25 "$@" || pytest_rc=$?
wait "$mypy_pid" || true
echo "[test] mypy"
cat "$checks/mypy.log"
mypy_rc=$(cat "$checks/mypy.rc" 2>/dev/null || echo 1)
if [ "$pytest_rc" -ne 0 ] || [ "$mypy_rc" -ne 0 ]; then
    echo "[test] failed: pytest exit $pytest_rc, mypy exit $mypy_rc" >&2
    exit 1
fi
