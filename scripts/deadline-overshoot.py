#!/usr/bin/env python3
"""Wall-time overshoot of `pencilbox solve --timeout T` on one puzzle file, whole process.

Usage: scripts/deadline-overshoot.py BINARY PUZZLE-FAMILY FILE T REPS
Runs the binary REPS times, asserts exit code 3 (stopped by the limit) and prints the wall time
minus T (min / median / max, ms) and the median CPU time (user + sys) from rusage.
"""
import os
import statistics
import subprocess
import sys
import time

binary, family, path, t, reps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
over, cpu = [], []
for _ in range(reps):
    start = time.perf_counter()
    p = subprocess.Popen([binary, "solve", "-p", family, "--timeout", t, path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    over.append((time.perf_counter() - start - float(t)) * 1000)
    cpu.append((ru.ru_utime + ru.ru_stime) * 1000)
    code = os.waitstatus_to_exitcode(status)
    if code != 3:
        sys.exit(f"exit code {code}, expected 3 (timeout)")
over.sort()
print(f"{path} --timeout {t}: overshoot ms min {over[0]:.0f} median {statistics.median(over):.0f} "
      f"max {over[-1]:.0f}; cpu ms median {statistics.median(cpu):.0f} (n={reps})")
