"""One-time form keys: drawn from the system's randomness a few kB at a time, never
the same twice, in any thread or in a forked process."""

from __future__ import annotations

import os
import re
import threading

import pytest

from scorekeeper.views import commands
from scorekeeper.views.commands import KEY_BYTES, new_key, new_keys


def test_keys_have_the_shape_forms_accept():
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", new_key())
    keys = new_keys(3)
    assert [len(key) for key in keys] == [2 * KEY_BYTES] * 3
    assert all(commands._KEY.match(key) for key in [new_key(), *keys])


def test_keys_read_the_system_once_for_many(monkeypatch):
    reads = []
    system = os.urandom

    def urandom(count):
        reads.append(count)
        return system(count)

    monkeypatch.setattr(commands.os, "urandom", urandom)
    monkeypatch.setattr(commands, "_RANDOM", commands._Randomness())
    keys = [new_key() for _ in range(200)] + new_keys(40)
    assert len(set(keys)) == 240
    # 240 keys of 16 bytes are 3840 bytes: one read of 4096
    assert reads == [4096]
    new_keys(20)  # 320 bytes more than the 256 left: a second read
    assert reads == [4096, 4096]


def test_no_two_threads_draw_the_same_key():
    drawn: list[list[str]] = [[] for _ in range(4)]

    def draw(into: list[str]) -> None:
        for _ in range(2000):
            into.append(new_key())
        into.extend(new_keys(500))

    threads = [threading.Thread(target=draw, args=(into,)) for into in drawn]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [key for keys in drawn for key in keys]
    assert len(every) == 4 * 2500
    assert len(set(every)) == len(every)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_process_does_not_repeat_its_parents_keys():
    new_key()  # the parent holds unused random bytes
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's answer is read below
        os.write(write, " ".join(new_keys(4)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    theirs = os.read(read, 4096).decode().split()
    os.close(read)
    assert len(theirs) == 4
    assert not set(theirs) & set(new_keys(4))
