"""Files written whole: a new file beside the destination, renamed over it, so that a reader
or a second writer (another process running the same program, a second ``--out`` to one
path) sees the old file or one new file whole, never a torn mix of two (``os.replace`` is
atomic within one file system). The compiler's ``src/output.rs`` writes its outputs by the
same rules.

Invariant: a destination that is not a regular file (``/dev/null``, a FIFO) is written in
place, since renaming over it would replace the device node; a symbolic link is followed,
so the file it names is replaced and the link kept; a replaced file keeps its permissions.
"""

import itertools
import os
import stat
import threading

# Numbers the temporary files of one process's writes.
_WRITES = itertools.count()


def write_whole(path, data):
    """Writes the bytes ``data`` to ``path`` whole (see the module docs); ``OSError`` when it
    cannot, leaving no temporary file behind."""
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(target, "wb") as fh:
            fh.write(data)
        return
    head, name = os.path.split(target)
    tmp = os.path.join(head, ".%s.%d.%d.%d.tmp" % (name, os.getpid(), threading.get_ident(), next(_WRITES)))
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with open(fd, "wb") as fh:
            fh.write(data)
            if st is not None:
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
