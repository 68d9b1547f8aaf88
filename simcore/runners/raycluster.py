"""Chunks as Ray tasks: the same interface as :class:`simcore.runners.local.ChunkRunner`.

Each chunk (fixed game indices in, its sums out: a pure function) is one Ray task, declared
with ``max_retries``: when the worker process or node running it dies, Ray runs the chunk again
elsewhere, and since the chunk depends on its task alone the retry returns the same sums. A chunk
counts once, when its result is collected; results are yielded in chunk order, so the caller
merges exactly what the local backend merges, and a scenario and seed give identical numbers on
both backends, whatever the number of nodes or workers.

``address=None`` starts a private local Ray instance with ``workers`` CPUs (stopped on exit);
``address="auto"`` or ``"HOST:PORT"`` joins a running cluster (``ray start --head`` ...), whose
nodes must have this package installed (the same version: tasks refer to the chunk function
by its module).

A private instance never outlives its command (issue 46). Ray ties its raylet and GCS to the
driver (the kernel kills them with it), but not its dashboard and runtime-env agents: after a
``kill -9`` of the command they lived on. A small watchdog process (:data:`_REAPER`) notes the
driver's descendants while it runs and, when the driver is gone (its pipe closes, however the
driver ended), kills those still alive. Ray's driver also replaces the SIGTERM handler with one
that prints a stack trace and aborts: the command's own (:mod:`simcore.runners.signals`) is put
back after ``ray.init``.

At most ``window`` chunks are in flight (by default twice the cluster's CPUs), and tasks are
drawn lazily from the iterable given to :meth:`RayRunner.map`, so memory does not grow with
the number of chunks.
"""

from __future__ import annotations

import inspect
import logging
import os
import sys

from simcore.runners.local import WorkerError

DEFAULT_MAX_RETRIES = 5


def _probe(address: str, timeout: float = 5.0):
    """A HOST:PORT nobody listens on is one line at once (Ray itself retries for minutes)."""
    import socket

    from simcore.errors import InputError
    if address in ("auto", "local") or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise InputError(f"--address {address}: expected HOST:PORT or auto")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise InputError(f"--address {address}: no Ray head answers there "
                         f"({exc.strerror or exc}); start one with `ray start --head --port "
                         f"{port}`") from None
    # Something listens: a Ray head's GCS speaks gRPC. Anything else (a web server, a proxy)
    # would keep ray.init retrying for a minute with C++ warnings on stderr: a few seconds of
    # HTTP/2 handshake tell them apart.
    try:
        import grpc
    except ImportError:
        return
    if os.environ.get("RAY_USE_TLS", "0") not in ("0", ""):
        return
    channel = grpc.insecure_channel(f"{host}:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=timeout)
    except grpc.FutureTimeoutError:
        raise InputError(f"--address {address}: something listens there, but it is not a Ray "
                         f"head (no gRPC answer in {timeout:.0f} s)") from None
    finally:
        channel.close()


def _token_auth():
    """Ray >= 2.5x starts clusters with token authentication: a driver joining one must send
    the token. Where one is at hand (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token,
    which ``ray start --head`` writes) and RAY_AUTH_MODE is unset, use it."""
    if os.environ.get("RAY_AUTH_MODE"):
        return
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") or \
            os.path.exists(os.path.expanduser("~/.ray/auth_token")):
        os.environ["RAY_AUTH_MODE"] = "token"


def _ray_messages_to_stderr():
    """Ray's driver prints the raylet's messages ("A worker died or was killed while executing a
    task ...") on stdout, log_to_driver or not (``listen_error_messages`` in
    ``ray._private.worker``): a ``--json`` run's stdout then was no longer JSON. stdout carries
    results only, so they go to stderr. A private function of Ray's: if a release renames it, the
    messages stay where Ray puts them."""
    try:
        import ray._private.worker as ray_worker
        original = ray_worker.print_to_stdstream
    except (ImportError, AttributeError):
        return
    if getattr(original, "to_stderr", False):
        return

    def print_to_stderr(data, ignore_prefix, **kw):
        return original({**data, "is_err": True}, ignore_prefix, **kw)

    print_to_stderr.to_stderr = True
    ray_worker.print_to_stdstream = print_to_stderr


# The watchdog of a private Ray instance: every second it notes the driver's descendants (pid
# and start time, so a reused pid is never taken for one); when its stdin closes (the driver
# ended, cleanly or killed) it kills those still running. Started in its own session (a
# terminal's Ctrl-C does not reach it) with nothing of the driver's open but that pipe.
_REAPER = r"""
import os, select, sys
try:
    import psutil
except ImportError:
    sys.exit(0)
driver, me, known = int(sys.argv[1]), os.getpid(), {}

def scan():
    try:
        for p in psutil.Process(driver).children(recursive=True):
            if p.pid != me:
                try:
                    known[p.pid] = p.create_time()
                except psutil.Error:
                    pass
    except psutil.Error:
        pass

scan()
while True:
    ready, _, _ = select.select([sys.stdin], [], [], 1.0)
    if ready and not os.read(sys.stdin.fileno(), 4096):
        break
    scan()
left = []
for pid, started in known.items():
    try:
        p = psutil.Process(pid)
        if p.create_time() == started:
            p.kill()
            left.append(p)
    except psutil.Error:
        pass
psutil.wait_procs(left, timeout=10)
"""


def _start_reaper():
    """The watchdog of the private Ray instance this process just started (None if it cannot
    start: Ray's own fate-sharing still ends the raylet and the GCS)."""
    import subprocess
    import sys
    try:
        return subprocess.Popen([sys.executable, "-c", _REAPER, str(os.getpid())],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        return None


def _bound_remote(method):
    """A module-level function calling ``method`` (a chunk function bound to its family: a
    ``functools.partial`` or a bound method), named as the function is, so Ray can remote it."""
    def chunk_stats(task):
        return method(task)
    name = getattr(getattr(method, "func", method), "__name__", "chunk_stats")
    chunk_stats.__name__ = chunk_stats.__qualname__ = name
    return chunk_stats


class RayRunner:
    def __init__(self, workers: int = 0, *, address: str | None = None,
                 max_retries: int = DEFAULT_MAX_RETRIES, window: int | None = None):
        self.workers = workers
        self.address = address
        self.max_retries = max_retries
        self.window = window
        self._started = False
        self._reaper = None
        self._remote: dict = {}

    # -- life cycle -------------------------------------------------------------------------
    def __enter__(self):
        os.environ.setdefault("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")
        if self.address:
            _token_auth()  # read when ray is imported: set it first
        import ray

        _ray_messages_to_stderr()
        if not ray.is_initialized():
            from simcore.runners.signals import handlers_kept
            with handlers_kept():   # Ray takes SIGTERM over (exit at once, or a stack trace and
                self._init(ray)     # an abort): the command's own stop stays in force
            self._started = True
        if self.window is None:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            self.window = max(2, 2 * cpus)
        return self

    def _init(self, ray):
        common = dict(log_to_driver=False, logging_level=logging.ERROR,
                      configure_logging=True)
        if self.address:
            _probe(self.address)
            try:
                ray.init(address=self.address, **common)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                from simcore.errors import InputError
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise InputError(f"--address {self.address}: no Ray cluster could be "
                                 f"joined ({first})") from None
        else:
            from simcore.runners.local import usable_cores
            ray.init(num_cpus=max(1, self.workers or usable_cores()),
                     include_dashboard=False, **common)
            self._reaper = _start_reaper()

    def _owns_instance(self) -> bool:
        """Whether this runner started the Ray instance it uses (``close`` ends it)."""
        return self._started and not self.address

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def close(self):
        if self._started:
            import ray
            ray.shutdown()
            self._started = False
        if self._reaper is not None:   # whatever the shutdown left of the private instance
            reaper, self._reaper = self._reaper, None
            reaper.stdin.close()
            try:
                reaper.wait(timeout=15)
            except Exception:  # it ends on its own; the command need not wait for it
                pass

    terminate = close

    # -- work -----------------------------------------------------------------------------------
    def _remote_fn(self, fn):
        import ray
        r = self._remote.get(fn)
        if r is None:
            # num_cpus=1: one chunk per CPU; max_retries: rerun a chunk whose worker died
            # (system failures only; an exception raised by the chunk is not retried).
            # Ray remotes functions only: a family's bound chunk_stats goes through a module
            # function of the same name (the worker's title stays ray::chunk_stats), the family
            # pickled as its module (simcore.family.base.Family.__reduce__)
            target = fn if inspect.isfunction(fn) else _bound_remote(fn)
            r = self._remote[fn] = ray.remote(num_cpus=1, max_retries=self.max_retries)(target)
        return r

    def map(self, fn, tasks, progress=None):
        """Yield ``fn(task)`` for every task, in task order; ``progress(task, result)`` after
        each. Stopping early (``break``) cancels the chunks still out, as does an exception
        on a shared cluster; a private instance's are ended by :meth:`close`."""
        import ray
        from ray.exceptions import RayTaskError, RayError

        remote = self._remote_fn(fn)
        it = iter(tasks)
        out: dict = {}       # ObjectRef -> chunk number
        sent: dict = {}      # chunk number -> task
        done: dict = {}      # chunk number -> result
        next_send = next_yield = 0
        exhausted = False
        try:
            while True:
                while not exhausted and next_send - next_yield < self.window:
                    try:
                        t = next(it)
                    except StopIteration:
                        exhausted = True
                        break
                    out[remote.remote(t)] = next_send
                    sent[next_send] = t
                    next_send += 1
                if not out:
                    break
                ready, _ = ray.wait(list(out), num_returns=1)
                for ref in ready:
                    i = out.pop(ref)
                    try:
                        done[i] = ray.get(ref)
                    except RayTaskError as exc:   # the chunk raised: raise it here as itself
                        raise exc.as_instanceof_cause() from None
                    except RayError as exc:       # retries exhausted, node lost for good ...
                        raise WorkerError(f"chunk {i} failed on Ray: {type(exc).__name__}: "
                                          f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''}") from None
                while next_yield in done:
                    r = done.pop(next_yield)
                    t = sent.pop(next_yield)
                    if progress:
                        progress(t, r)
                    next_yield += 1
                    yield r
        finally:
            # Stopped by a signal or an error with a private instance: nothing is cancelled,
            # ``close`` ends the instance and its workers. A forced cancel there, racing a
            # chunk's reply already in flight, once made Ray's core worker fail a check ("Tried
            # to complete task that was not pending") and print a C++ stack trace instead of
            # the command's one-line stop. Otherwise (the caller has its answer, or a shared
            # cluster) the chunks still out are cancelled without force: a queued one never
            # starts, a running one is interrupted when its compiled loop returns (seconds).
            stopping = sys.exc_info()[0] not in (None, GeneratorExit)
            if not (stopping and self._owns_instance()):
                for ref in out:
                    try:
                        ray.cancel(ref, force=False)
                    except Exception:
                        pass
