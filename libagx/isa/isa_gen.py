#!/usr/bin/env python3
"""isa_gen.py: reads the instruction table (g13.isa) and writes the C table
that libagx's encoder, decoder, disassembler, assembler and the simulator's
decoder are driven by.  It checks the table as it goes: fields and fixed bits
must not overlap, must fit the instruction, and every name must be known.

    isa_gen.py TABLE OUT.c OUT.h
"""
import re
import sys

KINDS = """dst dst64 dst16 dst32 src src64 src16 addsrc mulsrc fsrc fsrc16 cmpsel
icond fcond r0l imm simm branch shift mask tt sr memreg tgreg membase memindex
tgbase tgindex enum varreg vartriple cf cfpersp samplemask texture sampler texureg
coords lod cmpoff atomdst atomsrc gpr32 gpr16 immr16 zsreg pdst pfsrc asynctuple upair opt ignored""".split()
SUBFIELDS = ("value", "type", "mod", "sx", "count")
CLASSES = """mov ialu imul convert falu funary select exec control branch simd
memory varying tile texture""".split()
ALIASES = ("none", "bitop", "push_exec", "else_exec")
MAX_OPERANDS = 16
MAX_PARTS = 4
MAX_BYTES = 12


class TableError(Exception):
    pass


def parse_int(text):
    return int(text, 0)


def parse_bits(text):
    """'9:6,44:2' -> [(9, 6), (44, 2)]"""
    parts = []
    for piece in text.split(","):
        start, width = piece.split(":")
        parts.append((parse_int(start), parse_int(width)))
    if not 1 <= len(parts) <= MAX_PARTS:
        raise TableError("a field has 1 to %d parts: %r" % (MAX_PARTS, text))
    return parts


def mask_of(start, width):
    return ((1 << width) - 1) << start


class Instr:
    def __init__(self, name, attrs, line):
        self.name = name
        self.line = line
        self.alt_name, self.alt_bit = None, -1
        self.sat_bit = -1
        self.length_bit = 15
        self.cls = None
        self.alias = "none"
        self.sizes = None
        self.fixed = []
        self.operands = []
        for key, value in attrs.items():
            if key == "alt":
                self.alt_name, bit = value.split(":")
                self.alt_bit = parse_int(bit)
            elif key == "size":
                sizes = [parse_int(v) for v in value.split(",")]
                self.sizes = (sizes[0], sizes[-1])
            elif key == "lenbit":
                self.length_bit = parse_int(value)
            elif key == "sat":
                self.sat_bit = parse_int(value)
            elif key == "class":
                if value not in CLASSES:
                    raise TableError("unknown class %r" % value)
                self.cls = value
            elif key == "alias":
                if value not in ALIASES:
                    raise TableError("unknown alias rule %r" % value)
                self.alias = value
            else:
                raise TableError("unknown attribute %r" % key)
        if not self.sizes or not self.cls:
            raise TableError("instr %s needs size= and class=" % name)

    def check(self):
        """Fields and fixed bits are disjoint and inside the long size."""
        used = 0
        bits = self.sizes[1] * 8

        def claim(start, width, what):
            nonlocal used
            if start + width > bits:
                raise TableError("%s: %s (%d:%d) is past %d bytes"
                                 % (self.name, what, start, width, self.sizes[1]))
            m = mask_of(start, width)
            if used & m:
                raise TableError("%s: %s (%d:%d) overlaps another field"
                                 % (self.name, what, start, width))
            used |= m

        for start, width, value in self.fixed:
            if value >> width:
                raise TableError("%s: value %#x does not fit %d bits" % (self.name, value, width))
            claim(start, width, "fixed bits")
        for op in self.operands:
            for sub in SUBFIELDS:
                for start, width in op.get(sub, []):
                    claim(start, width, "%s.%s" % (op["name"], sub))
        for bit, what in ((self.alt_bit, "alt"), (self.sat_bit, "sat")):
            if bit >= 0:
                claim(bit, 1, what)
        if self.sizes[0] != self.sizes[1]:
            claim(self.length_bit, 1, "length bit")
        self.covered = used


def read_table(path):
    enums = {}
    instrs = []
    current = None
    for number, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        try:
            if words[0] == "enum":
                items = []
                for item in words[2:]:
                    value, name = item.split("=")
                    items.append((parse_int(value), name))
                enums[words[1]] = items
            elif words[0] == "instr":
                attrs = dict(w.split("=", 1) for w in words[2:])
                current = Instr(words[1], attrs, number)
                instrs.append(current)
            elif current is None:
                raise TableError("%r outside an instr block" % words[0])
            elif words[0] == "fixed":
                for item in words[1:]:
                    field, value = item.split("=")
                    start, width = field.split(":")
                    current.fixed.append((parse_int(start), parse_int(width), parse_int(value)))
            else:
                op = {"name": words[0], "kind": words[1]}
                if op["kind"] not in KINDS:
                    raise TableError("unknown operand kind %r" % op["kind"])
                for item in words[2:]:
                    key, value = item.split("=", 1)
                    if key in SUBFIELDS:
                        op[key] = parse_bits(value)
                    elif key == "enum":
                        if value not in enums:
                            raise TableError("unknown enum %r" % value)
                        op["enum"] = value
                    else:
                        raise TableError("unknown operand attribute %r" % key)
                if len(current.operands) == MAX_OPERANDS:
                    raise TableError("more than %d operands" % MAX_OPERANDS)
                current.operands.append(op)
        except (TableError, ValueError) as e:
            raise SystemExit("%s:%d: %s" % (path, number, e))
    for instr in instrs:
        try:
            instr.check()
        except TableError as e:
            raise SystemExit("%s:%d: %s" % (path, instr.line, e))
    return enums, instrs


def c_bits(parts):
    if not parts:
        return "{ 0 }"
    inner = ", ".join("{ %d, %d }" % p for p in parts)
    return "{ %d, { %s } }" % (len(parts), inner)


def u128(value):
    return "{ 0x%016xull, 0x%016xull }" % (value & ((1 << 64) - 1), value >> 64)


def write_c(enums, instrs, out_c, out_h, table):
    guard = "AGX_ISA_TABLE_H"
    ops = []
    seen = {}
    for instr in instrs:
        base = "AGX_OP_" + instr.name.upper().replace(".", "_")
        n = seen.get(base, 0)
        seen[base] = n + 1
        ops.append(base if n == 0 else "%s_%d" % (base, n))

    with open(out_h, "w") as h:
        h.write("/* Generated by isa_gen.py from %s: do not edit. */\n" % table)
        h.write("#ifndef %s\n#define %s\n\n" % (guard, guard))
        h.write("enum agx_op {\n")
        for op in ops:
            h.write("\t%s,\n" % op)
        h.write("\tAGX_NUM_OPS\n};\n\n")
        # every operand enum as C names, with its text for the assembler
        for name, items in enums.items():
            cname = name.upper()
            h.write("enum agx_isa_%s {\n" % name)
            for value, text in items:
                h.write("\tAGX_ISA_%s_%s = %d,\n" % (cname, text.upper().replace(".", "_"), value))
            h.write("};\n\n")
            h.write("/* The assembler's text of a value; NULL for none. */\n")
            h.write("static inline const char *agx_isa_%s_name(unsigned v)\n{\n\tswitch (v) {\n" % name)
            for value, text in items:
                h.write('\tcase %d:\n\t\treturn "%s";\n' % (value, text))
            h.write("\tdefault:\n\t\treturn 0;\n\t}\n}\n\n")
        h.write("#endif\n")

    with open(out_c, "w") as c:
        c.write("/* Generated by isa_gen.py from %s: do not edit. */\n" % table)
        c.write('#include "agx/isa.h"\n\n')
        for name, items in enums.items():
            c.write("static const struct agx_isa_enum_item enum_%s_items[] = {\n" % name)
            for value, text in items:
                c.write('\t{ %d, "%s" },\n' % (value, text))
            c.write("};\n")
            c.write("static const struct agx_isa_enum enum_%s = { \"%s\", %d, enum_%s_items };\n\n"
                    % (name, name, len(items), name))
        c.write("const struct agx_isa_desc agx_isa_table[AGX_NUM_OPS] = {\n")
        for op, instr in zip(ops, instrs):
            mask = bits = 0
            for start, width, value in instr.fixed:
                mask |= mask_of(start, width)
                bits |= value << start
            c.write("\t[%s] = {\n" % op)
            c.write('\t\t.name = "%s",\n' % instr.name)
            if instr.alt_name:
                c.write('\t\t.alt_name = "%s",\n' % instr.alt_name)
            c.write("\t\t.op = %s,\n" % op)
            c.write("\t\t.size_short = %d,\n\t\t.size_long = %d,\n" % instr.sizes)
            c.write("\t\t.length_bit = %d,\n" % instr.length_bit)
            c.write("\t\t.alt_bit = %d,\n\t\t.sat_bit = %d,\n" % (instr.alt_bit, instr.sat_bit))
            c.write("\t\t.mask = %s,\n\t\t.bits = %s,\n" % (u128(mask), u128(bits)))
            c.write("\t\t.covered = %s,\n" % u128(instr.covered))
            c.write("\t\t.cls = AGX_CLASS_%s,\n" % instr.cls.upper())
            c.write("\t\t.alias = AGX_ALIAS_%s,\n" % instr.alias.upper())
            c.write("\t\t.num_operands = %d,\n" % len(instr.operands))
            c.write("\t\t.operands = {\n")
            for o in instr.operands:
                c.write('\t\t\t{ .name = "%s", .kind = AGX_KIND_%s' % (o["name"], o["kind"].upper()))
                for sub in SUBFIELDS:
                    if sub in o:
                        c.write(", .%s = %s" % (sub, c_bits(o[sub])))
                if "enum" in o:
                    c.write(", .enumeration = &enum_%s" % o["enum"])
                c.write(" },\n")
            c.write("\t\t},\n\t},\n")
        c.write("};\n")


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    enums, instrs = read_table(sys.argv[1])
    write_c(enums, instrs, sys.argv[2], sys.argv[3], sys.argv[1].split("/")[-1])


if __name__ == "__main__":
    main()
