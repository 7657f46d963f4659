"""benchmarks.load: the server's CPU time, which says whether a run's figures are the server's own."""

from __future__ import annotations

import subprocess
import sys

from benchmarks.load import session_cpu_seconds

# Burns this much CPU time (its own clock, not the wall's), says so, then waits to be stopped.
BURN = """
import sys, time
while time.process_time() < {seconds}:
    pass
print("burnt", flush=True)
sys.stdin.read()
"""


def test_the_cpu_time_of_a_session_is_its_processes_and_no_one_elses() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", BURN.format(seconds=0.5)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # as running_server starts the server: the session is the child's pid
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "burnt\n"
        burnt = session_cpu_seconds(child.pid)
    finally:
        child.communicate("")
    assert 0.45 <= burnt < 5.0  # /proc counts whole clock ticks (10 ms), each of user and system time
    assert session_cpu_seconds(child.pid) == 0.0  # ended: nothing of it is left to count
