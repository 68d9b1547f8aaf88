"""Numba helpers with no game and no harness in them: bit tricks, the counter-based random
numbers, the hash table, borrowed buffers, the state layout kit and the cold-start compile plan.

The lowest layer but :mod:`simcore.errors`: it imports nothing else of the project.
"""
