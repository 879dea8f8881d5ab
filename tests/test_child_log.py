"""ChildLog: a child's output read while it is still writing loses no line."""

from __future__ import annotations

import subprocess
import sys

from tests._child_log import ChildLog

_WRITER = (
    "import sys\nfor n in range(3000):\n    sys.stdout.write(f'line {n}\\n'); sys.stdout.flush()\n"
)


def test_reading_while_the_child_writes_keeps_every_line_in_order() -> None:
    log = ChildLog()
    try:
        child = subprocess.Popen([sys.executable, "-c", _WRITER], stdout=log.sink)
        reads = 0
        while child.poll() is None:  # read as a server's waiter does, many times a second
            log.read()
            reads += 1
        child.wait()
        assert reads > 0
        assert log.text().splitlines() == [f"line {n}" for n in range(3000)]
    finally:
        log.close()
