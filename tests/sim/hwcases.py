#!/usr/bin/env python3
"""hwcases: the hardware-checked cases of dougallj/applegpu's hwtest.py, run
on agx-sim's USC core (hwcases-run) and compared with our reference model.

Every case is generated (hwcases_gen), its expected r0..r7 of all 32 lanes
computed (hwcases_model), the whole set run in one hwcases-run process, and
the results compared.  A checked-in list names the cases expected to fail,
one id a line with a short reason; the test fails on a failure the list does
not name and on a listed case that passes, so the list stays exact.
--update-known rewrites the list from the current results.

  hwcases.py --runner hwcases-run --disasm agx-disasm --known LIST
             [--update-known] [--family NAME ...] [--show N]
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hwcases_gen as gen  # noqa: E402
import hwcases_model as model  # noqa: E402

STATUS = ['DONE', 'FAULT', 'LIMIT', 'BAD_INSTR', 'BAD_BRANCH', 'TRAP', 'BARRIER']


def state_line(idx, regs):
    return 'S %d %s\n' % (idx, ''.join('%08x' % v for r in regs for v in r))


def run_all(runner, cases):
    """Runs every case; returns (status, unknown, regs) per case, in order."""
    names = sorted(gen.STATES)
    lines = [state_line(i, gen.STATES[n]) for i, n in enumerate(names)]
    for c in cases:
        code, begin, end = gen.program(c)
        lines.append('P %d %d %d %s\n' % (names.index(c['state']), begin, end, code.hex()))
    out = subprocess.run([runner], input=''.join(lines), capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert len(out) == len(cases), 'runner gave %d results for %d cases' % (len(out), len(cases))
    results = []
    for line in out:
        status, unknown, hexregs = line.split()
        words = [int(hexregs[i:i + 8], 16) for i in range(0, len(hexregs), 8)]
        regs = [words[r * gen.LANES:(r + 1) * gen.LANES] for r in range(8)]
        results.append((int(status), int(unknown), regs))
    return results


def first_difference(expected, got):
    for r in range(8):
        for l in range(gen.LANES):
            if expected[r][l] != got[r][l]:
                return r, l
    return None


def reason(result, expected):
    status, unknown, got = result
    if unknown:
        return 'decoder: unknown encoding'
    if status:
        return 'stops with USC_%s' % STATUS[status]
    r, l = first_difference(expected, got)
    return 'r%d lane %d: expected 0x%08x, got 0x%08x' % (r, l, expected[r][l], got[r][l])


def disassemble(disasm, code):
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(code)
        f.flush()
        return subprocess.run([disasm, f.name], capture_output=True, text=True).stdout


def show_failure(disasm, case, result, expected):
    status, unknown, got = result
    code, begin, end = gen.program(case)
    print('FAIL %s (%s)' % (case['id'], reason(result, expected)))
    print('  case bytes: %s' % code[begin:end].hex())
    for line in disassemble(disasm, code[begin:end]).splitlines():
        print('    ' + line)
    print('  status %s, initial registers "%s"' % (STATUS[status], case['state']))
    diff = first_difference(expected, got)
    if diff:
        r, l = diff
        print('  first difference: r%d lane %d: expected 0x%08x, got 0x%08x'
              % (r, l, expected[r][l], got[r][l]))


def read_known(path):
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith('#'):
                    cid, _, why = line.partition(' ')
                    known[cid] = why.strip()
    return known


def write_known(path, failures, old):
    with open(path, 'w') as f:
        f.write('# Hardware-checked cases (tests/sim/hwcases.py) that agx-sim gets wrong today:\n'
                '# one case id a line and why.  Regenerate with hwcases.py --update-known.\n')
        for cid, why in failures:
            f.write('%s %s\n' % (cid, old.get(cid) or why))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--runner', required=True)
    ap.add_argument('--disasm', required=True)
    ap.add_argument('--known', required=True)
    ap.add_argument('--update-known', action='store_true')
    ap.add_argument('--family', action='append')
    ap.add_argument('--show', type=int, default=10, help='failures to print in full')
    args = ap.parse_args()

    cases = list(gen.cases(args.family))
    expected = [model.run(c, gen.STATES) for c in cases]
    results = run_all(args.runner, cases)
    known = read_known(args.known)

    counts = collections.OrderedDict()
    failures, unexpected, fixed = [], [], []
    for c, exp, res in zip(cases, expected, results):
        k = counts.setdefault(c['family'], collections.Counter())
        k['cases'] += 1
        k['unknown'] += res[1]
        ok = res[0] == 0 and not res[1] and res[2] == exp
        if ok:
            k['pass'] += 1
            if c['id'] in known:
                fixed.append(c['id'])
        else:
            failures.append((c['id'], reason(res, exp)))
            if c['id'] in known:
                k['known'] += 1
            else:
                k['new'] += 1
                unexpected.append((c, res, exp))

    print('%-18s %6s %6s %6s %6s %8s' % ('family', 'cases', 'pass', 'known', 'new', 'unknown'))
    for fam, k in counts.items():
        print('%-18s %6d %6d %6d %6d %8d' % (fam, k['cases'], k['pass'], k['known'], k['new'],
                                            k['unknown']))
    total = sum((k for k in counts.values()), collections.Counter())
    print('%-18s %6d %6d %6d %6d %8d' % ('total', total['cases'], total['pass'], total['known'],
                                        total['new'], total['unknown']))
    print('%d cases listed as known failures in %s' % (len(known), args.known))

    if args.update_known:
        if args.family:
            sys.exit('--update-known rewrites the whole list: run it without --family')
        write_known(args.known, failures, known)
        print('wrote %d known failures' % len(failures))
        return 0

    for c, res, exp in unexpected[:args.show]:
        show_failure(args.disasm, c, res, exp)
    if len(unexpected) > args.show:
        print('... and %d more unexpected failures' % (len(unexpected) - args.show))
    for cid in fixed:
        print('PASSES BUT LISTED: %s (remove it from the list)' % cid)
    if unexpected or fixed:
        print('%d unexpected failures, %d listed cases that pass' % (len(unexpected), len(fixed)))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
