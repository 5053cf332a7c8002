"""Print, for each ALT, whether analysis.html inlines exactly FILE.svg.

usage: inlined_svg.py DIR ALT=FILE.svg ...

Decodes the <img alt="ALT" src="data:image/svg+xml;base64,..."> of
DIR/analysis.html and compares it byte for byte with DIR/FILE.svg.
"""
import base64
import html
import os
import re
import sys

d = sys.argv[1]
page = open(os.path.join(d, "analysis.html"), encoding="utf-8").read()
for arg in sys.argv[2:]:
    alt, name = arg.rsplit("=", 1)
    m = re.search(r'<img alt="%s" src="data:image/svg\+xml;base64,([^"]+)"'
                  % re.escape(html.escape(alt)), page)
    if not m:
        print("%s: not inlined" % name)
        continue
    same = base64.b64decode(m.group(1)) == open(os.path.join(d, name), "rb").read()
    print("%s: %s" % (name, "inlined, identical" if same else "inlined, DIFFERENT"))
