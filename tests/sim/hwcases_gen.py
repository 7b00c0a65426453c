"""hwcases_gen: the hardware-checked cases, generated.

dougallj/applegpu's hwtest.py ran a set of G13 encodings on a real M1 and
compared the registers with applegpu's emulator.  This module produces the
same encodings from the public facts: the same base instruction of each
family, the same fields varied over the same values, each field at the bit
positions applegpu's instruction descriptors give (applegpu.py).  The code
here is ours; only the facts (base words, field positions, value lists) are
theirs.

A case is a dict: "id" (family and field values, stable so that a list of
known failures can name it), "family", "instrs" (a list of (format, word)
pairs, format naming the layout below) and "state" (the initial registers,
a name in STATES).
"""

import random

# --- field layouts -----------------------------------------------------------
#
# A layout maps applegpu's field names to their parts, (first bit, width), low
# part first.  Sizes are (short, long) in bytes; an instruction with two sizes
# has its length bit at 15 and uses the long form when any bit past the short
# one is set (applegpu's patch_raw_fields does the same).


def _dst(name, ex):
    # ALUDstDesc: value at 9:6 plus two high bits, type (size, cache) at 7:2
    return {name: [(9, 6), (ex, 2)], name + 't': [(7, 2)]}


def _src(name, off, ex, tbits=4, sx=False, mod=False):
    # ALUSrcDesc: value at off:6 plus two high bits, type right after it;
    # sign extension (MulSrc/AddSrc) at off+10, float modifier after the type
    f = {name: [(off, 6), (ex, 2)], name + 't': [(off + 6, tbits)]}
    if sx:
        f[name + 's'] = [(off + 10, 1)]
    if mod:
        f[name + 'm'] = [(off + 6 + tbits, 2)]
    return f


def _merge(*parts, **single):
    out = {}
    for p in parts:
        out.update(p)
    for k, v in single.items():
        out[k] = [v]
    return out


_SHIFT = [(39, 1), (52, 2)]

LAYOUTS = {
    'bitop': ((6, 6), _merge(_dst('D', 44), _src('A', 16, 42), _src('B', 28, 40),
                             tt0=(26, 1), tt1=(27, 1), tt2=(38, 1), tt3=(39, 1))),
    'iadd': ((8, 8), _merge(_dst('D', 44), _src('A', 16, 42, sx=True),
                            _src('B', 28, 40, sx=True), {'s': _SHIFT},
                            S=(6, 1), N=(27, 1))),
    'imadd': ((8, 8), _merge(_dst('D', 60), _src('A', 16, 58, sx=True),
                             _src('B', 28, 56, sx=True), _src('C', 40, 54, sx=True),
                             {'s': _SHIFT}, S=(6, 1), N=(27, 1))),
    'fmadd': ((6, 8), _merge(_dst('D', 60), _src('A', 16, 58, mod=True),
                             _src('B', 28, 56, mod=True), _src('C', 40, 54, mod=True),
                             S=(6, 1))),
    'fmadd16': ((6, 8), _merge(_dst('D', 60), _src('A', 16, 58, 3, mod=True),
                               _src('B', 28, 56, 3, mod=True),
                               _src('C', 40, 54, 3, mod=True), S=(6, 1))),
    # fadd and fmul: applegpu describes only the 6-byte form (bit 15 set)
    'fbinary': ((6, 6), _merge(_dst('D', 44), _src('A', 16, 42, mod=True),
                               _src('B', 28, 40, mod=True), S=(6, 1))),
    # the 0x2E family as hwtest.py's own descriptor has it: the operation in
    # bit 15 (i0) and bits 26..27 (i1), three sources and a mask
    'shift': ((8, 8), _merge(_dst('D', 60), _src('A', 16, 58), _src('B', 28, 56),
                             _src('C', 40, 54), {'m': [(38, 2), (50, 2), (63, 1)]},
                             i0=(15, 1), i1=(26, 2))),
    'iunary': ((6, 6), _merge(_dst('D', 44), _src('A', 16, 42), op=(26, 2))),
    'icmp_ballot': ((8, 8), _merge(_dst('D', 44), _src('A', 16, 42), _src('B', 28, 40),
                                   cc=(61, 3), ccn=(47, 1))),
    'simd_shuffle': ((6, 6), _merge(_dst('D', 44), _src('A', 16, 42), _src('B', 28, 40),
                                    op=(38, 2))),
    # if_icmp / else_icmp / while_icmp: the operation in bits 9..10
    'icmp_exec': ((6, 6), _merge(_src('A', 16, 42), _src('B', 28, 40), op=(9, 2),
                                 n=(11, 2), cc=(13, 3), ccn=(8, 1), Dt=(7, 1))),
    'pop_exec': ((6, 6), {'n': [(11, 2)]}),
    'icmpsel': ((8, 10), _merge(_dst('D', 76), _src('A', 16, 74), _src('B', 28, 72),
                                _src('X', 40, 70, 3), _src('Y', 52, 68, 3), cc=(61, 3))),
    'fcmpsel': ((8, 10), _merge(_dst('D', 76), _src('A', 16, 74, mod=True),
                                _src('B', 28, 72, mod=True), _src('X', 40, 70, 3),
                                _src('Y', 52, 68, 3), cc=(61, 3))),
    'mov_imm32': ((6, 6), _merge({'D': [(9, 6), (60, 2)], 'Dt': [(7, 2)]},
                                 imm=(16, 32))),
    'get_sr': ((4, 4), _merge({'D': [(9, 6), (28, 2)], 'Dt': [(7, 2)]},
                              {'SR': [(16, 6), (26, 2)]})),
}


def word(hexstr):
    """A little-endian instruction word from its bytes in hex."""
    return int.from_bytes(bytes.fromhex(hexstr), 'little')


def get_field(fmt, n, name):
    value, shift = 0, 0
    for start, width in LAYOUTS[fmt][1][name]:
        value |= ((n >> start) & ((1 << width) - 1)) << shift
        shift += width
    return value


def fields(fmt, n):
    return {name: get_field(fmt, n, name) for name in LAYOUTS[fmt][1]}


def patch(fmt, word_, **values):
    """Sets the named fields of a word, then picks the instruction's length."""
    n = word_
    (short, long_), layout = LAYOUTS[fmt]
    for name, value in values.items():
        shift = 0
        for start, width in layout[name]:
            mask = (1 << width) - 1
            n = (n & ~(mask << start)) | (((value >> shift) & mask) << start)
            shift += width
        assert value >> shift == 0, (fmt, name, value)
    if short != long_:
        n &= ~(1 << 15)
        if n >> (8 * short):
            n |= 1 << 15
    return n


def size(fmt, n):
    short, long_ = LAYOUTS[fmt][0]
    return long_ if short != long_ and (n >> 15) & 1 else short


def encode(instrs):
    return b''.join(n.to_bytes(size(f, n), 'little') for f, n in instrs)


# --- the setting -------------------------------------------------------------

# hwtest.py's prologue, as machine code: get_sr r8, sr80; device_load of r0-r3
# from u0_u1 and of r4-r7 from u2_u3, each at r8 << 2 words; wait 0.
PROLOGUE = bytes.fromhex('72211004' '0501000e01c8f200' '0521040e01c8f200' '3800')
STOP = bytes.fromhex('8800')


def mov_imm(reg, value):
    """mov_imm rREG, VALUE (32-bit)."""
    return ('mov_imm32', patch('mov_imm32', 0x162, D=reg << 1, imm=value))


def program(case):
    """The whole program of a case, and where the case's own bytes are."""
    zero = encode([mov_imm(r, 0) for r in range(9, 32)])
    body = encode(case['instrs'])
    begin = len(PROLOGUE) + len(zero)
    return PROLOGUE + zero + body + STOP, begin, begin + len(body)


# --- initial registers -------------------------------------------------------
#
# Our own values: a fixed-seed generator gives r0..r7 of each lane; a few
# families need some registers in a known state (lane ids to compare with,
# zeros, small values for the edge cases of ffs), as hwtest.py set them.

LANES = 32


def _random_state(seed):
    rng = random.Random(seed)
    return [[rng.getrandbits(32) for _ in range(LANES)] for _ in range(8)]


def _states():
    base = _random_state(0x48575453)
    lane_ids = list(range(LANES))
    zeros = [0] * LANES

    def with_regs(**regs):
        st = [list(r) for r in base]
        for name, values in regs.items():
            st[int(name[1:])] = list(values)
        return st

    r3_lane0_zero = [0] + base[3][1:]
    return {
        'random': base,
        # simd_shuffle: r0 (the execution-mask counter) zero, r1 the lane id,
        # r2 the indices (overwritten by the case) or lane 1 holding 1
        'shuffle': with_regs(r0=zeros, r1=lane_ids, r3=r3_lane0_zero),
        'shuffle_lane1': with_regs(r0=zeros, r1=lane_ids, r2=[0, 1] + [0] * 30,
                                   r3=r3_lane0_zero),
        'exec': with_regs(r0=zeros, r1=lane_ids, r3=r3_lane0_zero),
        # ffs of 0, 1 and 2 in lanes 0..2
        'ffs': with_regs(r2=[0, 1, 2] + base[2][3:]),
    }


STATES = _states()


# --- the families ------------------------------------------------------------

def _case(family, fid, instrs, state='random'):
    return {'id': family + ':' + fid, 'family': family, 'instrs': instrs, 'state': state}


def _kv(**kw):
    return ','.join('%s=%d' % (k, v) for k, v in kw.items())


def gen_bitop():
    n = word('7e2d50ee6405') | (1 << 47) | (1 << 46)
    for Dt in [2, 0]:
        for At in [1, 9, 0xD]:
            for Bt in [1, 9, 0xD]:
                for tt in range(16):
                    tts = {'tt%d' % i: (tt >> i) & 1 for i in range(4)}
                    w = patch('bitop', n, Dt=Dt, At=At, Bt=Bt, D=3 << 1, A=1 << 1,
                              B=2 << 1, **tts)
                    yield _case('bitop', _kv(Dt=Dt, At=At, Bt=Bt, tt=tt), [('bitop', w)])


def gen_iadd():
    n = word('0e2d46c224002000')
    types = [(0, 9, 9), (2, 0xD, 1), (2, 9, 9), (2, 9, 0xD), (2, 0xD, 0xD),
             (2, 1, 1), (2, 9, 1), (2, 1, 9)]
    for S in range(2):
        for N in range(2):
            for Dt, At, Bt in types:
                for As, Bs in [(0, 0), (0, 1), (1, 0), (1, 1)]:
                    for s in range(8):
                        for d_or in ([0, 1] if Dt == 2 else [0]):
                            D = (6 << 1) | d_or
                            w = patch('iadd', n, S=S, N=N, Dt=Dt, At=At, Bt=Bt, As=As,
                                      Bs=Bs, s=s, D=D, A=2 << 1, B=4 << 1)
                            yield _case('iadd', _kv(S=S, N=N, Dt=Dt, At=At, Bt=Bt, As=As,
                                                    Bs=Bs, s=s, D=D), [('iadd', w)])


def gen_imadd():
    n = word('1e2c4fe804504005')
    types = [(2, 0xD, 0xD, 0xD), (2, 9, 0xD, 0xD), (2, 0xD, 1, 9), (2, 9, 9, 9),
             (2, 1, 1, 1), (2, 9, 1, 1), (2, 0xD, 9, 0xD)]
    for S in [0, 1]:
        for N in range(2):
            for Dt, At, Bt, Ct in types:
                # hwtest.py walks three sign bits but sets only As and Bs;
                # Cs keeps the base word's value
                for As, Bs in [(0, 0), (1, 0), (0, 1), (1, 1)]:
                    for s in range(8):
                        for d_or in [0, 1]:
                            D = (6 << 1) | d_or
                            w = patch('imadd', n, S=S, N=N, Dt=Dt, At=At, Bt=Bt, Ct=Ct,
                                      As=As, Bs=Bs, s=s, D=D, A=0, B=2 << 1, C=4 << 1)
                            yield _case('imadd', _kv(S=S, N=N, Dt=Dt, At=At, Bt=Bt, Ct=Ct,
                                                     As=As, Bs=Bs, s=s, D=D),
                                        [('imadd', w)])


def gen_fmadd():
    n = word('3aad5ca2255e0200')
    for sizes in range(8):
        Dt = 2 if sizes & 1 else 0
        At = 9 if sizes & 2 else 1
        Ct = 9 if sizes & 4 else 1
        for Bt in [0, 1, 9]:
            for Bm in range(4):
                for S in [1, 0]:
                    w = patch('fmadd', n, Dt=Dt, At=At, Bt=Bt, Ct=Ct, Bm=Bm, D=6 << 1,
                              A=0, B=2 << 1, C=4 << 1, S=S)
                    yield _case('fmadd', _kv(Dt=Dt, At=At, Bt=Bt, Ct=Ct, Bm=Bm, S=S),
                                [('fmadd', w)])


def _gen_fbinary(family, base):
    n = word(base)
    for sizes in range(4):
        Dt = 2 if sizes & 1 else 0
        At = 9 if sizes & 2 else 1
        for Bt in [0, 1, 9]:
            for Bm in range(4):
                for S in [1, 0]:
                    w = patch('fbinary', n, Dt=Dt, At=At, Bt=Bt, Bm=Bm, D=6 << 1, A=0,
                              B=2 << 1, S=S)
                    yield _case(family, _kv(Dt=Dt, At=At, Bt=Bt, Bm=Bm, S=S),
                                [('fbinary', w)])


def gen_fadd():
    return _gen_fbinary('fadd', '2aad5ec22500')


def gen_fmul():
    return _gen_fbinary('fmul', '1aad5ec22500')


def gen_fmadd16():
    n = word('362c5dc0055e')
    for Dt in [2, 0]:
        for Am in range(4):
            for Bm in range(4):
                for Cm in range(4):
                    for S in [1, 0]:
                        w = patch('fmadd16', n, Dt=Dt, At=1, Bt=1, Ct=1, Am=Am, Bm=Bm,
                                  Cm=Cm, D=6 << 1, A=0, B=2 << 1, C=4 << 1, S=S)
                        yield _case('fmadd16', _kv(Dt=Dt, Am=Am, Bm=Bm, Cm=Cm, S=S),
                                    [('fmadd16', w)])


def gen_shift():
    n = word('2e2d00c025460000')
    for i in range(64):
        i0, i1, m = i & 1, (i >> 1) & 3, (i >> 3) * 4
        if (i0, i1) == (0, 3):
            continue
        for Dt in [2, 0]:
            for At in [9, 1, 0]:
                for Bt in [9, 1, 0]:
                    for Ct in [9, 1, 0]:
                        w = patch('shift', n, i0=i0, i1=i1, m=m, Dt=Dt, At=At, Bt=Bt,
                                  Ct=Ct, D=6 << 1, A=0, B=2 << 1, C=4 << 1)
                        yield _case('shift', _kv(i0=i0, i1=i1, m=m, Dt=Dt, At=At, Bt=Bt,
                                                 Ct=Ct), [('shift', w)])


def gen_icmp_ballot():
    base = word('322d602226800180')
    for cc in [0b000, 0b001, 0b010, 0b100, 0b101, 0b110]:
        # hwtest.py grows one program per condition: each case runs the
        # ballots before it too (all write r6)
        instrs = [mov_imm(0, 0)]
        for At in [1, 9]:
            for Bt in [1, 9]:
                w = patch('icmp_ballot', base, A=1 << 1, B=3 << 1, At=At, Bt=Bt, D=6 << 1,
                          ccn=1, cc=cc)
                instrs = instrs + [('icmp_ballot', w)]
                yield _case('icmp_ballot', _kv(cc=cc, At=At, Bt=Bt), instrs)


SHUFFLE_DOWN = word('6f2c5614c000')


def gen_simd_shuffle_down():
    for B in range(32):
        w = patch('simd_shuffle', SHUFFLE_DOWN, A=5 << 1, D=6 << 1, B=B)
        yield _case('simd_shuffle_down', _kv(B=B), [('simd_shuffle', w)])


def pop_exec(count):
    return ('pop_exec', patch('pop_exec', word('520e00000000'), n=count))


def icmp_exec(value, count, op, equal):
    """if/else/while_icmp comparing r1 with an immediate (ueq or its negation)."""
    w = patch('icmp_exec', word('52885a020000'), cc=0, ccn=0 if equal else 1, A=1 << 1,
              At=9, Bt=0, B=value, n=count, op=op)
    return ('icmp_exec', w)


def gen_simd_shuffle():
    shuffle = patch('simd_shuffle', word('6f2d56160000'), D=6 << 1, Dt=2, A=1 << 1,
                    B=2 << 1, Bt=1)
    yield _case('simd_shuffle', 'all', [mov_imm(2, 0), ('simd_shuffle', shuffle)], 'shuffle')
    yield _case('simd_shuffle', 'lane1_off',
                [icmp_exec(1, 1, 0, False), mov_imm(2, 0), ('simd_shuffle', shuffle),
                 pop_exec(1)], 'shuffle_lane1')


def move_to_lane(lane, value):
    """r0 = value in the lane whose r1 is lane (icmpsel), r0 elsewhere."""
    w = patch('icmpsel', word('122d583200096185'), Y=0, D=0, A=1 << 1, B=lane, X=value)
    return ('icmpsel', w)


def or_imm(reg, imm):
    """rREG |= imm, through r5."""
    w = patch('bitop', word('7e2d582ac000'), A=reg << 1, D=reg << 1, Bt=9, B=5 << 1)
    return [mov_imm(5, imm), ('bitop', w)]


def gen_exec_ops():
    down = patch('simd_shuffle', SHUFFLE_DOWN, A=0, D=6 << 1)
    for op in range(3):
        for eq in (True, False):
            for nnn in range(4):
                for i in range(14):
                    instrs = [mov_imm(0, 0)]
                    for k, lane in enumerate(range(1, 10, 2)):
                        instrs.append(move_to_lane(lane, k))
                    instrs += [mov_imm(4, 0), mov_imm(6, 0)]
                    bit = 1
                    instrs += or_imm(4, bit)
                    instrs.append(icmp_exec(i, nnn, op, eq))
                    bit <<= 1
                    instrs += or_imm(4, bit)
                    instrs.append(('simd_shuffle', down))
                    # record in r4 which lanes run after each of 20 pops
                    for _ in range(20):
                        instrs.append(pop_exec(1))
                        bit <<= 1
                        if bit < (1 << 32):
                            instrs += or_imm(4, bit)
                    yield _case('exec_ops', _kv(op=op, eq=int(eq), n=nnn, i=i), instrs,
                                'exec')


def gen_fcmpsel():
    for cc in [0, 1, 2, 5, 6]:
        w = patch('fcmpsel', word('022d568225034130'), D=6 << 1, A=2 << 1, B=4 << 1, cc=cc)
        yield _case('fcmpsel', _kv(cc=cc), [('fcmpsel', w)])


def _gen_iunary(family, base, state='random'):
    n = word(base)
    for Dt in [0, 2]:
        for d_or in [0, 1]:
            for At in [0, 1, 9, 0xD]:
                D = (6 << 1) | d_or
                w = patch('iunary', n, D=D, A=2 << 1, Dt=Dt, At=At)
                yield _case(family, _kv(Dt=Dt, D=D, At=At), [('iunary', w)], state)


def gen_popcount():
    # hwtest.py builds these but never runs them: not hardware-checked
    return _gen_iunary('popcount', '3e2d4e0a0004')


def gen_bitrev():
    return _gen_iunary('bitrev', '3e2d4e060004')


def gen_ffs():
    return _gen_iunary('ffs', 'be0d960e0000', 'ffs')


def _mov_uniform(dst, dst_t, uni, uni_t):
    # "mov" is bitop with truth table 0101 and B the immediate 0
    w = patch('bitop', 0x7e, tt0=0, tt1=1, tt2=0, tt3=1, D=dst, Dt=dst_t, A=uni & 0xff,
              At=uni_t | (uni >> 8), B=0, Bt=0)
    return ('bitop', w)


def gen_uniforms():
    # mov r0..r2, u20..u22 (32-bit uniforms: type 0b0110, value in halves)
    yield _case('uniforms', 'mov32',
                [_mov_uniform(i << 1, 2, (i + 20) << 1, 0b0110) for i in range(3)])
    # mov r0h..r2h, u20l..u22l
    yield _case('uniforms', 'mov16',
                [_mov_uniform((i << 1) | 1, 0, (i + 20) << 1, 0b0100) for i in range(3)])


def gen_sr80():
    yield _case('sr80', 'r0', [('get_sr', patch('get_sr', 0x72, D=0, Dt=2, SR=80))])


FAMILIES = [
    ('uniforms', gen_uniforms), ('sr80', gen_sr80), ('bitop', gen_bitop),
    ('iadd', gen_iadd), ('imadd', gen_imadd), ('fmadd', gen_fmadd), ('fadd', gen_fadd),
    ('fmul', gen_fmul), ('fmadd16', gen_fmadd16), ('shift', gen_shift),
    ('exec_ops', gen_exec_ops), ('simd_shuffle_down', gen_simd_shuffle_down),
    ('simd_shuffle', gen_simd_shuffle), ('icmp_ballot', gen_icmp_ballot),
    ('fcmpsel', gen_fcmpsel), ('popcount', gen_popcount), ('bitrev', gen_bitrev),
    ('ffs', gen_ffs),
]


def cases(only=None):
    """Every case, once: hwtest.py's loops repeat some encodings."""
    seen = set()
    for name, gen in FAMILIES:
        if only and name not in only:
            continue
        for c in gen():
            if c['id'] in seen:
                continue
            seen.add(c['id'])
            yield c
