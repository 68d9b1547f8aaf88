"""Tests of the game-agnostic harness (a package: test files of one name may stand in two folders)."""
