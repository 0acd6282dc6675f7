#!/usr/bin/env bash
# GPU check for the LLM backends and SFT throughput. Two halves:
#
#   scripts/gpu_check.sh prepare   # HERE: copies the converted SmolLM2's config + tokenizer
#                                  # (no weights, ~4 MB) into .gpu_check/ (git-ignored via
#                                  # .git/info/exclude); put vLLM wheels in .gpu_check/whl/ to
#                                  # try vLLM (they rarely fit the 64 MiB carry limit).
#   scripts/gpu_check.sh run       # ON THE DEVICE, e.g. through the device tool:
#       run(command="bash scripts/gpu_check.sh run", carry=[".gpu_check"], timeout_s=420)
#
# The device image has torch + transformers but no vLLM and no network: without wheels the
# vLLM row says "not installed" and the transformers backend on CUDA is measured instead.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-run}" in
  prepare)
    CK="${2:-${SEEKGRAPH_MODEL_DIR:-$HOME/.local/share/seekgraph/models/smollm2-135m-instruct}}"
    if [ ! -f "$CK/config.json" ]; then
      .venv/bin/python -c "from agent.llm.smollm2 import ensure_checkpoint; print(ensure_checkpoint())"
    fi
    mkdir -p .gpu_check/smollm2
    grep -qx '/.gpu_check/' .git/info/exclude 2>/dev/null || echo '/.gpu_check/' >> .git/info/exclude
    for f in config.json generation_config.json tokenizer.json tokenizer_config.json chat_template.jinja; do
      [ -f "$CK/$f" ] && cp "$CK/$f" .gpu_check/smollm2/
    done
    du -sh .gpu_check
    ;;
  run)
    export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1
    PY=python3
    if ls .gpu_check/whl/*.whl >/dev/null 2>&1; then
      $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .gpu_check/whl/*.whl && export PYTHONPATH=/tmp/site
    fi
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
    timeout 400 $PY -m bench.gpu_check --model .gpu_check/smollm2
    ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
