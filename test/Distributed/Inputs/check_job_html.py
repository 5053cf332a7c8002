"""Read a job's analysis.html the way a browser would and print what it
shows: the title, the headings, every table as rows of cell text, the
links, and each image checked against the chart file of the same name
(the page must inline exactly multirank/<chart>.svg). Fails on anything
that would fetch from elsewhere.

Usage: check_job_html.py OUTDIR
"""
import base64
import html.parser
import os
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.stack, self.row, self.cell = [], [], None, None
        self.text = None
        self.images, self.links, self.csp = [], [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            v = a.get(k)
            if v and (v.startswith("http:") or v.startswith("https:") or v.startswith("//")):
                sys.exit("check_job_html: fetches " + v)
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a.get("content")
        if tag in ("h1", "h2", "h3", "title", "p"):
            self.text = ""
        if tag == "tr":
            self.row = []
        if tag in ("td", "th"):
            self.cell = ""
        if tag == "img":
            self.images.append((a.get("alt"), a.get("src", "")))
        if tag == "a":
            self.links.append(a.get("href"))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "title", "p") and self.text is not None:
            self.out.append("%s: %s" % (tag, self.text.strip()))
            self.text = None
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        if tag == "tr" and self.row is not None:
            self.out.append("row: " + " | ".join(self.row))
            self.row = None

    def handle_data(self, data):
        if self.text is not None:
            self.text += data
        if self.cell is not None:
            self.cell += data


def main():
    out = sys.argv[1]
    p = Page()
    p.feed(open(os.path.join(out, "analysis.html"), encoding="utf-8").read())
    if not p.csp or "default-src 'none'" not in p.csp:
        sys.exit("check_job_html: no Content-Security-Policy")
    print("\n".join(p.out))
    for alt, src in p.images:
        prefix = "data:image/svg+xml;base64,"
        if not src.startswith(prefix):
            sys.exit("check_job_html: image %r not inlined" % alt)
        svg = base64.b64decode(src[len(prefix):])
        match = [f for f in ("rank_breakdown.svg", "collective_skew.svg")
                 if os.path.exists(os.path.join(out, "multirank", f)) and
                 open(os.path.join(out, "multirank", f), "rb").read() == svg]
        print("image: %s = multirank/%s" % (alt, match[0] if match else "?"))
    for h in p.links:
        if h and not h.startswith("#") and not os.path.exists(os.path.join(out, h)):
            sys.exit("check_job_html: link to missing " + h)
        print("link: " + str(h))


main()
