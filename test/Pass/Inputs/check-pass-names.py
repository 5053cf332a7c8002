# The core must not know the built-in passes by name (issue 20: passes
# describe themselves). Usage: check-pass-names.py LISTING SRC_ROOT, where
# LISTING is `tl-opt --list-passes` with the built-in plugins only.
#
# Every built-in pass argument is searched in the string literals of
# include/, lib/ and tools/. Arguments that are also words of the op
# vocabulary (category keys such as "gemm", the "other" category, op-class
# tokens such as "conv", the "memory" bound type, the --compare flag) may
# appear as such words, but
# never where a pass name is meant: compared with a pass's name, looked up
# in the registry, or inside pipeline text ("a,b").
import os
import re
import sys

VOCABULARY = {"gemm", "sdpa", "elementwise", "norm", "reduce", "conv", "moe",
              "triton", "other", "compare", "memory"}

listing, root = sys.argv[1], sys.argv[2]
names, section = [], None
for line in open(listing):
    line = line.rstrip("\n")
    if line in ("Passes:", "Pipelines:"):
        section = line
        continue
    m = re.match(r"^  ([a-z0-9-]+) - ", line)
    if m and section == "Passes:":
        names.append(m.group(1))
if len(names) < 10:
    sys.exit("check-pass-names: only %d passes in the listing: %s"
             % (len(names), names))
strict = [n for n in names if n not in VOCABULARY]
if not strict:
    sys.exit("check-pass-names: no pass name outside the vocabulary")

LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
problems = []
for top in ("include", "lib", "tools"):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if not f.endswith((".h", ".cpp", ".inc", ".def")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            for no, line in enumerate(open(path, errors="replace"), 1):
                if line.lstrip().startswith("//"):
                    continue
                code = line
                for lit in LITERAL.findall(code):
                    for n in names:
                        tok = r"(?<![\w-])" + re.escape(n) + r"(?![\w-])"
                        if not re.search(tok, lit):
                            continue
                        if n in strict:
                            problems.append("%s:%d: pass name '%s' in \"%s\""
                                            % (rel, no, n, lit))
                        elif ("," in lit and re.search(r"(^|,)" + re.escape(n)
                                                      + r"(,|\{|$)", lit)):
                            problems.append("%s:%d: pipeline text naming "
                                            "pass '%s': \"%s\""
                                            % (rel, no, n, lit))
                for n in names:
                    q = re.escape('"' + n + '"')
                    if re.search(r"\b(createPass|lookupPass|Has|is_contained)"
                                 r"\([^)]*" + q, code) or \
                       re.search(r"\b(Pass|PassName|Argument|getArgument\(\))"
                                 r"\s*==\s*" + q, code):
                        problems.append("%s:%d: pass '%s' looked up by name"
                                        % (rel, no, n))
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("check-pass-names: %d built-in passes, none named in include/ lib/ "
      "tools/" % len(names))
