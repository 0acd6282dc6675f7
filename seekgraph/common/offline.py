"""Models load from installed packages only, and quietly.

`offline_and_quiet()` is called before any model loads: no hub access (the packaged models are
on disk), and no progress bars from transformers, huggingface_hub or datasets, which in a log
file become one long line of carriage returns. The stages show their own progress.
"""

from __future__ import annotations

import os
import sys


def quiet_progress_bars() -> None:
    """Library progress bars (tqdm: transformers' GGUF de-quantising, datasets, tokenizers)
    write nothing when stderr is not a terminal. tqdm reads ``TQDM_DISABLE`` when it is first
    imported, so the CLI calls this before any library loads; later calls still reach the
    libraries that have their own switch."""
    if not sys.stderr.isatty():
        os.environ.setdefault("TQDM_DISABLE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def offline_and_quiet() -> None:
    quiet_progress_bars()
    for key, value in (
        ("HF_HUB_OFFLINE", "1"),
        ("TRANSFORMERS_OFFLINE", "1"),
        ("TOKENIZERS_PARALLELISM", "false"),
    ):
        os.environ.setdefault(key, value)
    try:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
    except ImportError:  # the ml extra is not installed: nothing to silence
        pass
