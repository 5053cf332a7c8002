# Run a command and succeed only if it exits with the given code:
#   %python expect-exit.py <code> <command...>
import subprocess
import sys

rc = subprocess.call(sys.argv[2:])
if rc != int(sys.argv[1]):
    sys.stderr.write("expect-exit: exit code %d, expected %s\n" % (rc, sys.argv[1]))
    sys.exit(1)
