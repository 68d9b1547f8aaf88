"""Bots: njit policies behind a registry (``simcore.family.policy``)."""

from simcore import _moved  # noqa: E402  (the old module names, policies.registry..., for one release)

_moved.install()
