"""The seekgraph command line: one root group, one subcommand group per stage, and the pipeline."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT / "data" / "default"
