# Write a broken copy of a shared object:
#   %python make-bad-elf.py <kind> <good.so> <out.so>
# kinds: truncated (first 20000 bytes: header intact, segments and section
# table past the end), header (first 30 bytes), aarch64 (e_machine set to
# 183, EM_AARCH64), elf32 (EI_CLASS set to 1, ELFCLASS32).
import sys

kind, src, dst = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
if kind == "truncated":
    data = data[:20000]
elif kind == "header":
    data = data[:30]
elif kind == "aarch64":
    data[18:20] = (183).to_bytes(2, "little")
elif kind == "elf32":
    data[4] = 1
else:
    sys.exit("unknown kind " + kind)
open(dst, "wb").write(data)
