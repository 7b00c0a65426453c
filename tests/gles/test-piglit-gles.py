#!/usr/bin/env python3
"""test-piglit-gles.py AGX-STACK EXPECTED [PRELOAD]: piglit's GLES subset as
its own runner runs it --

    piglit run quick --platform surfaceless_egl -t FILTER

with FILTER the issue's 'es-3\\.00|es-1\\.00|gles|opengl es|glsl-es' -- on one
stack through 'agx-stack run' (glvnd loading this build's vendor only).
EXPECTED (piglit-gles-expected.txt) has one line a test, 'RESULT NAME' with
'# why' for anything but pass; every test must have its expected result,
and the counts are printed.  TAP on stdout.  Skipped without piglit or
waffle-utils' wflinfo (without it piglit skips every versioned test), and
in the sanitizer build (PRELOAD given): piglit's runner is Python, which
the sanitizer runtime would have to be preloaded into; the drawing tests
of tests/gles run there instead."""
import bz2
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

FILTER = r"es-3\.00|es-1\.00|gles|opengl es|glsl-es"


def main():
    stack, expected_path = sys.argv[1], sys.argv[2]
    preload = sys.argv[3] if len(sys.argv) > 3 else ""
    if not shutil.which("piglit") or not shutil.which("wflinfo"):
        print("1..0 # SKIP no piglit or no wflinfo (Debian's piglit, waffle-utils)")
        return 0
    if preload:
        print("1..0 # SKIP the sanitizer build: piglit's runner is Python")
        return 0
    expected = {}
    with open(expected_path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                result, name = line.split(None, 1)
                expected[name] = result
    tmp = tempfile.mkdtemp(prefix="agx-test-piglit-gles-")
    env = dict(os.environ, AGX_RUNTIME_DIR=tmp)
    try:
        up = subprocess.run([stack, "up"], env=env, capture_output=True, text=True)
        if up.returncode:
            print("1..0 # SKIP the stack did not start")
            print("".join("# " + l + "\n" for l in up.stdout.splitlines()))
            return 1
        out = os.path.join(tmp, "results")
        run = subprocess.run(
            [stack, "run", "--", "piglit", "run", "quick", "--platform", "surfaceless_egl",
             "-t", FILTER, out],
            env=env, capture_output=True, text=True, timeout=3000)
        try:
            with bz2.open(os.path.join(out, "results.json.bz2")) as f:
                tests = json.load(f)["tests"]
        except OSError:
            print("1..1\nnot ok 1 - piglit wrote no results (exit status %d)" % run.returncode)
            print("".join("# " + l + "\n" for l in (run.stdout + run.stderr).splitlines()[-40:]))
            return 1
    finally:
        subprocess.run([stack, "down"], env=env, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)

    names = sorted(set(tests) | set(expected))
    counts = collections.Counter()
    failed = False
    print("1..%d" % len(names))
    for n, name in enumerate(names, 1):
        got = tests.get(name, {}).get("result", "missing")
        want = expected.get(name, "unlisted")
        counts[got] += 1
        if got == want:
            print("ok %d - %s: %s" % (n, name, got))
            continue
        failed = True
        print("not ok %d - %s: %s, expected %s" % (n, name, got, want))
        t = tests.get(name, {})
        for l in ((t.get("out") or "") + (t.get("err") or "")).splitlines()[-20:]:
            print("#   " + l)
    print("# %s of %d tests" % (", ".join("%s %d" % kv for kv in sorted(counts.items())),
                              len(tests)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
