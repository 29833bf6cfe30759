"""Runs one command as a child subreaper and reports what its whole process tree cost, as one JSON line on stdout.

Usage: python3 tree-usage.py <command> [args...]   (stdin, stdout and stderr of the command are this process's)

Reported (JSON on fd 3, so the command's own output stays untouched):
  code       the command's exit status (negative: killed by that signal)
  wallMs     from fork to the command's exit, ms
  treeMs     from fork until every descendant is gone (processes that outlive the command included), ms
  cpuMs      user + system CPU time of every descendant (the command and all it started, reparented ones
             included, since this process is their subreaper), ms; getrusage(RUSAGE_CHILDREN)
  peakRssKiB the command's own peak RSS (VmHWM of /proc/<pid>/status, read every 5 ms until it exits), KiB
  processes  how many processes the tree had (every descendant this process reaped)

Linux only (prctl PR_SET_CHILD_SUBREAPER). Used by bench/delegation-cost.ts.
"""
import ctypes
import json
import os
import resource
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execvp(sys.argv[1], sys.argv[1:])
    peak = 0
    code = None
    wall = None
    reaped = 0
    status_path = f"/proc/{pid}/status"
    while code is None:
        try:
            with open(status_path) as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        while True:
            done, status_code, _ = os.wait4(-1, os.WNOHANG)
            if done == 0:
                break
            reaped += 1
            if done == pid:
                wall = time.monotonic() - started
                code = os.waitstatus_to_exitcode(status_code)
                break
        if code is None:
            time.sleep(0.005)
    while True:
        try:
            os.wait4(-1, 0)
            reaped += 1
        except ChildProcessError:
            break
    tree = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = {
        "code": code,
        "wallMs": wall * 1000,
        "treeMs": tree * 1000,
        "cpuMs": (usage.ru_utime + usage.ru_stime) * 1000,
        "peakRssKiB": peak,
        "processes": reaped,
    }
    os.write(3, (json.dumps(report) + "\n").encode())


main()
