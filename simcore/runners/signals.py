"""How a command stops on a signal: SIGTERM and SIGHUP take the path Ctrl-C (SIGINT) takes.

Ctrl-C raises :class:`KeyboardInterrupt` in the main thread; every command that plays catches it
(:func:`simcore.cli.study.cli_errors`): the worker processes are stopped by their runner, the
chunks already saved stay, one line says so and how to resume, exit 130. While a command runs,
:func:`stop_on_signals` makes SIGTERM (``kill PID``, a CI step cancelled, ``timeout``) and SIGHUP
(the terminal closed) raise :class:`Stopped`, a ``KeyboardInterrupt``, so they end the same way,
with exit status 128 + the signal's number (143, 129), as a shell reports a process killed by it.

A signal the process was started with ignored stays ignored (``nohup`` ignores SIGHUP: a run
started with it goes on when the terminal closes). SIGKILL cannot be caught: the worker
processes end on their own then (:mod:`simcore.runners.local`), and the chunks saved so far stay.
"""

from __future__ import annotations

import contextlib
import signal
import threading

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                     if hasattr(signal, name))

_received: list = []   # the stop signals received while the current command runs


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP received: stop as Ctrl-C stops (``signum`` says which)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = int(signum)


def _handler(signum, frame):
    first = not _received
    _received.append(signum)
    if first:  # once: a second signal must not cut short the clean-up the first started
        raise Stopped(signum)


def signum_of(exc: BaseException) -> int:
    """The signal a ``KeyboardInterrupt`` stands for: SIGTERM/SIGHUP for :class:`Stopped`, or
    for a plain one raised after a stop signal came (Ray's ``ray.wait`` turns the exception
    the handler raised into a bare ``KeyboardInterrupt``); otherwise SIGINT (Ctrl-C)."""
    n = getattr(exc, "signum", None) or received()
    return int(n) if n else int(signal.SIGINT)


def exit_status(exc: BaseException) -> int:
    """The exit status of a command stopped by ``exc``: 128 + the signal (130, 143, 129)."""
    return 128 + signum_of(exc)


def what(exc: BaseException) -> str:
    """The first words of the line a stopped command prints: ``interrupted`` for Ctrl-C,
    ``stopped by SIGTERM`` / ``stopped by SIGHUP`` otherwise."""
    n = signum_of(exc)
    if n == signal.SIGINT:
        return "interrupted"
    return f"stopped by {signal.Signals(n).name}"


def received() -> int | None:
    """The first stop signal received in the current command, or None."""
    return _received[0] if _received else None


@contextlib.contextmanager
def handlers_kept():
    """Put back, after the block, the SIGTERM and SIGHUP handlers in force before it: a library
    started inside may take them over (``ray.init`` sets a SIGTERM handler that exits at once,
    and its driver a C++ one beneath Python's that prints a stack trace and aborts)."""
    main = threading.current_thread() is threading.main_thread()
    before = {s: signal.getsignal(s) for s in STOP_SIGNALS} if main else {}
    try:
        yield
    finally:
        for s, h in before.items():
            if h is not None:
                signal.signal(s, h)


@contextlib.contextmanager
def stop_on_signals():
    """Inside the block, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread; the
    handlers in force before are put back after it (a test process that runs commands in
    itself keeps its own). Elsewhere than in the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    _received.clear()
    try:
        for s in STOP_SIGNALS:
            old = signal.getsignal(s)
            if old == signal.SIG_IGN:   # started ignoring it (nohup): keep ignoring it
                continue
            previous[s] = old
            signal.signal(s, _handler)
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old if old is not None else signal.SIG_DFL)
        _received.clear()
