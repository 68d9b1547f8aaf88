"""What the command modules share when they write: the report after a result is saved, and a
summary written to an ``--out FILE`` (checked before the run, written atomically after).

Its own module so that ``cli``, ``cli_study`` and ``cli_tournament`` import it rather than each
other (they used to reach into ``cli``'s private helpers with function-level imports).
"""

from __future__ import annotations

import os
import tempfile

from simcore.errors import InputError


def render_report(path, notice):
    """Write the report of a result this command has just written (its files are not hashed
    again); a failure there never loses the saved result."""
    try:
        from simcore.report.html import render
    except ImportError:
        return
    try:
        render(path, verify=False)
    except Exception as exc:  # the numbers are saved: say so and carry on
        notice(f"the report could not be drawn ({type(exc).__name__}: {exc}); the result is "
               f"saved, `momojan-sim report {path}` tries again")


def check_writable(path, option: str = "--out"):
    """Refuse an --out (or ``option``) path that cannot be written before spending the run on
    it."""
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InputError(f"{option}: directory {parent} does not exist")
    if os.path.isdir(path):
        raise InputError(f"{option}: {path} is a directory")
    if os.path.exists(path):
        raise InputError(f"{option}: {path} exists (nothing is overwritten: give a new name)")
    try:  # the only reliable test (permissions, read-only mounts, root): create a file there
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".momojan-sim-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"{option}: cannot write in {parent}: {exc.strerror}") from None
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise InputError(f"{option}: {path} is not writable")


def write_out(path, text):
    from simcore.studies.results import atomic_write
    try:
        atomic_write(path, text)
    except OSError as exc:
        raise InputError(f"--out: the run finished (summary above) but {path} could not be "
                         f"written: {exc.strerror}") from None
