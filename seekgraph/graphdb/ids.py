"""Stable ids from content, so the same input always gets the same key (and MERGE dedupes)."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def stable_id(kind: str, *parts: Any, length: int = 16) -> str:
    """``kind:<sha1 of the canonical JSON of parts>`` truncated to `length` hex digits."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return f"{kind}:{hashlib.sha1(blob.encode('utf-8')).hexdigest()[:length]}"
