"""Copies kept in this process between requests, each set bounded (least recently
used goes first) and safe to share between the server's threads.

What is kept is always derived from the store and checked against it before
use (a fold against the newest change, a drawing against the revision read
with it): a copy, never a second truth. `forget_all` drops every copy, for a
store replaced or edited by hand under a running process.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")

_every: weakref.WeakSet[Recent] = weakref.WeakSet()


class Recent(Generic[Value]):
    """At most `most` values, and at most `most_size` by `size(value)` (the
    newest value is kept whatever its size); the least recently used go first."""

    def __init__(
        self, most: int, most_size: int | None = None, size: Callable[[Value], int] | None = None
    ):
        self.most = most
        self.most_size = most_size
        self._size = size or (lambda value: 0)
        self._values: OrderedDict[Hashable, tuple[Value, int]] = OrderedDict()  # and its size
        self._total = 0
        self.lock = threading.Lock()
        _every.add(self)

    def get(self, key: Hashable) -> Value | None:
        with self.lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Value) -> None:
        size = self._size(value)
        with self.lock:
            self._drop(key)
            self._values[key] = (value, size)
            self._total += size
            self._trim()

    def grown(self, key: Hashable, value: Value) -> None:
        """`value`, kept under `key`, grew (see `size`): drop the oldest until all
        fit again. Nothing when another value is kept there now."""
        size = self._size(value)
        with self.lock:
            found = self._values.get(key)
            if found is None or found[0] is not value:
                return
            self._values[key] = (value, size)
            self._total += size - found[1]
            self._trim()

    def _drop(self, key: Hashable) -> None:
        found = self._values.pop(key, None)
        if found is not None:
            self._total -= found[1]

    def _trim(self) -> None:
        while len(self._values) > self.most or (
            self.most_size is not None and self._total > self.most_size and len(self._values) > 1
        ):
            _, (_, size) = self._values.popitem(last=False)
            self._total -= size

    def __len__(self) -> int:
        return len(self._values)

    def total_size(self) -> int:
        with self.lock:
            return self._total

    def clear(self) -> None:
        with self.lock:
            self._values.clear()
            self._total = 0


def forget_all() -> None:
    """Drop every kept copy of this process."""
    for kept in list(_every):
        kept.clear()
