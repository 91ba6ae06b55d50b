"""Waiting for a pipe to have something to read, whatever the number of its descriptor."""

from __future__ import annotations

import select


def readable(fd: int, timeout: float | None) -> bool:
    """Whether `fd` has data (or its end) within `timeout` seconds (None: wait). poll(), unlike
    select(), takes descriptors above 1023, which a long-running app can reach."""
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([fd], [], [], timeout)[0])
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    return bool(poller.poll(None if timeout is None else max(0, int(timeout * 1000))))
