"""Tests of the riichi2p family (a package: test files of one name may stand in two folders)."""
