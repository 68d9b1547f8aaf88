"""Map a chunk function over chunks on N local worker processes: results in order, clean Ctrl-C.

Game-agnostic: the task function is any picklable top-level function ``fn(task) -> result``
(a chunk of fixed game indices in, its sufficient statistics out). ``run``, ``compare``, ``sweep``
and ``plan`` share this runner; a Ray backend would replace it by remote tasks with the same
function and the same in-order merge.

Why not ``concurrent.futures`` or ``multiprocessing.Pool``: on Ctrl-C the terminal sends SIGINT
to every process of the group; a pool's workers then die inside its queue machinery (a worker
blocked on a pipe, the parent in ``waitpid``, "InvalidStateError: CANCELLED", a ten-minute hang
in the field). Here every worker has its own pipe, ignores SIGINT and SIGHUP (the parent alone
decides: a terminal sends them to the whole process group), and on any exception in the parent
each worker is terminated by its process id: nothing is shared, so nothing can be left holding a
lock.

A worker never outlives its parent, however the parent ends (SIGKILL, the OOM killer, a crash):
on Linux the kernel sends it SIGKILL when the parent dies (``prctl(PR_SET_PDEATHSIG)``, checked
against a parent already gone before it was set), and everywhere it holds only its own end of
its pipe, so an idle worker reads end-of-file and exits. A worker left alive would keep the
parent's stdout and stderr open: ``| tee log``, ``subprocess.run(capture_output=True)`` and CI
steps would wait for ever (issue 46).
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import signal
import sys
import traceback
from multiprocessing.connection import wait

# How far ahead of the oldest undelivered result tasks are handed out (per worker): bounds the
# results held back for in-order delivery when one chunk is slow.
_LOOKAHEAD_PER_WORKER = 2


def usable_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def clamp_workers(requested: int, n_tasks: int, cores: int | None = None) -> tuple[int, str | None]:
    """The worker count to use, and a one-line note when ``requested`` had to be lowered.

    ``requested`` 0 means one per core. More workers than cores only adds processes competing
    for the same cores (1000 workers once took 69 s and 4.7 GB for a 13 s job), and more than
    chunks leaves workers idle, so both are clamped.
    """
    cores = cores or usable_cores()
    n = min(requested or cores, cores, max(n_tasks, 1))
    if requested and requested > n:
        why = f"{cores} core{'s' if cores != 1 else ''}"
        if n_tasks < cores:
            why = f"{n_tasks} chunk{'s' if n_tasks != 1 else ''} of games"
        return n, f"--workers {requested} lowered to {n} ({why})"
    return n, None


class WorkerError(RuntimeError):
    """A worker raised an exception that could not be sent back as itself, or died."""


class WorkerDied(WorkerError):
    """A worker process ended while it held work (killed from outside, or by the kernel's
    out-of-memory killer): the command says so in one line, and where its saved work is."""


_PR_SET_PDEATHSIG = 1   # linux/prctl.h


def die_with_parent(parent_pid: int, sig: int = signal.SIGKILL) -> None:
    """Have the kernel send ``sig`` to this process when its parent dies (Linux; elsewhere
    nothing), and exit at once if the parent, ``parent_pid``, is already gone (it may have died
    before this ran: the process then has another parent). Call it first thing in a child.

    The kernel ties this to the parent *thread* that started the child: a runner must be used
    by the thread that entered it (every command does)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the pipe's end-of-file still ends it
            pass
    if os.getppid() != parent_pid:
        os._exit(1)


def _worker_main(conn, parent_pid=None, inherited=()):
    # Forked with SIGTERM and SIGHUP blocked (ChunkRunner._start): a handler the parent's
    # command installed (simcore.runners.signals) must not run here. Ctrl-C and a hang-up reach the
    # whole process group; the parent alone decides, so the worker ignores them. SIGTERM (the
    # parent's terminate) ends it at once, in a kernel too.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)
    if parent_pid is not None:
        die_with_parent(parent_pid)
    # A forked worker holds copies of the parent's ends of every pipe, its own included: while
    # it does, no end-of-file can tell it that the parent is gone.
    for c in inherited:
        c.close()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if msg is None:
            return
        i, fn, task = msg
        try:
            reply = ("ok", i, fn(task))
        except BaseException as exc:  # sent back to the parent, which raises it
            reply = ("error", i, (exc, traceback.format_exc()))
        try:
            conn.send(reply)
        except OSError:  # the parent is gone: nobody to tell
            return
        except Exception:  # an unpicklable result or exception
            try:
                conn.send(("error", i, (None, traceback.format_exc())))
            except OSError:
                return


# Signals held back while workers are forked: a child must not run the parent's handlers.
_BLOCKED = {s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
            if s is not None}


class ChunkRunner:
    """Worker processes kept alive across calls to :meth:`map` (one per batch of chunks).

    Use as a context manager: leaving the block normally stops the workers; leaving it by an
    exception (KeyboardInterrupt included) terminates them at once. ``workers <= 1`` runs in
    this process, with no worker at all.
    """

    # The workers are forked from this process: whatever it built before entering (simulators,
    # loaded kernels), they have without building it again (simcore.studies.study.run_study).
    forks_workers = "fork" in mp.get_all_start_methods()

    def __init__(self, workers: int):
        self.workers = max(1, workers)
        self._procs: list = []
        self._conns: list = []
        self._jobs: set = set()  # connections of workers busy with a start_job job
        self._mapping = False    # a map generator is active (start_job must come before)

    def __enter__(self):
        if self.workers > 1:
            try:
                self._start()
            except BaseException:  # a signal during the start: no worker left behind
                self.terminate()
                raise
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.terminate()
        return False

    def _start(self):
        fork = "fork" in mp.get_all_start_methods()
        ctx = mp.get_context("fork") if fork else mp.get_context()
        # Children forked while SIGINT is ignored ignore it from their first instruction, so a
        # Ctrl-C during start-up cannot print a worker traceback; SIGTERM and SIGHUP are blocked
        # until the child has set its own handlers (a signal to the parent meanwhile waits).
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        mask = (signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
                if hasattr(signal, "pthread_sigmask") else None)
        try:
            for _ in range(self.workers):
                parent_end, child_end = ctx.Pipe()
                # forked: the child closes its copies of the parent's pipe ends (a spawned one
                # has none)
                inherited = [*self._conns, parent_end] if fork else []
                p = ctx.Process(target=_worker_main, args=(child_end, os.getpid(), inherited),
                                daemon=True)
                p.start()
                child_end.close()
                self._procs.append(p)
                self._conns.append(parent_end)
        finally:
            signal.signal(signal.SIGINT, previous)
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def _death(self, conn) -> str:
        """How the worker at the other end of ``conn`` ended, as a clause (" (killed by
        SIGKILL: ...)"), or "" if it cannot be told."""
        try:
            p = self._procs[self._conns.index(conn)]
            p.join(timeout=2)
            code = p.exitcode
        except (ValueError, AssertionError):
            return ""
        if code is None or code >= 0:
            return f" (exit status {code})" if code else ""
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = ": out of memory, or killed from outside" if -code == signal.SIGKILL else ""
        return f" (killed by {name}{hint})"

    def start_job(self, worker: int, fn, arg=None) -> bool:
        """Have worker number ``worker`` run ``fn(arg)`` before any chunk (e.g. compile part of
        a cold start's kernels); the others take chunks meanwhile. Its result is dropped, an
        exception in it too (a job only prepares: a worker that dies in it is dropped and the
        others play on). Call it between maps. False when there are no worker processes."""
        if not self._procs:
            return False
        if self._mapping:
            raise RuntimeError("start_job while a map is active")
        c = self._conns[worker % len(self._conns)]
        if c not in self._jobs:
            self._send(c, (-1, fn, arg), "its start-up job")
            self._jobs.add(c)
        return True

    def _send(self, conn, msg, what: str) -> None:
        """Hand a worker a message; a worker found dead is :class:`WorkerDied` (a broken pipe
        reaching the command would be taken for its own closed output: click exits 1 in
        silence)."""
        try:
            conn.send(msg)
        except OSError:
            raise WorkerDied(f"a worker process died before it was given {what}"
                             f"{self._death(conn)}") from None

    def _drop(self, conn):
        """Forget a worker whose process died (in a start_job job, or with chunks still out
        when a map is closed)."""
        k = self._conns.index(conn)
        proc = self._procs.pop(k)
        self._conns.pop(k)
        self._jobs.discard(conn)
        conn.close()
        proc.join(timeout=1.0)

    def close(self):
        """Ask idle workers to exit; terminate any that do not within a second."""
        for c in self._conns:
            try:
                c.send(None)
            except OSError:
                pass
        for p in self._procs:
            p.join(timeout=1.0)
        self.terminate()

    def terminate(self):
        """Stop every worker now (SIGTERM, then SIGKILL after half a second)."""
        for p in self._procs:
            if p.is_alive():
                p.terminate()
        for p in self._procs:
            p.join(timeout=0.5)
            if p.is_alive():
                p.kill()
                p.join()
        for c in self._conns:
            c.close()
        self._procs, self._conns, self._jobs = [], [], set()

    def map(self, fn, tasks, progress=None):
        """Yield ``fn(task)`` for every task, in task order; ``progress(task, result)`` after each.

        A generator: results arrive as soon as they and all earlier ones are done. Stopping
        early (``break``) waits for the chunks already handed out, so the runner stays usable.
        """
        if not self._procs:
            for t in tasks:
                r = fn(t)
                if progress:
                    progress(t, r)
                yield r
            return
        # Tasks are drawn lazily (a generator of a billion chunks costs nothing up front).
        self._mapping = True
        it = iter(tasks)
        exhausted = False
        idle = [c for c in self._conns if c not in self._jobs]
        busy: dict = {}
        sent: dict = {}
        done: dict = {}
        next_send = next_yield = 0
        clean = False
        try:
            while True:
                limit = next_yield + _LOOKAHEAD_PER_WORKER * len(self._conns)
                while idle and not exhausted and next_send < limit:
                    try:
                        t = next(it)
                    except StopIteration:
                        exhausted = True
                        break
                    c = idle.pop()
                    self._send(c, (next_send, fn, t), f"chunk {next_send}")
                    busy[c] = next_send
                    sent[next_send] = t
                    next_send += 1
                # Nothing out: done when nothing is left to send, or when no worker is still in
                # a job (then every worker is idle, so the send loop above sent all it could).
                if not busy and (exhausted or not self._jobs):
                    break
                for c in wait(list(busy) + list(self._jobs)):
                    try:
                        kind, i, payload = c.recv()
                    except (EOFError, OSError):   # a dead worker's pipe: EOF, or a reset
                        # (ConnectionResetError) when it died with bytes unread (CI, loaded)
                        if c in self._jobs and len(self._conns) > 1:
                            self._drop(c)  # it died preparing: the others play its chunks
                            continue
                        what = f"chunk {busy[c]}" if c in busy else "its start-up job"
                        raise WorkerDied(f"a worker process died while playing {what}"
                                         f"{self._death(c)}") from None
                    if c in self._jobs:  # a start_job job ended: the worker takes chunks now
                        self._jobs.discard(c)
                        idle.append(c)
                        continue
                    del busy[c]
                    idle.append(c)
                    if kind == "error":
                        exc, text = payload
                        if exc is None:
                            raise WorkerError(f"chunk {i} failed in a worker:\n{text}")
                        raise exc
                    done[i] = payload
                while next_yield in done:
                    r = done.pop(next_yield)
                    if progress:
                        progress(sent.pop(next_yield), r)
                    else:
                        sent.pop(next_yield)
                    next_yield += 1
                    yield r
            clean = True
        except GeneratorExit:  # the consumer stopped early: collect what is still out
            clean = True
            raise
        finally:
            self._mapping = False
            if clean:
                for c in list(busy):
                    try:
                        c.recv()
                    except (EOFError, OSError):
                        # its worker is gone (a signal to the whole process group stops the
                        # workers too, and the generator is closed after): nothing to collect
                        self._drop(c)
