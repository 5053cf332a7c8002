#!/usr/bin/env python3
"""Run a command with files limited to BYTES (ulimit -f) and SIGXFSZ
ignored, so a write past the limit fails with EFBIG as on a full disk.

  file-size-limit.py BYTES cmd args...

Exits with the command's code.
"""
import resource
import signal
import subprocess
import sys

limit = int(sys.argv[1])


def limit_files():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


sys.exit(subprocess.run(sys.argv[2:], preexec_fn=limit_files).returncode)
