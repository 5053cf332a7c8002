"""Render an SVG with headless Chromium and check the screenshot is not blank.

usage: svg_screenshot.py <file.svg> <min-distinct-colors> <min-non-white-%>

Prints "<file>: <W>x<H>, <N> colors, <P>% non-white" and exits 1 when the
picture has fewer colors or less ink than asked. PNG decoding is plain
python (zlib + the five scanline filters); no third-party package.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib


def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, "unsupported PNG layout"
            channels = {2: 3, 6: 4, 0: 1, 4: 2}[ctype]
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    svg, min_colors, min_ink = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "shot.png")
        cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               "--user-data-dir=" + os.path.join(tmp, "profile"),
               "--screenshot=" + png, "--window-size=1200,800",
               "file://" + os.path.abspath(svg)]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=120, check=False)
        if not os.path.exists(png):
            sys.exit("svg_screenshot: chromium wrote no screenshot")
        with open(png, "rb") as f:
            w, h, ch, rows = decode_png(f.read())
    colors, ink = set(), 0
    for row in rows:
        for x in range(0, len(row), ch):
            px = row[x:x + 3] if ch >= 3 else row[x:x + 1] * 3
            colors.add(px)
            if px != b"\xff\xff\xff":
                ink += 1
    pct = 100.0 * ink / (w * h)
    print("%s: %dx%d, %d colors, %.1f%% non-white" % (os.path.basename(svg), w, h, len(colors), pct))
    if len(colors) < min_colors or pct < min_ink:
        sys.exit("svg_screenshot: picture looks blank")


if __name__ == "__main__":
    main()
