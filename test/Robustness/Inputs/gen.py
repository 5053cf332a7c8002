#!/usr/bin/env python3
"""Generate hostile traces for test/Robustness on the fly (never committed).

Big inputs are written as concatenated gzip members: one member holding a
large repeated block is compressed once and written K times, so a few MB on
disk inflate to many GB while generation stays fast.

  gen.py bomb OUT GB            '{"traceEvents":[' + GB GiB of spaces + ']}'
  gen.py string OUT MB          one X event whose name is MB MiB of 'a'
  gen.py events OUT N           N tiny X events (distinct ts), gzip
  gen.py threads OUT N          N events on N distinct tids (+ thread_name)
  gen.py calltree OUT N         N X events nested N deep (one call chain)
  gen.py argsdeep OUT N         one X event whose args nest N arrays deep
"""
import gzip
import sys
import zlib


def member(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=6, mtime=0)


def repeated_members(out, block: bytes, total: int):
    """Write `total` bytes made of `block` repeated, as gzip members."""
    per = 256 << 20
    reps = max(1, per // len(block))
    big = member(block * reps)
    big_len = len(block) * reps
    while total >= big_len:
        out.write(big)
        total -= big_len
    if total:
        out.write(member(block * (total // len(block))))


def main():
    kind, path, n = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path, "wb") as out:
        if kind == "bomb":
            out.write(member(b'{"traceEvents":['))
            repeated_members(out, b" " * 4096, int(float(n) * (1 << 30)))
            out.write(member(b"]}"))
        elif kind == "string":
            out.write(member(b'{"traceEvents":[{"ph":"X","cat":"cpu_op",'
                             b'"pid":1,"tid":1,"ts":1,"dur":1,"name":"'))
            repeated_members(out, b"a" * 4096, int(n) << 20)
            out.write(member(b'"}]}'))
        elif kind == "events":
            z = zlib.compressobj(1, zlib.DEFLATED, 31)
            out.write(z.compress(b'{"traceEvents":[\n'))
            count = int(n)
            step = 100000
            for base in range(0, count, step):
                chunk = "".join(
                    '{"ph":"X","name":"k","ts":%d,"dur":1,"pid":1,"tid":1},\n'
                    % (2 * i) for i in range(base, min(count, base + step)))
                out.write(z.compress(chunk.encode()))
            out.write(z.compress(b'{"ph":"i","name":"end","ts":0,"pid":1,'
                                 b'"tid":1,"s":"t"}]}'))
            out.write(z.flush())
        elif kind == "threads":
            count = int(n)
            parts = ['{"traceEvents":[']
            for t in range(count):
                parts.append('{"ph":"M","name":"thread_name","pid":1,"tid":%d,'
                             '"args":{"name":"worker %d"}},' % (t, t))
                parts.append('{"ph":"X","cat":"cpu_op","name":"aten::add",'
                             '"pid":1,"tid":%d,"ts":%d,"dur":1},' % (t, t))
            parts.append('{"ph":"i","name":"end","ts":0,"pid":1,"tid":0,'
                         '"s":"t"}]}')
            out.write("".join(parts).encode())
        elif kind == "calltree":
            count = int(n)
            parts = ['{"traceEvents":[']
            # Event i spans [i, 2*count - i]: each contains the next.
            for i in range(count):
                parts.append('{"ph":"X","cat":"cpu_op","name":"aten::f%d",'
                             '"pid":1,"tid":1,"ts":%d,"dur":%d},'
                             % (i % 7, i, 2 * (count - i)))
            parts.append('{"ph":"i","name":"end","ts":0,"pid":1,"tid":1,'
                         '"s":"t"}]}')
            out.write("".join(parts).encode())
        elif kind == "argsdeep":
            count = int(n)
            out.write(('{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"deep",'
                       '"pid":1,"tid":1,"ts":1,"dur":2,"args":{"Input Dims":'
                       + "[" * count + "]" * count + '}}]}').encode())
        else:
            sys.exit("gen.py: unknown kind " + kind)


if __name__ == "__main__":
    main()
