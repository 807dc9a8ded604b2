"""A child process that never reaches the line its parent waits for.

    python -m tests.process.stuck_process blocked|silent

``blocked``: prints ``NOT KILLED``, as a bot process whose kill point never came
does, and waits on its stdin for good; ``silent``: prints nothing and sleeps.
For the tests of :func:`tests.process.common.killed_at`.
"""

from __future__ import annotations

import sys
import time

if __name__ == "__main__":
    if sys.argv[1] == "blocked":
        print("NOT KILLED", flush=True)
        sys.stdin.readline()
    time.sleep(3600)
