#!/usr/bin/env python3
"""genhw.py: turns a hardware-word description (*.hw) into a C header with,
for every word, a struct of named fields holding the values *meant* (an
address, a count, a size) and the functions that pack it to little-endian
bytes, check that it fits, unpack it (refusing set reserved bits and wrong
fixed values) and print it, plus its LENGTH and its DEFAULTS initializer.
Nobody shifts hardware bits by hand: the modifiers below say how a stored
field relates to the value meant, as Mesa's genxml modifiers do.

    genhw.py IN.hw OUT.h

Syntax:
    namespace PREFIX                    C prefix of everything generated
    enum NAME VALUE=name ...            named values, for fields of type enum:NAME
    word NAME size=BYTES                a word (message, register, struct)
      NAME BITS [TYPE] [MODIFIER ...] [default=V] [overlap] [= VALUE]
BITS is START:WIDTH, or several of them joined by commas for a field split
over the word (an address in a low and a high part): the first piece holds
the stored value's lowest bits.  TYPE is uint (default), int, bool, hex,
address (a GPU address: hex, 64 bits meant), float (IEEE single, 32 bits)
or enum:NAME.  Modifiers, applied in the order written when packing (and
undone in reverse when unpacking):
    shr=N       the value is a multiple of 2^N, stored shifted right by N
    bits=N      the field holds the value's bits N and up (the bits below
                are another word's)
    low         the field holds the value's low bits (the rest are another
                word's)
    minus=N     stored as value - N (a count of at least N)
    groups=N    stored in units of N, rounded up; the largest count, N << WIDTH,
                is stored as 0 (and 0 reads back as it)
    log2        a power of two, stored as its logarithm
default=V sets the value the word's DEFAULTS initializer gives the field (V a number or, for an
enum, one of its names).  overlap lets the field share bits with other
overlap fields (one layout or another, chosen by another field): one left
at 0 is not packed, and at most one of fields sharing bits may be nonzero.
"= VALUE" makes a field fixed: packed as VALUE, checked on unpack.
Bit positions count from bit 0 of byte 0.  Bits no field covers are
reserved and must be zero.

A value that does not fit its field is the caller's bug: _pack() asserts
_fits(); code that packs values it did not choose checks _fits() first.
"""
import sys


class HwError(Exception):
    pass


def parse_int(text):
    return int(text, 0)


TYPES = ("uint", "int", "bool", "hex", "address", "float")
ARG_MODS = ("shr", "bits", "minus", "groups")
FLAG_MODS = ("low", "log2")


class Word:
    def __init__(self, name, size, line):
        self.name, self.size, self.line = name, size, line
        self.fields = []

    def add(self, f):
        if f["width"] < 1 or f["width"] > 64:
            raise HwError("field %s: width 1 to 64" % f["name"])
        mask = 0
        for start, width in f["pieces"]:
            if width < 1 or start + width > self.size * 8:
                raise HwError("field %s (%d:%d) is past %d bytes" % (f["name"], start, width, self.size))
            piece = ((1 << width) - 1) << start
            if mask & piece:
                raise HwError("field %s overlaps itself" % f["name"])
            mask |= piece
        f["mask"] = mask
        for other in self.fields:
            if other["name"] == f["name"]:
                raise HwError("two fields named %s" % f["name"])
            if other["mask"] & mask and not (other["overlap"] and f["overlap"]):
                raise HwError("field %s overlaps %s (mark both overlap)" % (f["name"], other["name"]))
        if f["fixed"] is not None and (f["fixed"] < 0 or f["fixed"] >> f["width"]):
            raise HwError("fixed value of %s does not fit %d bits" % (f["name"], f["width"]))
        self.fields.append(f)


def parse_field(w, enums):
    f = {"name": w[0], "type": "uint", "mods": [], "default": None, "fixed": None,
         "overlap": False}
    f["pieces"] = [tuple(parse_int(x) for x in p.split(":")) for p in w[1].split(",")]
    f["width"] = sum(width for _, width in f["pieces"])
    rest = w[2:]
    if rest and (rest[0] in TYPES or rest[0].startswith("enum:")):
        f["type"] = rest.pop(0)
    while rest and rest[0] != "=":
        tok = rest.pop(0)
        key, _, arg = tok.partition("=")
        if key in ARG_MODS and arg:
            f["mods"].append((key, parse_int(arg)))
        elif key in FLAG_MODS and not arg:
            f["mods"].append((key, 0))
        elif key == "default" and arg:
            f["default"] = arg
        elif tok == "overlap":
            f["overlap"] = True
        else:
            raise HwError("unknown attribute %r" % tok)
    if rest:
        if len(rest) != 2:
            raise HwError("expected '= VALUE'")
        f["fixed"] = parse_int(rest[1])
    t = f["type"]
    if t.startswith("enum:"):
        if t[5:] not in enums:
            raise HwError("unknown enum %s" % t[5:])
    elif t not in TYPES:
        raise HwError("unknown type %s" % t)
    if f["default"] is not None:
        if t.startswith("enum:") and f["default"] in [n for _, n in enums[t[5:]]]:
            f["default"] = ("%s_%s" % (t[5:], f["default"])).upper()  # PREFIX_ added by emit
        elif t == "bool":
            f["default"] = {"true": "true", "false": "false"}[f["default"]]
        else:
            f["default"] = "%#x" % parse_int(f["default"])
    if t == "float" and (f["width"] != 32 or len(f["pieces"]) != 1 or f["mods"] or f["fixed"] is not None):
        raise HwError("a float field is 32 bits in one piece, not fixed, without modifiers")
    if t in ("bool", "int") and f["mods"]:
        raise HwError("modifiers are for unsigned fields")
    if t == "bool" and f["width"] != 1:
        raise HwError("a bool field is one bit")
    if f["fixed"] is not None and (f["mods"] or f["overlap"] or f["default"] is not None):
        raise HwError("a fixed field has no modifiers, default or overlap")
    return f


def read(path):
    prefix, enums, words, word = None, {}, [], None
    for number, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        w = line.split()
        try:
            if w[0] == "namespace":
                prefix = w[1]
            elif w[0] == "enum":
                enums[w[1]] = [(parse_int(v.split("=")[0]), v.split("=")[1]) for v in w[2:]]
            elif w[0] == "word":
                attrs = dict(a.split("=") for a in w[2:])
                word = Word(w[1], parse_int(attrs["size"]), number)
                words.append(word)
            elif word is None:
                raise HwError("%r outside a word" % w[0])
            else:
                word.add(parse_field(w, enums))
        except (HwError, ValueError, KeyError, IndexError) as e:
            raise SystemExit("%s:%d: %s" % (path, number, e))
    if not prefix:
        raise SystemExit("%s: no namespace" % path)
    return prefix, enums, words


def ctype(f):
    return {"bool": "bool", "int": "int64_t", "float": "float"}.get(f["type"], "uint64_t")


def fits_expr(f):
    """C statements returning false from _fits() when v->NAME does not fit."""
    n, width = "v->" + f["name"], f["width"]
    o = []
    if f["type"] == "int":
        if width < 64:
            lim = 1 << (width - 1)
            o.append("\tif (%s < -%dll || %s > %dll)\n\t\treturn false;" % (n, lim, n, lim - 1))
        return o
    if f["type"] in ("bool", "float"):
        return o
    # undo nothing: walk the modifiers forwards on a copy
    o.append("\t{\n\t\tuint64_t s = %s;\n" % n)
    if f["overlap"]:
        o.append("\t\tif (s) {")
    ind = "\t\t\t" if f["overlap"] else "\t\t"
    for kind, arg in f["mods"]:
        if kind == "shr":
            o.append("%sif (s & %#xull)\n%s\treturn false;\n%ss >>= %d;" % (ind, (1 << arg) - 1, ind, ind, arg))
        elif kind == "bits":
            o.append("%ss >>= %d;" % (ind, arg))
        elif kind == "low":
            o.append("%ss &= %#xull;" % (ind, (1 << width) - 1))
        elif kind == "minus":
            o.append("%sif (s < %d)\n%s\treturn false;\n%ss -= %d;" % (ind, arg, ind, ind, arg))
        elif kind == "groups":
            o.append("%sif (s > %#xull)\n%s\treturn false;\n%ss = (s + %d) / %d & %#xull;"
                     % (ind, arg << width, ind, ind, arg - 1, arg, (1 << width) - 1))
        elif kind == "log2":
            o.append("%sif (!s || (s & (s - 1)))\n%s\treturn false;\n%ss = (uint64_t)__builtin_ctzll(s);"
                     % (ind, ind, ind))
    if width < 64:
        o.append("%sif (s >> %d)\n%s\treturn false;" % (ind, width, ind))
    o.append("%s(void)s;" % ind)
    if f["overlap"]:
        o.append("\t\t}")
    o.append("\t}")
    return o


def stored_expr(f):
    """C statements computing the stored value s from v->NAME (after _fits)."""
    n, width = "v->" + f["name"], f["width"]
    o = ["\t\tuint64_t s = (uint64_t)%s;\n" % n]
    for kind, arg in f["mods"]:
        if kind in ("shr", "bits"):
            o.append("\t\ts >>= %d;" % arg)
        elif kind == "low":
            o.append("\t\ts &= %#xull;" % ((1 << width) - 1))
        elif kind == "minus":
            o.append("\t\ts -= %d;" % arg)
        elif kind == "groups":
            o.append("\t\ts = (s + %d) / %d & %#xull;" % (arg - 1, arg, (1 << width) - 1))
        elif kind == "log2":
            o.append("\t\ts = s ? (uint64_t)__builtin_ctzll(s) : 0;")
    return o


def meant_expr(f, var):
    """C statements turning stored s into the meant value, assigned to var."""
    width = f["width"]
    o = []
    for kind, arg in reversed(f["mods"]):
        if kind in ("shr", "bits"):
            o.append("\t\ts <<= %d;" % arg)
        elif kind == "minus":
            o.append("\t\ts += %d;" % arg)
        elif kind == "groups":
            o.append("\t\ts = (s ? s : %#xull) * %d;" % (1 << width, arg))
        elif kind == "log2":
            o.append("\t\ts = 1ull << s;")
    o.append("\t\t%s = s;" % var)
    return o


def get_pieces(prefix, f, buf):
    parts, shift = [], 0
    for start, width in f["pieces"]:
        parts.append("(%s_get(%s, %d, %d) << %d)" % (prefix, buf, start, width, shift) if shift
                     else "%s_get(%s, %d, %d)" % (prefix, buf, start, width))
        shift += width
    return " | ".join(parts)


def set_pieces(prefix, f, buf, val):
    o, shift = [], 0
    for start, width in f["pieces"]:
        o.append("\t\t%s_put(%s, %d, %d, %s >> %d);" % (prefix, buf, start, width, val, shift)
                 if shift else "\t\t%s_put(%s, %d, %d, %s);" % (prefix, buf, start, width, val))
        shift += width
    return o


def emit(prefix, enums, words, out, source):
    guard = (prefix + "_HW_H").upper()
    o = []
    o.append("/* Generated by genhw.py from %s: do not edit. */" % source)
    o.append("#ifndef %s\n#define %s\n" % (guard, guard))
    o.append("#include <assert.h>\n#include <stdbool.h>\n#include <stdint.h>\n#include <stdio.h>\n"
             "#include <string.h>\n#include <inttypes.h>\n")
    o.append("/* Bits [start, start + width) of a little-endian byte array. */")
    o.append("static inline uint64_t %s_get(const uint8_t *b, unsigned start, unsigned width)" % prefix)
    o.append("{\n\t__extension__ unsigned __int128 v = 0;\n")
    o.append("\tfor (unsigned i = (start + width - 1) / 8 + 1; i-- > start / 8;)")
    o.append("\t\tv = v << 8 | b[i];")
    o.append("\tv >>= start % 8;")
    o.append("\treturn width == 64 ? (uint64_t)v : (uint64_t)v & ((1ull << width) - 1);\n}\n")
    # Packing works on 64-bit words, not bytes: with start and width
    # constants once inlined, a field is a mask, a shift and an OR (two for a
    # field across words), where a loop over bytes costs tens of instructions
    # -- and packers run for every draw.
    o.append("/*")
    o.append(" * ORs the low width bits of v into bits [start, start + width) of w, 64-bit")
    o.append(" * words of the little-endian bytes being packed.")
    o.append(" */")
    o.append("static inline void %s_put(uint64_t *w, unsigned start, unsigned width, uint64_t v)" % prefix)
    o.append("{\n\tuint64_t x = width == 64 ? v : v & ((1ull << width) - 1);\n")
    o.append("\tw[start / 64] |= x << (start % 64);")
    o.append("\tif (start % 64 + width > 64)")
    o.append("\t\tw[start / 64 + 1] |= x >> (64 - start % 64);")
    o.append("}\n")
    o.append("/* The first bytes bytes of the little-endian words w at out. */")
    o.append("static inline void %s_store(uint8_t *out, const uint64_t *w, unsigned bytes)" % prefix)
    o.append("{")
    o.append("#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__")
    o.append("\tmemcpy(out, w, bytes);")
    o.append("#else")
    o.append("\tfor (unsigned i = 0; i < bytes; i++)")
    o.append("\t\tout[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));")
    o.append("#endif")
    o.append("}\n")
    for name, items in enums.items():
        ename = "%s_%s" % (prefix, name)
        o.append("enum %s {" % ename)
        for value, item in items:
            o.append("\t%s_%s = %d," % (ename.upper(), item.upper(), value))
        o.append("};\n")
        o.append("static inline const char *%s_name(uint64_t v)\n{\n\tswitch (v) {" % ename)
        for value, item in items:
            o.append('\tcase %d: return "%s";' % (value, item))
        o.append('\tdefault: return NULL;\n\t}\n}\n')
    for w in words:
        n = "%s_%s" % (prefix, w.name)
        free = [f for f in w.fields if f["fixed"] is None]
        o.append("#define %s_LENGTH %d\n" % (n.upper(), w.size))
        o.append("struct %s {" % n)
        for f in free:
            o.append("\t%s %s;" % (ctype(f), f["name"]))
        if not free:
            o.append("\tchar unused; /* a word of fixed fields only */")
        o.append("};\n")
        inits = []
        for f in free:
            if f["default"] is not None:
                d = f["default"]
                if not d[0].isdigit() and d not in ("true", "false"):
                    d = "%s_%s" % (prefix.upper(), d)
                inits.append(".%s = %s" % (f["name"], d))
        if inits:
            o.append("/* The fields with defaults, for an initializer: { %s_DEFAULTS, ... }. */" % n.upper())
            o.append("#define %s_DEFAULTS %s\n" % (n.upper(), ", ".join(inits)))
        # fits
        o.append("/* Whether every field of v can be stored as its bits say. */")
        o.append("static inline bool %s_fits(const struct %s *v)\n{" % (n, n))
        body = []
        for f in free:
            body += fits_expr(f)
        ov = [f for f in free if f["overlap"]]
        for i, a in enumerate(ov):
            for b in ov[i + 1:]:
                if a["mask"] & b["mask"]:
                    body.append("\tif (v->%s && v->%s)\n\t\treturn false;" % (a["name"], b["name"]))
        if not body:
            body.append("\t(void)v;")
        o += body
        o.append("\treturn true;\n}\n")
        # pack
        o.append("/* Packs v, whose fields must fit (%s_fits). */" % n)
        o.append("static inline void %s_pack(uint8_t *out, const struct %s *v)\n{" % (n, n))
        o.append("\tuint64_t w[%d] = { 0 };\n" % ((w.size + 7) // 8))
        o.append("\tassert(%s_fits(v));" % n)
        for f in w.fields:
            if f["fixed"] is not None:
                o.append("\t{\n" + "\n".join(set_pieces(prefix, f, "w", "%#xull" % f["fixed"])) + "\n\t}")
                continue
            if f["type"] == "float":
                o.append("\t{\n\t\tuint32_t bits;\n\n\t\tmemcpy(&bits, &v->%s, 4);" % f["name"])
                o += set_pieces(prefix, f, "w", "bits")
                o.append("\t}")
                continue
            if f["type"] == "int":
                o.append("\t{")
                o += set_pieces(prefix, f, "w", "(uint64_t)v->%s" % f["name"])
                o.append("\t}")
                continue
            o.append("\tif (v->%s) {" % f["name"] if f["overlap"] else "\t{")
            o += stored_expr(f)
            o += set_pieces(prefix, f, "w", "s")
            o.append("\t}")
        if not free:
            o.append("\t(void)v;")
        o.append("\t%s_store(out, w, %d);" % (prefix, w.size))
        o.append("}\n")
        if w.size <= 8:
            o.append("/* The same, as a %d-byte little-endian integer. */" % w.size)
            o.append("static inline uint64_t %s_pack_u64(const struct %s *v)\n{" % (n, n))
            o.append("\tuint8_t b[8] = { 0 };\n\tuint64_t raw = 0;\n")
            o.append("\t%s_pack(b, v);\n\tfor (unsigned i = 0; i < 8; i++)" % n)
            o.append("\t\traw |= (uint64_t)b[i] << (8 * i);\n\treturn raw;\n}\n")
        # unpack
        used = 0
        for f in w.fields:
            used |= f["mask"]
        o.append("/* Unpacks into v; false when reserved bits are set or a fixed field differs. */")
        o.append("static inline bool %s_unpack(const uint8_t *in, struct %s *v)\n{" % (n, n))
        o.append("\tstatic const uint8_t used[%d] = { %s };" % (
            w.size, ", ".join("%#04x" % ((used >> (8 * i)) & 0xff) for i in range(w.size))))
        o.append("\tbool ok = true;\n")
        # every field first, so that v is whole whatever the answer
        for f in w.fields:
            if f["fixed"] is not None:
                continue
            elif f["type"] == "float":
                o.append("\t{\n\t\tuint32_t bits = (uint32_t)(%s);\n\n\t\tmemcpy(&v->%s, &bits, 4);\n\t}"
                         % (get_pieces(prefix, f, "in"), f["name"]))
            elif f["type"] == "int":
                o.append("\tv->%s = (int64_t)((%s) << %d) >> %d;"
                         % (f["name"], get_pieces(prefix, f, "in"), 64 - f["width"], 64 - f["width"]))
            elif f["type"] == "bool":
                o.append("\tv->%s = %s;" % (f["name"], get_pieces(prefix, f, "in")))
            else:
                o.append("\t{\n\t\tuint64_t s = %s;\n" % get_pieces(prefix, f, "in"))
                o += meant_expr(f, "v->" + f["name"])
                o.append("\t}")
        if not free:
            o.append("\t(void)v;")
        o.append("\tfor (unsigned i = 0; i < %d; i++)\n\t\tif (in[i] & (uint8_t)~used[i])\n\t\t\tok = false;" % w.size)
        for f in w.fields:
            if f["fixed"] is not None:
                o.append("\tif ((%s) != %#xull)\n\t\tok = false;" % (get_pieces(prefix, f, "in"), f["fixed"]))
        o.append("\treturn ok;\n}\n")
        if w.size <= 8:
            o.append("static inline bool %s_unpack_u64(uint64_t raw, struct %s *v)\n{" % (n, n))
            o.append("\tuint8_t b[8];\n\n\tfor (unsigned i = 0; i < 8; i++)")
            o.append("\t\tb[i] = (uint8_t)(raw >> (8 * i));")
            if w.size < 8:
                o.append("\tif (raw >> %d)\n\t\treturn false;" % (8 * w.size))
            o.append("\treturn %s_unpack(b, v);\n}\n" % n)
        # print
        o.append("static inline void %s_print(FILE *fp, const struct %s *v)\n{" % (n, n))
        o.append('\tfprintf(fp, "%s");' % w.name)
        for f in free:
            nm = f["name"]
            if f["type"] == "int":
                o.append('\tfprintf(fp, " %s=%%" PRId64, v->%s);' % (nm, nm))
            elif f["type"] == "float":
                o.append('\tfprintf(fp, " %s=%%g", (double)v->%s);' % (nm, nm))
            elif f["type"] == "bool":
                o.append('\tfprintf(fp, " %s=%%s", v->%s ? "true" : "false");' % (nm, nm))
            elif f["type"] in ("hex", "address"):
                o.append('\tfprintf(fp, " %s=0x%%" PRIx64, v->%s);' % (nm, nm))
            elif f["type"].startswith("enum:"):
                en = "%s_%s" % (prefix, f["type"][5:])
                o.append('\tif (%s_name(v->%s))\n\t\tfprintf(fp, " %s=%%s", %s_name(v->%s));'
                         % (en, nm, nm, en, nm))
                o.append('\telse\n\t\tfprintf(fp, " %s=%%" PRIu64, v->%s);' % (nm, nm))
            else:
                o.append('\tfprintf(fp, " %s=%%" PRIu64, v->%s);' % (nm, nm))
        if not free:
            o.append("\t(void)v;")
        o.append('\tfputc(\'\\n\', fp);\n}\n')
    o.append("#endif")
    with open(out, "w") as fp:
        fp.write("\n".join(o) + "\n")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    prefix, enums, words = read(sys.argv[1])
    emit(prefix, enums, words, sys.argv[2], sys.argv[1].split("/")[-1])


if __name__ == "__main__":
    main()
