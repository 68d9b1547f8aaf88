"""MOMOJAN's benchmarks (engine, hand analysis, scoring)."""
