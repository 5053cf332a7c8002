"""Usage: config_keys.py TL_OPT

Every flag of `tl-opt --help-hidden` must be a --config key (issue 24),
except the actions and the help / version flags listed below; every config
key must be a flag. The keys are those the unknown-key error lists, so a new
flag without a Settings.def line (or a key without a flag) fails here.
"""
import re
import subprocess
import sys
import tempfile

tl_opt = sys.argv[1]

# Not run settings: what to do instead of a run, and the command line's own.
ACTIONS = {
    "config", "list-passes", "dump-pass-pipeline", "print-ir",
    "validate-report", "verify-findings", "stop-after",
    "help", "help-hidden", "help-list", "help-list-hidden",
    "print-all-options", "print-options", "version", "h",
    "wait-lock",  # how this command line waits for a lock, not a setting
    "mpi",  # how this command line was launched (under mpirun), not a setting
}
# Flags whose key is spelled differently (docs/Driver.md).
RENAMED = {"o": "output", "pass-pipeline": "pipeline", "no-progress": "progress"}

out = subprocess.run([tl_opt, "--help-hidden"], capture_output=True,
                     text=True, check=True).stdout
flags = set(re.findall(r"^\s+--?([a-z][a-z0-9-]*)", out, re.M))
if len(flags) < 20:
    sys.exit("config_keys: only %d flags parsed from --help-hidden" % len(flags))

with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
    f.write("no-such-key: 1\n")
    f.flush()
    err = subprocess.run([tl_opt, "--config=" + f.name],
                         capture_output=True, text=True).stderr
m = re.search(r"unknown key 'no-such-key' \(known: ([^)]*)\)", err)
if not m:
    sys.exit("config_keys: no key list in: " + err)
keys = set(k.strip() for k in m.group(1).split(","))

problems = []
for flag in sorted(flags - ACTIONS):
    key = RENAMED.get(flag, flag)
    if key not in keys:
        problems.append("flag --%s has no config key '%s'" % (flag, key))
flag_keys = set(RENAMED.get(f, f) for f in flags)
for key in sorted(keys - {"passes"}):
    if key not in flag_keys:
        problems.append("config key '%s' has no flag" % key)
for flag in sorted(ACTIONS & set(keys)):
    problems.append("action --%s is also a config key" % flag)
if problems:
    sys.exit("config_keys: " + "; ".join(problems))
print("config_keys: %d flags, %d keys" % (len(flags - ACTIONS), len(keys)))
