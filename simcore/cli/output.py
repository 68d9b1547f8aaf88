"""What the command modules share when they write: the report after a result is saved, and a
summary written to an ``--out FILE`` (checked before the run, written atomically after).

Its own module so that ``cli``, ``cli_study`` and ``cli_tournament`` import it rather than each
other (they used to reach into ``cli``'s private helpers with function-level imports).
"""

from __future__ import annotations

import os
import tempfile

from simcore.errors import InputError, shell_word


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
               f"saved, `momojan-sim report {shell_word(path)}` tries again")


_PLACEHOLDERS: dict = {}   # --out files this command made, empty, before play: path -> inode


def check_writable(path, option: str = "--out"):
    """Refuse an --out (or ``option``) path that cannot be written before spending the run on
    it, and hold it: the file is made now, empty, so that another command given the same name
    is refused at its start (a QA trial: two runs with one --out FILE.json both ended well and
    the file held one of them), and a name the folder cannot take (too long) is found before
    play. :func:`write_out` fills it; a command that ends first removes it again
    (:func:`drop_placeholders`)."""
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InputError(f"{option}: directory {parent} does not exist")
    if os.path.isdir(path):
        raise InputError(f"{option}: {path} is a directory")
    if os.path.lexists(path):
        raise InputError(f"{option}: {path} exists (nothing is overwritten: give a new name)")
    try:  # the only reliable test (permissions, read-only mounts, root, the name's length)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise InputError(f"{option}: {path} exists (nothing is overwritten: give a new name)") \
            from None
    except OSError as exc:
        raise InputError(f"{option}: cannot write {path}: {exc.strerror}") from None
    st = os.fstat(fd)
    os.close(fd)
    if not _PLACEHOLDERS:
        import atexit
        atexit.register(drop_placeholders)
    _PLACEHOLDERS[os.path.abspath(path)] = (st.st_dev, st.st_ino, os.getpid())


def _ours(path) -> bool:
    """Whether ``path`` is still the empty file :func:`check_writable` made."""
    ident = _PLACEHOLDERS.get(os.path.abspath(path))
    try:
        st = os.stat(path)
    except OSError:
        return False
    return ident is not None and ident[:2] == (st.st_dev, st.st_ino) and st.st_size == 0


def drop_placeholders() -> None:
    """Remove the --out files this command held and never wrote (it failed or was stopped
    first), where they are still the empty files it made. A worker process forked from it
    inherits the list and its exit handler: only the process that made a file removes it."""
    for path in list(_PLACEHOLDERS):
        if _PLACEHOLDERS[path][2] != os.getpid():
            continue
        if _ours(path):
            try:
                os.unlink(path)
            except OSError:
                pass
        _PLACEHOLDERS.pop(path, None)


def write_file(path, data, option: str = "--out") -> None:
    """Write ``data`` to an --out (``option``) path :func:`check_writable` held: through a
    temporary file and a rename over the empty file, never over a file another process put
    there meanwhile."""
    from simcore.studies.results import atomic_write
    key = os.path.abspath(path)
    if key in _PLACEHOLDERS and not _ours(path):
        _PLACEHOLDERS.pop(key, None)
        raise OSError(17, "another process wrote that name while this command played; "
                          "nothing was overwritten")
    atomic_write(path, data)
    _PLACEHOLDERS.pop(key, None)


def write_out(path, text):
    try:
        write_file(path, text)
    except OSError as exc:
        raise InputError(f"--out: finished (the summary above) but {path} could not be "
                         f"written: {exc.strerror}") from None
