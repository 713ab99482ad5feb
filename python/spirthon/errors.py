"""The exceptions of spirthon's Python side, which every other module may raise: a kernel
that does not compile, a checked launch that failed, a barrier some invocations never
reach. Of the package it imports only the generated table (the report's words are the
compiler's)."""

import os

from . import _library


class CompileError(Exception):
    """A kernel did not compile: ``str(e)`` is the compiler's message, with the file and
    line of each error."""


class CheckError(Exception):
    """A checked launch failed. ``str(e)`` is the report ``spirthon run --checked`` prints
    (the first failure, by lowest workgroup then invocation, with its line and column, then
    which invocation it was and how many failed); ``error`` is the first failure's exception
    (``None`` when a GPU lost its record among too many failures) and ``count`` the number of
    failing invocations."""

    lost = None  # the device's report, when it lost the first failure's record

    def __init__(self, error, count, where, invocation):
        self.error = error
        self.count = count
        self.filename, self.line, self.column = where
        self.invocation = invocation
        super().__init__(self.report())

    @classmethod
    def from_report(cls, path, text, count, located, invocation):
        """The error of a checked GPU launch, from the parts the native module gives:
        the report's text, the failure count, ``(message, line, column)`` (``None`` when
        the record was lost) and the invocation's ids."""
        e = cls.__new__(cls)
        e.count, e.invocation = count, invocation
        e.filename, e.line, e.column = path, 0, 0
        e.error, e.lost = None, text
        if located is not None:
            message, e.line, e.column = located
            kind, _, detail = message.partition(": ")
            exc_type = {"IndexError": IndexError, "ZeroDivisionError": ZeroDivisionError}.get(kind, AssertionError)
            e.error = exc_type(detail) if detail else exc_type()
            e.lost = None
        Exception.__init__(e, e.report())
        return e

    def report(self, path=None):
        """The report, naming the kernel file ``path`` as given (default: as loaded)."""
        if self.lost is not None:
            return self.lost  # the device lost the first failure's record: its own words
        filename = self.filename
        if path is not None and os.path.exists(path) and os.path.exists(filename) and os.path.samefile(path, filename):
            filename = path
        text = type(self.error).__name__
        if str(self.error):
            text += ": %s" % self.error
        words = _library.CHECK_REPORT
        head = words["located"].format(message=text, path=filename, line=self.line, col=self.column)
        others = words["only"] if self.count == 1 else words["first_of"].format(count=self.count)
        return words["report"].format(head=head, ids=self.invocation, others=others)


class DeadlockError(RuntimeError):
    """Some invocations of a workgroup wait at a barrier that others never reach."""
