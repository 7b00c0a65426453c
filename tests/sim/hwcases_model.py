"""hwcases_model: the registers each hardware-checked case should leave.

Written from applegpu's published semantics (applegpu.py: operand decoding
and each instruction's exec, which hwtest.py found to match an M1; fma.py:
the float unit), independently of agx-sim's USC core.  Integers are Python
integers (no width to overflow until a register is written); floats are
exact rationals (fractions.Fraction) rounded once into the destination's
format.  The rules, each with its source, are listed in docs/isa.md under
"Hardware-checked cases".
"""

from fractions import Fraction

from hwcases_gen import LANES, fields

# --- register file -----------------------------------------------------------


class Machine:
    """r0..r31 as 16-bit halves, the uniforms the setting defines, the mask."""

    def __init__(self, regs):
        self.h = [[0] * LANES for _ in range(64)]
        for r in range(8):
            for l in range(LANES):
                self.set32(r, l, regs[r][l])
        for l in range(LANES):
            self.set32(8, l, l)  # the prologue's get_sr r8, sr80
        # hwtest.py's harness: threads per grid in u20..u22 (32, 1, 1)
        self.u = [0] * 512
        for i, v in ((20, LANES), (21, 1), (22, 1)):
            self.u[2 * i], self.u[2 * i + 1] = v & 0xffff, v >> 16
        # applegpu's CoreState: every lane executes; the mask changes only
        # through the execution-mask instructions
        self.exec = [True] * LANES

    def get16(self, n, l):
        return self.h[n][l]

    def set16(self, n, l, v):
        self.h[n][l] = v & 0xffff

    def get32(self, n, l):
        return self.h[2 * n][l] | self.h[2 * n + 1][l] << 16

    def set32(self, n, l, v):
        self.set16(2 * n, l, v)
        self.set16(2 * n + 1, l, v >> 16)

    def regs(self):
        return [[self.get32(r, l) for l in range(LANES)] for r in range(8)]


# --- operands (applegpu ALUSrcDesc, ALUDstDesc, CmpselSrcDesc) ----------------


def src(f, name, allow32=True, allow64=False):
    """(kind, number, bits): kind is imm, u16, u32, r16, r32 or r64."""
    t, v = f[name + 't'], f[name]
    if t == 0:
        return ('imm', v, 16)
    if t >> 2 == 0b01:
        v |= (t & 1) << 8
        return ('u32', v >> 1, 32) if t & 2 else ('u16', v, 16)
    if t & 3 == 0:
        raise ValueError('undefined source type %d' % t)
    if allow64 and t >> 2 == 0b11:
        return ('r64', v >> 1, 64)
    if allow32 and t >> 2 in (0b10, 0b11):
        return ('r32', v >> 1, 32)
    return ('r16', v, 16)


def cmpsel_src(f, name):
    t, v = f[name + 't'], f[name]
    wide = f['Dt'] & 2
    if t == 0b100:
        return ('imm', v, 16)
    if t in (0b110, 0b111):
        v |= (t & 1) << 8
        return ('u32', v >> 1, 32) if wide else ('u16', v, 16)
    if t in (0b001, 0b010, 0b011):
        return ('r32', v >> 1, 32) if wide else ('r16', v, 16)
    raise ValueError('undefined select source type %d' % t)


def dst(f, name='D', allow64=False, allow32=True):
    t, v = f[name + 't'], f[name]
    if t & 2 and allow32:
        if allow64 and v & 1:
            return ('r64', v >> 1, 64)
        return ('r32', v >> 1, 32)
    return ('r16', v, 16)


def read(m, op, l):
    kind, n, _ = op
    if kind == 'imm':
        return n
    if kind == 'u16':
        return m.u[n]
    if kind == 'u32':
        return m.u[2 * n] | m.u[2 * n + 1] << 16
    if kind == 'r16':
        return m.get16(n, l)
    if kind == 'r32':
        return m.get32(n, l)
    return m.get32(n, l) | m.get32(n + 1, l) << 32


def write(m, op, l, v):
    kind, n, _ = op
    if kind == 'r16':
        m.set16(n, l, v)
    elif kind == 'r32':
        m.set32(n, l, v)
    else:
        m.set32(n, l, v)
        m.set32(n + 1, l, v >> 32)


def sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def read_sx(m, f, op, name, l):
    """MulSrc/AddSrc: a register sign-extended when its sx bit is set."""
    v = read(m, op, l)
    if f[name + 's'] and op[0] != 'imm':
        v = sext(v, op[2])
    return v


def active(m):
    return [l for l in range(LANES) if m.exec[l]]


# --- integer instructions -----------------------------------------------------


def exec_bitop(m, f):
    a_op, b_op, d = src(f, 'A'), src(f, 'B'), dst(f)
    tt = (f['tt0'], f['tt1'], f['tt2'], f['tt3'])
    for l in active(m):
        a, b = read(m, a_op, l), read(m, b_op, l)
        if tt in ((0, 0, 1, 1), (1, 1, 0, 0)):
            r = a  # applegpu's exec for these two tables (its pseudocode: undefined)
        else:
            r = 0
            for bit, term in zip(tt, (~a & ~b, a & ~b, ~a & b, a & b)):
                if bit:
                    r |= term
        write(m, d, l, r)


def saturate(v, bits, signed):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return min(max(v, lo), hi)


def exec_iadd(m, f):
    a_op, b_op = src(f, 'A', allow64=True), src(f, 'B', allow64=True)
    d = dst(f, allow64=True)
    s = f['s']
    sat = f['S'] and s == 0 and max(a_op[2], b_op[2], d[2]) <= 32
    for l in active(m):
        a, b = read_sx(m, f, a_op, 'A', l), read_sx(m, f, b_op, 'B', l)
        if f['N']:
            b = -b
        # a shift of 5 or more drops the addend (applegpu IAdd)
        r = a + (b << s if s < 5 else 0)
        if sat:
            r = saturate(r, d[2], f['As'] or f['Bs'])
        write(m, d, l, r)


def exec_imadd(m, f):
    a_op, b_op = src(f, 'A'), src(f, 'B')
    c_op, d = src(f, 'C', allow64=True), dst(f, allow64=True)
    s = f['s']
    sat = f['S'] and s == 0 and c_op[2] <= 32 and d[2] <= 32
    for l in active(m):
        a, b = read_sx(m, f, a_op, 'A', l), read_sx(m, f, b_op, 'B', l)
        c = read_sx(m, f, c_op, 'C', l)
        if f['N']:
            c = -c
        r = a * b + (c << s if s < 5 else 0)
        if sat:
            r = saturate(r, d[2], f['As'] or f['Bs'] or f['Cs'])
        write(m, d, l, r)


def _bfi(a, b, c, mask):
    return (a & ~(mask << c)) | ((b & mask) << c)


def _bfeil(a, b, c, mask):
    return (a & ~mask) | ((b >> c) & mask)


def _extr(a, b, c, mask):
    return (((b << 32) | a) >> c) & mask


def _shlhi(a, b, c, mask):
    shifted = mask << max(c - 32, 0)
    return (((b << c) >> 32) & shifted) | (a & ~shifted)


def _shrhi(a, b, c, mask):
    shifted = (mask << 32) >> min(c, 32)
    return (((b << 32) >> c) & shifted) | (a & ~shifted)


# the 0x2E family by (bit 15, bits 26..27); asr and asrh shift A by B and
# have no third source or mask (applegpu's descriptors for them)
SHIFT_OPS = {(0, 0): _bfi, (1, 0): _bfeil, (0, 1): _extr, (0, 2): _shlhi, (1, 2): _shrhi}


def exec_shift(m, f):
    a_op, b_op, d = src(f, 'A'), src(f, 'B'), dst(f)
    op = (f['i0'], f['i1'])
    for l in active(m):
        a, b = read(m, a_op, l), read(m, b_op, l)
        if op == (1, 1):  # asr
            r = sext(a, a_op[2]) >> (b & 0x7f)
        elif op == (1, 3):  # asrh
            r = (sext(a, a_op[2]) << 32) >> (b & 0x7f)
        else:
            c = read(m, src(f, 'C'), l) & 0x7f
            mask = (1 << f['m']) - 1 if f['m'] else 0xffffffff
            r = SHIFT_OPS[op](a, b, c, mask)
        write(m, d, l, r)


def exec_iunary(m, f):
    a_op, d = src(f, 'A'), dst(f)
    for l in active(m):
        a = read(m, a_op, l)
        if f['op'] == 1:  # bitrev: of the low 32 bits
            r = int(format(a & 0xffffffff, '032b')[::-1], 2)
        elif f['op'] == 2:  # popcount
            r = bin(a & 0xffffffff).count('1')
        else:  # ffs: the index of the highest set bit, -1 for none
            r = a.bit_length() - 1
        write(m, d, l, r)


def icompare(a, b, a_bits, b_bits, cc, ccn):
    if cc & 0b100:
        a, b = sext(a, a_bits), sext(b, b_bits)
    r = {0: a == b, 1: a < b, 2: a > b}[cc & 3]
    return r != bool(ccn)


def exec_icmp_ballot(m, f):
    a_op, b_op, d = src(f, 'A'), src(f, 'B'), dst(f)
    ballot = 0
    for l in active(m):
        if icompare(read(m, a_op, l), read(m, b_op, l), a_op[2], b_op[2], f['cc'], f['ccn']):
            ballot |= 1 << l
    for l in active(m):
        write(m, d, l, ballot)


def exec_icmpsel(m, f):
    a_op, b_op, d = src(f, 'A'), src(f, 'B'), dst(f)
    x_op, y_op = cmpsel_src(f, 'X'), cmpsel_src(f, 'Y')
    for l in active(m):
        hit = icompare(read(m, a_op, l), read(m, b_op, l), a_op[2], b_op[2], f['cc'], 0)
        write(m, d, l, read(m, x_op if hit else y_op, l))


def exec_simd_shuffle(m, f):
    a_op, b_op, d = src(f, 'A'), src(f, 'B', allow32=False), dst(f)
    if f['op'] == 0b11:  # simd_shuffle_down: lanes past the end keep their own
        for l in active(m):
            k = read(m, b_op, l)
            src_lane = l + k if l < LANES - k else l
            write(m, d, l, read(m, a_op, src_lane))
        return
    # simd_shuffle: each quad ORs the low two index bits of all its lanes,
    # executing or not, and offers that lane's value (applegpu's exec)
    offered = []
    for q in range(0, LANES, 4):
        idx = 0
        for l in range(q, q + 4):
            idx |= read(m, b_op, l) & 3
        offered.append(read(m, a_op, q + idx))
    for l in active(m):
        k = read(m, b_op, l)
        if k < LANES:
            write(m, d, l, offered[k >> 2])


def exec_icmp_exec(m, f):
    """if_icmp, else_icmp, while_icmp: r0l counts the levels a lane is off."""
    a_op, b_op, n = src(f, 'A'), src(f, 'B'), f['n']
    for l in range(LANES):
        v = m.get16(0, l)
        hit = icompare(read(m, a_op, l), read(m, b_op, l), a_op[2], b_op[2], f['cc'], f['ccn'])
        if f['op'] == 0:
            if v != 0:
                v += n
            elif not hit:
                v = 1
        elif f['op'] == 1:
            if v == 0:
                v = n
            elif v == 1:
                v = 0 if hit else 1
        elif f['op'] == 2:
            if v < n:
                v = 0 if hit else n
        else:
            raise ValueError('pop_exec has its own format')
        m.set16(0, l, v)
    m.exec = [m.get16(0, l) == 0 for l in range(LANES)]


def exec_pop_exec(m, f):
    for l in range(LANES):
        m.set16(0, l, max(0, m.get16(0, l) - f['n']))
    m.exec = [m.get16(0, l) == 0 for l in range(LANES)]


def exec_mov_imm32(m, f):
    d = dst(f)
    for l in active(m):
        write(m, d, l, f['imm'])


def exec_get_sr(m, f):
    assert f['SR'] == 80, 'only sr80 (thread_position_in_grid.x) is modelled'
    d = dst(f)
    for l in active(m):
        write(m, d, l, l)


# --- floats (fma.py) ------------------------------------------------------------
#
# A float value is None (NaN), or (sign, magnitude) with magnitude a Fraction,
# 0 for zero or the string 'inf'.

INF = 'inf'


def float_from_bits(bits, ebits, mbits, ftz):
    sign = bits >> (ebits + mbits) & 1
    e = bits >> mbits & ((1 << ebits) - 1)
    frac = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == (1 << ebits) - 1:
        return None if frac else (sign, INF)
    if e == 0:
        # float32 inputs flush denormals to zero, keeping the sign; half
        # inputs keep them (fma.f32_to_f64 / f16_to_f64 as applegpu calls them)
        if ftz or frac == 0:
            return (sign, Fraction(0))
        return (sign, Fraction(frac, 1 << mbits) * Fraction(2) ** (1 - bias))
    return (sign, Fraction((1 << mbits) | frac, 1 << mbits) * Fraction(2) ** (e - bias))


def float_immediate(v):
    # applegpu decode_float_immediate: sign, 3-bit exponent, 4-bit fraction
    e, frac = (v >> 4) & 7, v & 15
    mag = Fraction(frac, 64) if e == 0 else Fraction(16 + frac) * Fraction(2) ** (e - 7)
    return (v >> 7 & 1, mag)


def float_src(m, f, name, l, op):
    if op[0] == 'imm':
        x = float_immediate(op[1])
    elif op[2] == 16:
        x = float_from_bits(read(m, op, l), 5, 10, ftz=False)
    else:
        x = float_from_bits(read(m, op, l), 8, 23, ftz=True)
    mod = f[name + 'm']
    if x is not None:
        if mod & 1:  # abs
            x = (0, x[1])
        if mod & 2:  # neg
            x = (x[0] ^ 1, x[1])
    return x


def signed(x):
    return -x[1] if x[0] else x[1]


def fma(a, b, c):
    """a * b + c exactly, with fma.py's special cases."""
    if a is None or b is None or c is None:
        return None
    ps = a[0] ^ b[0]
    a_inf, b_inf, c_inf = a[1] == INF, b[1] == INF, c[1] == INF
    if (a_inf and b[1] == 0) or (b_inf and a[1] == 0):
        return None
    if a_inf or b_inf:
        if c_inf and c[0] != ps:
            return None
        return (ps, INF)
    if c_inf:
        return c
    if a[1] == 0 or b[1] == 0:
        if c[1] == 0:
            # zero plus zero: that sign if both agree, else +0
            return (ps, Fraction(0)) if c[0] == ps else (0, Fraction(0))
        return c
    exact = signed(a) * signed(b) + signed(c)
    if exact == 0:
        return (0, Fraction(0))  # an exact cancellation is +0
    return (1 if exact < 0 else 0, abs(exact))


def saturate_float(x):
    # fma.saturate64: NaN and anything negative (-0 too) to +0, above 1 to 1
    if x is None or x[0]:
        return (0, Fraction(0))
    if x[1] == INF or x[1] > 1:
        return (0, Fraction(1))
    return x


def round_to_format(x, ebits, mbits, ftz):
    """Bits of x rounded to nearest even; float32 flushes results below 2^-126."""
    total = 1 + ebits + mbits
    bias = (1 << (ebits - 1)) - 1
    emax = (1 << ebits) - 1
    if x is None:  # the canonical NaN
        return ((emax << mbits) | (1 << (mbits - 1)))
    sign = x[0] << (total - 1)
    mag = x[1]
    if mag == INF:
        return sign | emax << mbits
    if mag == 0:
        return sign
    min_normal = Fraction(2) ** (1 - bias)
    if ftz and mag < min_normal:
        return sign
    e = max(_floor_log2(mag), 1 - bias)  # subnormals share the lowest exponent
    quantum = Fraction(2) ** (e - mbits)
    q, rem = divmod(mag, quantum)
    q = int(q)
    if rem * 2 > quantum or (rem * 2 == quantum and q & 1):
        q += 1
    # q counts quanta of the exponent e: the significand with its leading 1
    # (or the subnormal fraction); a carry to 2^(mbits+1) moves up an exponent
    if q >> (mbits + 1):
        q >>= 1
        e += 1
    biased = e + bias if q >> mbits else 0
    if biased >= emax:
        return sign | emax << mbits
    return sign | biased << mbits | (q & ((1 << mbits) - 1))


def _floor_log2(x):
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    elif Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def float_result(m, f, d, l, x):
    if f['S']:
        x = saturate_float(x)
    if d[2] == 16:
        write(m, d, l, round_to_format(x, 5, 10, ftz=False))
    else:
        write(m, d, l, round_to_format(x, 8, 23, ftz=True))


ONE = (0, Fraction(1))
PLUS_ZERO = (0, Fraction(0))


def _exec_float(m, f, names, combine, half=False):
    ops = [src(f, n) for n in names]
    d = dst(f, allow32=not half)  # fmadd16's destination is always 16-bit
    for l in active(m):
        xs = [float_src(m, f, n, l, op) for n, op in zip(names, ops)]
        float_result(m, f, d, l, combine(*xs))


def exec_fmadd(m, f):
    _exec_float(m, f, 'ABC', fma)


def exec_fmadd16(m, f):
    _exec_float(m, f, 'ABC', fma, half=True)


def exec_fbinary_add(m, f):
    # fadd is fma(a, 1.0, b); fmul is fma(a, b, +0) (applegpu FAdd, FMul)
    _exec_float(m, f, 'AB', lambda a, b: fma(a, ONE, b))


def exec_fbinary_mul(m, f):
    _exec_float(m, f, 'AB', lambda a, b: fma(a, b, PLUS_ZERO))


def fcompare(a, b, cc):
    if a is None or b is None:
        return False  # every comparison with NaN is false

    def key(x):
        return (-1 if x[0] else 1) * (float('inf') if x[1] == INF else x[1])

    ka, kb = key(a), key(b)
    ops = {0: ka == kb, 1: ka < kb, 2: ka > kb, 5: ka >= kb, 6: ka <= kb}
    return ops[cc]


def exec_fcmpsel(m, f):
    a_op, b_op, d = src(f, 'A'), src(f, 'B'), dst(f)
    x_op, y_op = cmpsel_src(f, 'X'), cmpsel_src(f, 'Y')
    for l in active(m):
        a, b = float_src(m, f, 'A', l, a_op), float_src(m, f, 'B', l, b_op)
        write(m, d, l, read(m, x_op if fcompare(a, b, f['cc']) else y_op, l))


# --- cases ---------------------------------------------------------------------

EXEC = {
    'bitop': exec_bitop, 'iadd': exec_iadd, 'imadd': exec_imadd, 'shift': exec_shift,
    'iunary': exec_iunary, 'icmp_ballot': exec_icmp_ballot, 'icmpsel': exec_icmpsel,
    'simd_shuffle': exec_simd_shuffle, 'icmp_exec': exec_icmp_exec,
    'pop_exec': exec_pop_exec, 'mov_imm32': exec_mov_imm32, 'get_sr': exec_get_sr,
    'fmadd': exec_fmadd, 'fmadd16': exec_fmadd16, 'fcmpsel': exec_fcmpsel,
}


def run(case, states):
    """The case's r0..r7 of every lane after it runs, as hwtest.py compares them."""
    m = Machine(states[case['state']])
    for fmt, n in case['instrs']:
        f = fields(fmt, n)
        if fmt == 'fbinary':
            # the opcode tells fadd (0x2a) from fmul (0x1a)
            (exec_fbinary_add if n & 0x3f == 0x2a else exec_fbinary_mul)(m, f)
        else:
            EXEC[fmt](m, f)
    return m.regs()
