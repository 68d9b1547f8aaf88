"""P-style's benchmarks (engine, hand analysis)."""
