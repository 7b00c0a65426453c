#!/usr/bin/env python3
"""make-glsl-seeds.py SHADER... DIR: fuzz-glsl seeds in DIR, one per
shader: a byte for the stage its extension names (0 vertex, 1 fragment,
2 compute), then its text."""
import os
import sys

stages = {".vert": 0, ".frag": 1, ".comp": 2}
out = sys.argv[-1]
for i, path in enumerate(sys.argv[1:-1]):
    stage = stages[os.path.splitext(path)[1]]
    with open(path, "rb") as f:
        text = f.read()
    with open(os.path.join(out, "shader%02d" % i), "wb") as f:
        f.write(bytes([stage]) + text)
