#!/usr/bin/env python3
"""make-isa-seeds.py VECTORS bytes|text DIR: fuzz seeds from the known-good
vectors, as raw machine code (for fuzz-isa-decode) or as assembly text (for
fuzz-isa-asm): one file per vector, plus one with all of them."""
import os
import sys

vectors, mode, out = sys.argv[1:4]
entries = []
for line in open(vectors):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    hexbytes, text = line.split(None, 1)
    entries.append((bytes.fromhex(hexbytes), text))
for i, (code, text) in enumerate(entries):
    with open(os.path.join(out, "v%04d" % i), "wb") as f:
        f.write(code if mode == "bytes" else text.encode() + b"\n")
with open(os.path.join(out, "all"), "wb") as f:
    for code, text in entries:
        f.write(code if mode == "bytes" else text.encode() + b"\n")
