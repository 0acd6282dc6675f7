"""Benchmarks: scripts that print tables (median of several runs, ratios against a reference)."""
