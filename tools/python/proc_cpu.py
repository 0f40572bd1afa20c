"""A process's CPU time per thread, exact: the scheduler's run time (/proc/PID/task/TID/schedstat, nanoseconds),
not utime/stime, which the kernel samples at clock ticks and so misattributes for short, sparse bursts of work."""

import os


def thread_cpu_ns(pid: int) -> dict[tuple[str, str], int]:
    """Each live thread's run time in ns, keyed by (thread id, thread name)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                out[(tid, name)] = int(f.read().split()[0])
        except FileNotFoundError:
            pass  # the thread ended between the listing and the read
    return out
