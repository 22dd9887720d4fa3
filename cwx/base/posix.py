"""Campaign files need a POSIX system: locks (fcntl), opens that follow no link and never
wait on a FIFO, a folder's fsync, signal masks around a commit, owners and modes. Where
any is missing (Windows outside WSL) a campaign command says so in one line; the
stateless commands work everywhere. docs/design.md lists what a port would need."""

import os
import signal

# The names cwx's file layer uses that a POSIX system has and Windows does not.
_OS_NAMES = ("O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC", "O_DIRECTORY", "fchmod", "geteuid",
             "getuid")


def _supported() -> bool:
    try:
        import fcntl  # noqa: F401 (the locks' module: only whether it is there)
    except ImportError:
        return False
    return all(hasattr(os, name) for name in _OS_NAMES) and hasattr(signal, "pthread_sigmask")


SUPPORTED = _supported()


def needed() -> None:
    """Refuse campaign files on a system without what keeps them safe."""
    if not SUPPORTED:
        from cwx.base.errors import NotPosix

        raise NotPosix("campaign files need a POSIX system: Linux, macOS, or WSL on Windows "
                       "(`cwx odds` and `cwx clock resolve --score` work here)")
