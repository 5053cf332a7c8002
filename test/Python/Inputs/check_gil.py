"""The analysis runs without the GIL: while a worker thread is inside the
C++ call, the main thread keeps running Python code.

The main thread ticks every millisecond and counts the ticks during which
the worker is inside _tl.analyze. Holding the GIL for the whole call, the
worker would let through at most a tick or two per call (at its Python
boundaries); released, the ticks track the call's duration (~0.1 s per
call for the generated trace).

Usage: check_gil.py TRACE
"""
import sys
import threading
import time

import tl
from tl import _tl

trace = sys.argv[1]
inside = False
calls = 3


def work():
    global inside
    for _ in range(calls):
        inside = True
        _tl.analyze(trace, pipeline="none", threads=1, quiet=True)
        inside = False


t = threading.Thread(target=work)
ticks = 0
t.start()
while t.is_alive():
    if inside:
        ticks += 1
    time.sleep(0.001)
t.join()
assert ticks >= 10 * calls, ticks
print("main thread ran during the analysis")
