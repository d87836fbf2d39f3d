"""Benchmarks: what governance costs and how it scales (``python -m bench``; see docs/benchmarks.md)."""
