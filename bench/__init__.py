"""Benchmark scripts (run with the repository on PYTHONPATH); helpers start with "_"."""
