"""Tools the tests and the benchmarks share (they import this package, never each other)."""
