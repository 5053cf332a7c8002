"""Check analysis.html against findings.json and analysis.md.

usage: html_check.py <report-dir> [--dom]

With --dom the page is first rendered by headless Chromium (--dump-dom, the
DOM after the page's script ran); otherwise the file itself is parsed.
Checks, each a line on stderr and exit 1 when it fails:
  * every kernel and op name of findings.json's locations appears verbatim
    in the page text (control characters removed, as the page removes them);
  * the page's headings are analysis.md's headings, in order (markup and
    tl's comment markers removed), and it has as many tables as analysis.md
    plus one location table per finding with locations;
  * the only script is the page's own, no element has an event-handler
    attribute, links stay in the page or relative, images are data: URIs,
    no external resource is referenced.
Prints "<n> headings, <n> tables, <n> names verbatim, <n> script(s)".
"""
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def visible(s):
    return CONTROL.sub("", s)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.headings, self.tables, self.scripts = [], [], 0, 0
        self.location_tables = 0
        self.errors = []
        self._heading, self._skip = None, 0

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k.startswith("on"):
                self.errors.append("event handler attribute %s on <%s>" % (k, tag))
            if k == "href" and v is not None and (":" in v or v.startswith("/")):
                self.errors.append("link leaves the page: %r" % v)
            if k == "src" and tag != "img":
                self.errors.append("<%s src=%r>" % (tag, v))
            if k == "src" and tag == "img" and not v.startswith("data:image/svg+xml;base64,"):
                self.errors.append("image not inline: %r" % v[:60])
        if tag == "link":
            self.errors.append("<link> element")
        if tag in ("iframe", "object", "embed", "base", "form"):
            self.errors.append("<%s> element" % tag)
        if tag == "script":
            self.scripts += 1
        if tag in ("script", "style", "title"):
            self._skip += 1
        if tag == "table":
            self.tables += 1
            if "locations" in (dict(attrs).get("class") or ""):
                self.location_tables += 1
        if re.fullmatch("h[1-6]", tag):
            self._heading = []

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title"):
            self._skip -= 1
        if re.fullmatch("h[1-6]", tag) and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data):
        if self._skip:
            return
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)


def md_headings(md):
    out, fence = [], False
    for line in md.split("\n"):
        if line.strip().startswith("```"):
            fence = not fence
            continue
        m = re.match(r"\s*(#{1,6}) (.*)$", line)
        if fence or not m:
            continue
        t = re.sub(r"<!--.*?-->", "", m.group(2))
        t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
        t = t.replace("**", "").replace("`", "")
        # Backslash escapes (CommonMark 2.4): the punctuation itself.
        t = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", t)
        out.append(visible(t).strip())
    return out


def md_tables(md):
    return len([l for l in md.split("\n")
                if re.fullmatch(r"\s*\|[-|: ]*-[-|: ]*", l.rstrip())])


def dump_dom(path):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               "--user-data-dir=" + os.path.join(tmp, "profile"),
               "--dump-dom", "file://" + os.path.abspath(path)]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=120, check=False)
    if not r.stdout.strip():
        sys.exit("html_check: chromium printed no DOM")
    return r.stdout.decode("utf-8")


def main():
    out = sys.argv[1]
    page_path = os.path.join(out, "analysis.html")
    src = dump_dom(page_path) if "--dom" in sys.argv[2:] else open(page_path, encoding="utf-8").read()
    page = Page()
    page.feed(src)
    page.close()
    text = "".join(page.text)
    findings = json.load(open(os.path.join(out, "findings.json"), encoding="utf-8"))
    md = open(os.path.join(out, "analysis.md"), encoding="utf-8").read()

    errors = list(page.errors)
    names = 0
    with_locations = 0
    for f in findings["findings"]:
        with_locations += bool(f.get("locations"))
        for loc in f.get("locations", []):
            if loc["kind"] in ("kernel", "op"):
                names += 1
                if visible(loc["name"]) not in text:
                    errors.append("name not verbatim in the page: %r" % loc["name"])
    if page.headings != md_headings(md):
        errors.append("headings differ from analysis.md:\n  html %r\n  md   %r"
                      % (page.headings, md_headings(md)))
    if page.location_tables != with_locations:
        errors.append("%d location tables for %d findings with locations"
                      % (page.location_tables, with_locations))
    if page.tables - page.location_tables != md_tables(md):
        errors.append("%d tables, analysis.md has %d"
                      % (page.tables - page.location_tables, md_tables(md)))
    if page.scripts != 1:
        errors.append("%d <script> elements" % page.scripts)
    for e in errors:
        print("html_check: " + e, file=sys.stderr)
    print("%d headings, %d tables, %d names verbatim, %d script(s)"
          % (len(page.headings), page.tables, names, page.scripts))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
