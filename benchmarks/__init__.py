"""Benchmarks: each module runs alone (``python benchmarks/bench_*.py``), and ``python -m
benchmarks`` runs them as one suite writing one JSON record (see ``__main__.py``)."""
