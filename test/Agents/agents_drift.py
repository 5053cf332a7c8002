#!/usr/bin/env python3
"""Drift test for agents/*.md: the docs must match the tool.

Conventions (agents/README.md, "Conventions"):
  1. Every line of a ```sh block that starts with `tl-opt ` is run, with
     <trace>/<trace1>/<trace2>/<out> substituted; it must exit 0 unless the
     line ends with `# expect-exit=N`.
  2. A block opened with ```sh requires=--<flag> runs only when
     `tl-opt --help` lists --<flag>; otherwise it is skipped (and reported).
  3. Every --<flag> in inline code or sh blocks is in `tl-opt --help-hidden`.
  4. Every `<pass>{<opt>=<v>,...}` names a listed pass and its options; links
     to *.md point to files in the directory.
  5. A guide's front matter `pass: <name>` names a listed pass, and its
     `| option | default | meaning |` table lists exactly the pass's options
     with the defaults --list-passes prints. Every built-in pass has a guide.

python3 stdlib only. Exit 0 when everything holds, 1 otherwise (one line per
problem: `<file>:<line>: error: <what>`).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

FLAG_RE = re.compile(r"(?<![\w<-])--([a-z][a-z0-9-]*)")
ELEM_RE = re.compile(r"(?<![\w-])([a-z][a-z0-9-]*)\{([^{}]*)\}")
LINK_RE = re.compile(r"\]\(([^)#\s]+\.md)(#[^)]*)?\)")
INLINE_RE = re.compile(r"(`+)(.+?)\1")
PLACEHOLDER_RE = re.compile(r"<[a-z][a-z0-9_-]*>")
EXPECT_RE = re.compile(r"\s+#\s*expect-exit=(\d+)\s*$")


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, msg):
        self.items.append("%s:%d: error: %s" % (path, line, msg))


def run_tool(tl_opt, args):
    p = subprocess.run([tl_opt] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def parse_listing(text):
    """--list-passes -> ({pass: {"builtin": bool, "options": {name: default}}},
    {pipeline names})."""
    passes, pipelines = {}, set()
    section, cur = None, None
    for line in text.splitlines():
        if line == "Passes:":
            section = "p"
            continue
        if line == "Pipelines:":
            section = "l"
            continue
        if section == "p":
            m = re.match(r"^  (\S+) - (.*)$", line)
            if m:
                cur = m.group(1)
                # The test loads no --load-pass-plugin, so every listed
                # pass is built in (shipped plugins print their library).
                passes[cur] = {"builtin": True, "options": {}}
                continue
            m = re.match(r"^      ([a-z0-9-]+)=<[^>]*>(?: \([^)]*\))? "
                         r"default: (.*?) - ", line)
            if m and cur:
                passes[cur]["options"][m.group(1)] = m.group(2)
        elif section == "l":
            m = re.match(r"^  (\S+) - ", line)
            if m:
                pipelines.add(m.group(1))
    return passes, pipelines


def parse_flags(text):
    flags = set()
    for line in text.splitlines():
        m = re.match(r"^\s+(--?[a-zA-Z0-9][\w-]*)", line)
        if m:
            flags.add(m.group(1).lstrip("-"))
    return flags


def same_default(doc, tool):
    if doc == tool:
        return True
    try:
        return float(doc) == float(tool)
    except ValueError:
        return False


class Doc:
    """One markdown file split into front matter, fenced blocks and prose."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        self.front = {}
        start = 0
        if self.lines and self.lines[0] == "---":
            for i in range(1, len(self.lines)):
                if self.lines[i] == "---":
                    start = i + 1
                    break
                m = re.match(r"^([a-z_-]+):\s*(.*)$", self.lines[i])
                if m:
                    self.front[m.group(1)] = m.group(2).strip()
        self.blocks = []   # (info, [(lineno, text)])
        self.prose = []    # (lineno, text) outside fences
        fence, info, body = None, "", []
        for i in range(start, len(self.lines)):
            text, no = self.lines[i], i + 1
            m = re.match(r"^\s*(```+)\s*(.*)$", text)
            if fence is None and m:
                fence, info, body = m.group(1), m.group(2).strip(), []
            elif fence is not None and re.match(r"^\s*" + fence + r"\s*$",
                                                text):
                self.blocks.append((info, body))
                fence = None
            elif fence is not None:
                body.append((no, text))
            else:
                self.prose.append((no, text))

    def inline_code(self):
        for no, text in self.prose:
            for m in INLINE_RE.finditer(text):
                yield no, m.group(2).strip()

    def sh_blocks(self):
        for info, body in self.blocks:
            words = info.split()
            if words and words[0] == "sh":
                req = [w[len("requires="):] for w in words[1:]
                       if w.startswith("requires=")]
                yield req, body

    def commands(self):
        """(lineno, command, requires) for every tl-opt line of sh blocks."""
        for req, body in self.sh_blocks():
            pending, first = "", None
            for no, text in body:
                t = text.strip()
                if pending:
                    pending += " " + t
                else:
                    if t.startswith("$ "):
                        t = t[2:]
                    if not t.startswith("tl-opt "):
                        continue
                    pending, first = t, no
                if pending.endswith("\\"):
                    pending = pending[:-1].rstrip()
                    continue
                yield first, pending, req
                pending = ""


def check_pipeline_elems(doc, no, text, passes, probs):
    for m in ELEM_RE.finditer(text):
        name, body = m.group(1), m.group(2)
        if name not in passes:
            probs.add(doc.path, no, "unknown pass '%s' in `%s`"
                      % (name, m.group(0)))
            continue
        key = None
        for tok in body.split(","):
            tok = tok.strip()
            if not tok:
                continue
            if "=" not in tok:
                if key is None:
                    probs.add(doc.path, no, "malformed option '%s' in `%s`"
                              % (tok, m.group(0)))
                continue  # a further element of a list option value
            key = tok.split("=", 1)[0].strip()
            if key not in passes[name]["options"]:
                probs.add(doc.path, no, "pass '%s' has no option '%s'"
                          % (name, key))


def check_options_table(doc, passes, probs):
    name = doc.front["pass"]
    want = passes[name]["options"]
    rows, table_line = {}, None
    for i, (no, text) in enumerate(doc.prose):
        cells = [c.strip() for c in text.strip().strip("|").split("|")]
        if table_line is None:
            if [c.lower() for c in cells] == ["option", "default", "meaning"]:
                table_line = no
            continue
        if not text.strip().startswith("|"):
            break
        if set(text.strip()) <= set("|-: "):
            continue
        opt = cells[0].strip("`")
        dflt = cells[1].strip("`") if len(cells) > 1 else ""
        rows[opt] = (no, dflt)
    if table_line is None:
        if want:
            probs.add(doc.path, 1, "pass '%s' has options (%s) but the guide "
                      "has no '| option | default | meaning |' table"
                      % (name, ", ".join(sorted(want))))
        return
    for opt, (no, dflt) in rows.items():
        if opt not in want:
            probs.add(doc.path, no, "pass '%s' has no option '%s'"
                      % (name, opt))
        elif not same_default(dflt, want[opt]):
            probs.add(doc.path, no, "option '%s' of '%s': doc says default "
                      "'%s', tool says '%s'" % (opt, name, dflt, want[opt]))
    for opt in sorted(set(want) - set(rows)):
        probs.add(doc.path, table_line, "option '%s' of '%s' is missing "
                  "from the options table" % (opt, name))


def check_report_refs(doc, out, probs):
    """What a doc says about the report its own commands wrote: bullets
    `- `key`` under a '... read the output' heading are top-level keys of
    findings.json; every prose-hook field in analysis.md is named in the doc
    as inline code."""
    fj, md = os.path.join(out, "findings.json"), os.path.join(out, "analysis.md")
    if not os.path.exists(fj) or not os.path.exists(md):
        return
    import json
    with open(fj, encoding="utf-8") as f:
        keys = set(json.load(f).keys())
    in_section = False
    for no, text in doc.prose:
        if text.startswith("#"):
            in_section = "read the output" in text.lower()
            continue
        m = re.match(r"^- `([a-z_]+)(\[\])?`", text)
        if in_section and m and m.group(1) not in keys:
            probs.add(doc.path, no, "findings.json has no top-level key '%s'"
                      % m.group(1))
    with open(md, encoding="utf-8") as f:
        fields = set(re.findall(r"<!-- tl-prose finding=\S+ field=([a-z-]+) -->",
                                f.read()))
    if not any("tl-prose" in t for _, t in doc.prose + [
            x for _, body in doc.blocks for x in body]):
        return  # only docs that explain the prose hooks
    named = {code for _, code in doc.inline_code()}
    for fld in sorted(fields - named):
        probs.add(doc.path, 1, "analysis.md has prose hook field '%s' that "
                  "the doc does not name" % fld)


def substitute(cmd, traces, out, tl_opt):
    for ph, path in traces.items():
        cmd = cmd.replace(ph, shlex.quote(path))
    cmd = cmd.replace("<out>", shlex.quote(out))
    return cmd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tl-opt", required=True)
    ap.add_argument("--agents", required=True, help="directory of *.md")
    ap.add_argument("--samples", required=True, help="samples/ directory")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--no-coverage", action="store_true",
                    help="do not require a guide per built-in pass")
    ap.add_argument("--require-command-flag", action="append", default=[],
                    help="some documented tl-opt command (run or gated) "
                    "must use this flag, e.g. --compare")
    a = ap.parse_args()
    a.tl_opt, a.agents, a.samples, a.work = map(
        os.path.abspath, (a.tl_opt, a.agents, a.samples, a.work))

    probs = Problems()
    rc, listing = run_tool(a.tl_opt, ["--list-passes"])
    if rc != 0:
        print("error: tl-opt --list-passes failed:\n" + listing)
        return 1
    passes, pipelines = parse_listing(listing)
    _, help_text = run_tool(a.tl_opt, ["--help"])
    _, hidden_text = run_tool(a.tl_opt, ["--help-hidden"])
    help_flags = parse_flags(help_text)
    all_flags = parse_flags(hidden_text) | help_flags

    if os.path.exists(a.work):
        shutil.rmtree(a.work)
    os.makedirs(a.work)
    traces = {}
    for ph, src in (("<trace1>", "sample_cuda.json.gz"),
                    ("<trace2>", "sample_rocm.json.gz"),
                    ("<trace>", "sample_cuda.json.gz")):
        dst = os.path.join(a.work, "inputs", ph.strip("<>") + "-" + src)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(a.samples, src), dst)
        traces[ph] = dst

    docs = [Doc(os.path.join(a.agents, f))
            for f in sorted(os.listdir(a.agents)) if f.endswith(".md")]
    guides = {}
    ran = skipped = 0
    used_flags = set()
    for doc in docs:
        requires = set()
        for req, _ in doc.sh_blocks():
            requires.update(r.lstrip("-") for r in req)
        absent = {r for r in requires if r not in help_flags}

        # Rule 4 (links) and 3/4 on inline code.
        for no, text in doc.prose:
            for m in LINK_RE.finditer(text):
                target = m.group(1)
                if "/" in target or "://" in target:
                    continue
                if not os.path.exists(os.path.join(a.agents, target)):
                    probs.add(doc.path, no, "link to missing guide '%s'"
                              % target)
        spans = list(doc.inline_code())
        for _, body in doc.sh_blocks():
            spans.extend(body)
        for no, text in spans:
            for m in FLAG_RE.finditer(text):
                f = m.group(1)
                if f not in all_flags and f not in absent:
                    probs.add(doc.path, no, "tl-opt has no flag '--%s'" % f)
            check_pipeline_elems(doc, no, text, passes, probs)

        # Rule 5: guides.
        if "pass" in doc.front:
            name = doc.front["pass"]
            if name not in passes:
                probs.add(doc.path, 2, "front matter names unknown pass '%s'"
                          % name)
            else:
                guides[name] = doc.path
                check_options_table(doc, passes, probs)

        # Rules 1-2: run the commands.
        out = os.path.join(a.work, os.path.splitext(
            os.path.basename(doc.path))[0], "out")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        for no, cmd, req in doc.commands():
            used_flags.update(FLAG_RE.findall(cmd))
            missing = [r for r in req if r.lstrip("-") not in help_flags]
            if missing:
                print("%s:%d: skipped (tl-opt --help lacks %s): %s"
                      % (doc.path, no, ", ".join(missing), cmd))
                skipped += 1
                continue
            expect = 0
            m = EXPECT_RE.search(cmd)
            if m:
                expect = int(m.group(1))
                cmd = cmd[:m.start()]
            line = substitute(cmd, traces, out, a.tl_opt)
            left = PLACEHOLDER_RE.findall(line)
            if left:
                probs.add(doc.path, no, "unknown placeholder(s) %s in: %s"
                          % (", ".join(left), cmd))
                continue
            try:
                argv = shlex.split(line, comments=True)
            except ValueError as e:
                probs.add(doc.path, no, "cannot parse command (%s): %s"
                          % (e, cmd))
                continue
            argv[0] = a.tl_opt
            p = subprocess.run(argv, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True, cwd=a.work,
                               timeout=600)
            ran += 1
            if p.returncode != expect:
                tail = "\n    ".join(p.stdout.strip().splitlines()[-5:])
                probs.add(doc.path, no, "exit %d (expected %d): %s\n    %s"
                          % (p.returncode, expect, cmd, tail))

        check_report_refs(doc, out, probs)

    if not a.no_coverage:
        for name in sorted(passes):
            if passes[name]["builtin"] and name not in guides:
                probs.add(os.path.join(a.agents, name + ".md"), 1,
                          "built-in pass '%s' has no guide" % name)

    for f in a.require_command_flag:
        f = f.lstrip("-")
        state = ("run" if f in help_flags
                 else "skipped: tl-opt --help lacks --" + f)
        if f not in used_flags:
            probs.add(a.agents, 0, "no documented tl-opt command uses --%s"
                      % f)
        else:
            print("commands with --%s: %s" % (f, state))
    for p in probs.items:
        print(p)
        print(p, file=sys.stderr)  # lit shows stderr of a failing RUN line
    print("agents-drift: %d file(s), %d guide(s), %d command(s) run, "
          "%d skipped, %d problem(s)"
          % (len(docs), len(guides), ran, skipped, len(probs.items)))
    return 1 if probs.items else 0


if __name__ == "__main__":
    sys.exit(main())
