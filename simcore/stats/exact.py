"""Exact integer sums over games that do not overflow: int64 while no sum can leave its range,
Python integers (numpy object arrays) where one could. The sufficient statistics
(:mod:`simcore.stats.moments`, :mod:`simcore.stats.luck_sums`) sum per-game values and their
products: with large point values (a doubling factor of 10^7 makes a game's margin 10^8, its
square 10^16) a thousand games leave int64, and the sums wrapped round silently (an interval of
width 0 around a wrong value). Game-agnostic."""

from __future__ import annotations

import numpy as np

INT64_SAFE = 2 ** 62   # a sum that could reach this (half of int64's range) is kept in Python ints


def _absmax(a: np.ndarray) -> int:
    """The largest absolute value of an integer array, as a Python int (0 when empty)."""
    return max(int(a.max()), -int(a.min())) if a.size else 0


def exact_sum(x: np.ndarray) -> np.ndarray:
    """``x.sum(axis=0)`` of an integer array, exact: int64 where it cannot overflow, else Python
    integers (an object array)."""
    if x.dtype != object and _absmax(x) * max(x.shape[0], 1) < INT64_SAFE:
        return x.sum(axis=0)
    return x.astype(object).sum(axis=0)


def exact_einsum(spec: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``np.einsum(spec, x, y)`` of integer arrays summed over their first axis (games), exact:
    int64 where no sum of products can overflow, else in Python integers."""
    if x.dtype != object and y.dtype != object and \
            _absmax(x) * _absmax(y) * max(x.shape[0], 1) < INT64_SAFE:
        return np.einsum(spec, x, y)
    return np.einsum(spec, x.astype(object), y.astype(object))


def exact_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b`` of two sums, exact (int64 unless either is or the result could leave it)."""
    if a.dtype != object and b.dtype != object and _absmax(a) + _absmax(b) < INT64_SAFE:
        return a + b
    return a.astype(object) + b.astype(object)


def exact_array(data) -> np.ndarray:
    """Saved sums (nested lists of ints) as int64, or as Python integers when one does not fit."""
    try:
        return np.array(data, np.int64)
    except OverflowError:
        return np.array(data, object)
