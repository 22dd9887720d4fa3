"""Folder locks: an exclusive `flock` on each folder a change touches, taken in one
sorted order (of real paths, so a folder named twice through a link is locked once),
so two commands never wait on each other. A folder is never replaced, so its lock never
strands on an old inode the way a lock on the data file would."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from cwx.base import posix
from cwx.base.errors import BadFile

if posix.SUPPORTED:  # else (Windows outside WSL) a campaign command stops before a lock
    import fcntl

Waiting = Callable[[str], None]


class FolderLocks:
    """Exclusive locks on folders, taken in sorted order and released together."""

    def __init__(self, waiting: Waiting | None = None) -> None:
        self.held: dict[str, int] = {}  # real path -> open descriptor holding the flock
        self.inodes: set[tuple[int, int]] = set()
        self.waiting = waiting

    def acquire(self, folders: Iterable[str]) -> None:
        for folder in sorted({os.path.realpath(f) for f in folders} - set(self.held)):
            try:
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except FileNotFoundError:
                raise BadFile("the folder does not exist; create it first", path=folder) from None
            except NotADirectoryError:
                raise BadFile("is not a folder", path=folder) from None
            except PermissionError:
                raise BadFile("cwx may not open this folder (permission denied)",
                              path=folder) from None
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) in self.inodes:  # the same folder, mounted twice
                os.close(fd)
                continue
            self._lock(fd, folder)
            self.held[folder] = fd
            self.inodes.add((info.st_dev, info.st_ino))

    def _lock(self, fd: int, folder: str) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if self.waiting:
            self.waiting(folder)
        fcntl.flock(fd, fcntl.LOCK_EX)

    def holds(self, folder: str) -> bool:
        """Whether this folder is locked, by whatever name (a bind mount is one folder)."""
        if os.path.realpath(folder) in self.held:
            return True
        try:
            info = os.stat(folder)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) in self.inodes

    def release(self) -> None:
        for fd in self.held.values():
            os.close(fd)  # closing drops the flock
        self.held.clear()
        self.inodes.clear()
