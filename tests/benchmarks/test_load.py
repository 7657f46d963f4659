"""benchmarks.load: the server's CPU time (are a run's figures the server's own?) and its interpreter."""

from __future__ import annotations

import os
import subprocess
import sys

from benchmarks.load import interpreter_of, session_cpu_seconds

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


def test_the_interpreter_named_is_the_one_that_runs_with_the_libpython_the_dynamic_linker_gives_it() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; print('up', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "up\n"
        named = interpreter_of(child.pid)
    finally:
        child.communicate("")
    executable = os.path.realpath(sys.executable)
    linked = [
        line.split("=>")[1].split("(")[0].strip()
        for line in subprocess.run(["ldd", executable], capture_output=True, text=True, check=True).stdout.splitlines()
        if "libpython" in line
    ]
    assert named.startswith(executable + ", ")
    if linked:
        assert named.endswith("shared " + os.path.realpath(linked[0]))
    else:
        assert named.endswith("libpython built in")
