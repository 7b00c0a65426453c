#!/usr/bin/python3
"""snapshots-close.py REF-PREFIX SRC-PREFIX PERCENT: each REF-PREFIX*.png
snapshot (eglretrace's) against the SRC-PREFIX one of the same name: the
same size, and at most PERCENT of its pixels with a channel differing by
more than 12 of 255 ('apitrace diff-images' default fuzz, 0.05).  Prints
the worst snapshot; exit 1 when one is missing, of another size or past
the limit.  Reads PNGs with Pillow (python3-pil, which apitrace's
diff-images needs too)."""
import glob
import sys

from PIL import Image, ImageChops


def main():
    ref, src, percent = sys.argv[1], sys.argv[2], float(sys.argv[3])
    names = sorted(p for p in glob.glob(ref + "*.png") if not p.endswith(".diff.png"))
    if not names:
        print("no snapshots at " + ref)
        return 1
    worst, worst_name, bad = -1.0, "", []
    for path in names:
        other = src + path[len(ref):]
        try:
            a = Image.open(path).convert("RGB")
            b = Image.open(other).convert("RGB")
        except OSError as e:
            bad.append("%s: %s" % (other, e))
            continue
        if a.size != b.size:
            bad.append("%s: %s, not %s" % (other, b.size, a.size))
            continue
        diff = ImageChops.difference(a, b)
        off = sum(1 for p in diff.getdata() if max(p) > 12)
        share = 100.0 * off / (a.size[0] * a.size[1])
        if share > worst:
            worst, worst_name = share, other[len(src):]
        if share > percent:
            bad.append("%s: %.2f%% of pixels off" % (other, share))
    print("%d snapshots, the worst %.2f%% of pixels off (%s)%s" %
          (len(names), worst, worst_name, "; " + "; ".join(bad) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
