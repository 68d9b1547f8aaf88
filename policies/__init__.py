"""Bots: njit policies behind a registry (``policies.registry``)."""
