"""The one error tree: every failure a player can act on is a CwxError."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class CwxError(Exception):
    """A problem a person can fix, at a file (and line, or key) when there is one; the
    CLI prints it as one line and exits 2."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.key = key

    @property
    def where(self) -> str:
        place = self.path or ""
        if self.path and self.line:
            place += f":{self.line}"
        if self.key:
            place += f" [{self.key}]" if place else f"[{self.key}]"
        return place

    def __str__(self) -> str:
        # A key means something only beside the file it is in.
        where = self.where if self.path else ""
        return f"{where}: {self.message}" if where else self.message

    def located(self, path: str, line: int | None = None) -> CwxError:
        """This error, placed in a file (keeping a line already known)."""
        return type(self)(self.message, path=path, line=self.line or line, key=self.key)


@contextmanager
def about(path: str) -> Iterator[None]:
    """Errors raised inside name `path`: a rule refused a move on that character."""
    try:
        yield
    except CwxError as error:
        if error.path is None:
            raise error.located(path) from None
        raise


@contextmanager
def saying(kind: type[CwxError], more: str) -> Iterator[None]:
    """A rule's refusal of `kind`, with what to type about it (the rules speak the game;
    the operation names the options that answer it)."""
    try:
        yield
    except kind as error:
        raise type(error)(f"{error.message}{more}", path=error.path, line=error.line,
                          key=error.key) from None


def shown(value: object) -> str:
    """A value as a message quotes it: short, and never a 4,000-digit number in full
    (Python refuses to print one, and no one wants to read it)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        digits = int(value.bit_length() * 0.30103) + 1
        return f"a number of about {digits} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Usage(CwxError):
    """The command line itself is wrong: an unknown option, a missing argument."""


class BadValue(CwxError):
    """A value given on the command line is out of range or unknown."""


class BadFile(CwxError):
    """A file is missing, unreadable, malformed or breaks a rule of its format."""


class Unreadable(BadFile):
    """cwx may not read a file or list a folder: what it holds goes unseen."""


class Unlisted(Unreadable):
    """cwx may not list a folder: the files in it go unseen."""


class RuleForbids(CwxError):
    """The game's rules forbid the move (not enough experience, no white to spend)."""


class Conflict(CwxError):
    """Someone else changed the file while cwx was working; nothing was written."""


class WriteFailed(CwxError):
    """The operating system refused a write; the original file is untouched."""


class OutputLost(CwxError):
    """The command's output could not be written (a full disk, a closed stream)."""


class NotPosix(CwxError):
    """The system lacks what campaign files need (POSIX locks and opens): Windows outside
    WSL, until a port can be tested there (docs/design.md, "Porting to Windows")."""
