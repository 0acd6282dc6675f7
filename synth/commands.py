"""`seekgraph synth`: the root group of the task synthesizers (WebLeaper, WebShaper).

Each synthesizer owns its subcommand in its own package and is attached here by one line.
"""

from __future__ import annotations

import click

from synth.leaper.cli import leaper
from synth.shaper.cli import shaper


@click.group()
def synth() -> None:
    """Synthesize information-seeking tasks from the graph."""


synth.add_command(leaper)
synth.add_command(shaper)
