"""Tests of the ptrump family (a package: test files of one name may stand in two folders)."""
