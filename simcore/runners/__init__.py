"""Where chunks run: the local process pool (:class:`simcore.runners.local.ChunkRunner`) or a Ray
cluster (:mod:`simcore.runners.raycluster`), chosen per command with ``--backend``.

A *runner factory* is called with the worker count and returns a context manager with
``map(fn, tasks, progress)``: ``fn(task)`` for every task, yielded in task order, with
``progress(task, result)`` after each. Both backends run the same pure chunk function and the
caller merges the same per-chunk sums in the same order, so a scenario and seed give identical
numbers on either.

``run_study(..., runner=None)`` uses :func:`selected_runner`: the local pool unless a command
wrapped by :func:`simcore.cli.common.backend_options` (``--backend ray``) selected another for its duration.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import importlib.util

from simcore.errors import InputError

RAY_INSTALL = "pip install 'momojan-sim[ray]'"

_selected: contextvars.ContextVar = contextvars.ContextVar("momojan_runner", default=None)


def selected_runner():
    """The runner factory in force: the one a ``--backend`` option selected, else local."""
    factory = _selected.get()
    if factory is None:
        from simcore.runners.local import ChunkRunner
        return ChunkRunner
    return factory


@contextlib.contextmanager
def use_runner(factory):
    """Make ``factory`` the default runner of :func:`simcore.studies.study.run_study` inside the block."""
    token = _selected.set(factory)
    try:
        yield factory
    finally:
        _selected.reset(token)


def ray_available() -> bool:
    return importlib.util.find_spec("ray") is not None


def runner_factory(backend: str = "local", address: str | None = None):
    """The factory of ``backend`` ("local" or "ray"); bad combinations are an :class:`InputError`."""
    if backend == "local":
        if address:
            raise InputError("--address needs --backend ray")
        from simcore.runners.local import ChunkRunner
        return ChunkRunner
    if backend != "ray":
        raise InputError(f"--backend: expected local or ray, got {backend!r}")
    if not ray_available():
        raise InputError(f"--backend ray needs Ray, which is not installed: {RAY_INSTALL}")
    from simcore.runners.raycluster import RayRunner
    return functools.partial(RayRunner, address=address)
