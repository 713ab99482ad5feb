"""The source a kernel or func runs: its file's text as it was when the function was
defined, kept then.

A Python function keeps running the code it was defined with when its file is edited
later; so does a kernel, on every device: the GPU compiles the text kept at definition, and
the reference executor recompiles the function from it (``spirthon.typed``). A kernel never
runs new code with an old signature, or the other way round. The file is read again when
the module is (``importlib.reload``, a new process).

The text is read from ``linecache`` when the decorator runs, which is just after CPython
compiled the file; an edit in between would leave the kept text different from the code
that runs, so ``check`` compares the function's code with the code its kept text compiles
to before the text is used, and refuses a mismatch.
"""

import inspect
import linecache

from .errors import CompileError  # noqa: F401 (raised here; its home is errors)


def changed(fn, src):
    """The error for a kept text that does not hold ``fn``'s code."""
    return CompileError(
        "%s: the source of `%s` changed while the file was being imported, so the text kept "
        "for it is not the code that runs; import the module again" % (src.path, fn.__name__))


def nested(fn):
    """The error for a kernel or func defined inside a function, or ``None``."""
    qual = fn.__qualname__
    if "<locals>" not in qual:
        return None
    outer = qual.split(".<locals>")[0]
    return CompileError(
        "%s:%d: `%s` is defined inside `%s`: spirthon compiles the kernels and funcs defined at "
        "the top level of a file (the compiled kernel cannot see `%s`'s variables); define it "
        "there" % (fn.__code__.co_filename, fn.__code__.co_firstlineno, fn.__name__, outer, outer))


class Source:
    """A file's path and its text, kept when a kernel or func was defined."""

    __slots__ = ("path", "text", "lines", "_codes")

    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.lines = text.splitlines(True)
        self._codes = None

    def codes(self):
        """Every function's code object in the text compiled whole, by (name, first line);
        empty when the text does not compile."""
        if self._codes is None:
            codes = {}
            try:
                work = [compile(self.text, self.path, "exec", dont_inherit=True)]
            except (SyntaxError, ValueError):
                work = []
            while work:
                c = work.pop()
                for k in c.co_consts:
                    if hasattr(k, "co_code"):
                        codes[(k.co_name, k.co_firstlineno)] = k
                        work.append(k)
            self._codes = codes
        return self._codes


_kept = {}  # path -> Source, the latest text read for that file


def keep(fn):
    """The text of ``fn``'s file now (the same ``Source`` for every function of one
    reading of it); ``None`` when it cannot be read (typed at an interactive prompt)."""
    path = fn.__code__.co_filename
    linecache.checkcache(path)
    lines = linecache.getlines(path, fn.__globals__)
    if not lines:
        return None
    text = "".join(lines)
    s = _kept.get(path)
    if s is None or s.text != text:
        s = _kept[path] = Source(path, text)
    return s


def block(fn, src):
    """The lines of ``fn``'s definition in ``src`` (decorators included) and its first line
    number; ``None`` when the text has no definition there."""
    first = fn.__code__.co_firstlineno
    if not 1 <= first <= len(src.lines):
        return None
    try:
        lines = inspect.getblock(src.lines[first - 1:])
    except Exception:
        return None
    return lines, first


def _same_code(a, b):
    if (a.co_code, a.co_names, a.co_varnames, a.co_freevars, a.co_argcount) != (b.co_code, b.co_names, b.co_varnames, b.co_freevars, b.co_argcount):
        return False
    if len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if hasattr(x, "co_code") and hasattr(y, "co_code"):
            if not _same_code(x, y):
                return False
        elif type(x) is not type(y) or x != y:
            return False
    return True


def check(fn, src):
    """Whether ``src`` holds the code of ``fn``: the kept text, compiled whole as its module
    was, has a function of that name at that line whose code is ``fn``'s. (A function alone
    compiles differently: a call on a module the file imports, for one.)"""
    codes = src.codes()
    c = codes.get((fn.__code__.co_name, fn.__code__.co_firstlineno))
    return c is not None and _same_code(c, fn.__code__)
