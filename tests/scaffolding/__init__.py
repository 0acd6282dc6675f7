"""Test and benchmark scaffolding: synthetic data writers, oracles and comparison harnesses.

Never imported by the library; benchmarks may import it (`python -m bench.x` from the repo root).
"""
