"""The `report` stage: one HTML report with plots of everything in the graph (always last)."""

from __future__ import annotations

from seekgraph.graphdb.stages import Stage
from seekgraph.viz.report import ReportConfig, run_report

REPORT = Stage(
    "report",
    "one HTML report with plots of stages, tasks, trajectories and training",
    ReportConfig,
    "report",
    run_report,
)
