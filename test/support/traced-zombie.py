"""A process whose threads have all exited but stay zombies, held by their tracer: for the test of proc-table.mjs.

Starts a target with two more threads, seizes every thread with ptrace (PTRACE_SEIZE), lets the target exit and,
once every thread of it is a zombie, prints {"pid": <target>} and waits for stdin's end; then it collects the
threads and the target (waitpid with __WALL) and exits. Linux only; needs to be allowed to ptrace its own child.
"""
import ctypes
import json
import os
import subprocess
import sys
import time

PTRACE_SEIZE = 0x4206
WALL = 0x40000000

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
code = "import threading, time, os, sys\n[threading.Thread(target=lambda: time.sleep(600), daemon=True).start() for i in range(2)]\nsys.stdin.read()\nos._exit(0)"
target = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE)


def states():
    found = []
    for tid in os.listdir(f"/proc/{target.pid}/task"):
        text = open(f"/proc/{target.pid}/task/{tid}/stat").read()
        found.append(text[text.rindex(")") + 2])
    return found


while len(states()) < 3:
    time.sleep(0.01)
for tid in os.listdir(f"/proc/{target.pid}/task"):
    if libc.ptrace(PTRACE_SEIZE, int(tid), None, None) != 0:
        raise OSError(ctypes.get_errno(), f"ptrace(PTRACE_SEIZE, {tid})")
target.stdin.close()
while any(state != "Z" for state in states()):
    time.sleep(0.01)
print(json.dumps({"pid": target.pid}), flush=True)
sys.stdin.read()
while True:
    try:
        os.waitpid(-1, WALL)
    except ChildProcessError:
        break
