"""Change signals for the runtime copies (``lookup.runtime``): one inotify instance per process (Linux).

A runtime copy's element reads use bytes verified in this process since the copy last changed. Asking
the file system on every read (``fstat``: ~0.8 us from Python) is most of the cost of a decision; the
kernel can instead queue an event whenever a watched file is opened, written, truncated or has its
attributes changed, and ``pending()`` (one ``poll`` with no wait, ~0.2 us) says whether any event is
queued for any watched copy. The kernel queues the event inside the system call that makes the change,
so a change completed before a read starts is always seen by it.

What inotify does not report: writes through a memory map and changes made on another machine (network
file systems). A writable memory map needs the file opened for writing first, and opening is reported:
so any event at all, an open included, puts that copy back on the ``fstat`` check for the rest of the
process (``CheckedArray._suspect``). That covers every writer except one that already had the copy
mapped before this process started watching it.

``os.register_at_fork``: a forked child shares its parent's queue (an event read by one is lost to the
other), so in a child every watched copy goes back to the ``fstat`` check at once.
"""

from __future__ import annotations

import ctypes
import os
import select
import struct
import weakref
from typing import Any

# <sys/inotify.h>
IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE, IN_OPEN = 0x2, 0x4, 0x8, 0x20
IN_MOVE_SELF, IN_DELETE_SELF, IN_Q_OVERFLOW, IN_IGNORED = 0x800, 0x400, 0x4000, 0x8000
WATCHED = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_OPEN | IN_MOVE_SELF | IN_DELETE_SELF
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len (then len bytes of name: none for a file watch)


class Watcher:
    """One inotify instance: ``watch(path, target)`` calls ``target._suspect()`` on the first event
    about ``path`` read by ``drain()`` (and stops watching it: a suspect target checks the file itself);
    ``pending()`` is true when events are queued."""

    def __init__(self) -> None:
        # The process's own symbols (libc among them): find_library would run ldconfig in a subprocess.
        libc = ctypes.CDLL(None, use_errno=True)
        self._add, self._rm = libc.inotify_add_watch, libc.inotify_rm_watch  # AttributeError off Linux
        self._add.argtypes, self._rm.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32], [ctypes.c_int,
                                                                                                   ctypes.c_int]
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.fd = fd
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        self._poll = poller.poll
        # wd -> {id(target): weak reference} (targets are arrays: not hashable, and must not be kept alive)
        self._targets: dict[int, dict[int, weakref.ref[Any]]] = {}

    def pending(self) -> bool:
        return bool(self._poll(0))

    def watch(self, path: os.PathLike[str] | str, target: Any) -> int | None:
        """The watch descriptor of ``path`` (shared by every target of the same file), or None."""
        wd = self._add(self.fd, os.fsencode(path), WATCHED)
        if wd < 0:
            return None  # e.g. the user's watch limit: the target keeps the fstat check
        self._targets.setdefault(wd, {})[id(target)] = weakref.ref(target)
        return wd

    def unwatch(self, wd: int, target: Any) -> None:
        targets = self._targets.get(wd)
        if targets is not None:
            targets.pop(id(target), None)
            if not targets:
                del self._targets[wd]
                self._rm(self.fd, wd)

    def drain(self) -> None:
        """Read every queued event; each target of a file with an event is suspect from now on."""
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return
            offset = 0
            while offset < len(data):
                wd, mask, _, length = _EVENT.unpack_from(data, offset)
                offset += _EVENT.size + length
                if mask & IN_Q_OVERFLOW:  # events were lost: every copy is suspect
                    self.suspect_all()
                    continue
                targets = self._targets.pop(wd, None)
                if targets is None:
                    continue  # an event queued before the watch was dropped
                if not mask & IN_IGNORED:
                    self._rm(self.fd, wd)
                _suspect(targets)

    def suspect_all(self) -> None:
        """Every target checks its file itself from now on (the watches are left: after a fork they
        belong to the parent too)."""
        targets, self._targets = self._targets, {}
        for group in targets.values():
            _suspect(group)


def _suspect(targets: dict[int, weakref.ref[Any]]) -> None:
    for ref in targets.values():
        target = ref()
        if target is not None:
            target._suspect()


_watcher: Watcher | None = None
_tried = False


def watcher() -> Watcher | None:
    """This process's watcher (made on first use), or None where inotify is not available."""
    global _watcher, _tried
    if not _tried:
        _tried = True
        try:
            _watcher = Watcher()
        except (OSError, AttributeError):
            _watcher = None
    return _watcher


def poll() -> None:
    """Read this process's queued events, if any (one ``poll`` system call, ~0.2 us)."""
    w = _watcher
    if w is not None and w.pending():
        w.drain()


def _after_fork_in_child() -> None:
    global _watcher, _tried
    old, _watcher, _tried = _watcher, None, False
    if old is not None:
        old.suspect_all()
        os.close(old.fd)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
