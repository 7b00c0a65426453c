#!/usr/bin/env python3
# piglit-parser.py AGXC EXPECTED-FAILURES [PIGLIT-DIR]: the GLSL ES 1.00
# and 3.00 parser tests of Debian's piglit package through agxc, as
# piglit's glslparsertest_gles2 runs them (agxc --check --expect).
#
# Which files: every .vert/.frag/.geom/.comp/.tesc/.tese under piglit's
# tests/ and generated_tests/ whose [config] block says glsl_version 1.00
# or 3.00 (with or without "es"; piglit counts both as GLSL ES).  Files
# without a [config] block are not parser tests (piglit does not run them).
# Skipped, and counted by reason: stages OpenGL ES 3.0 has not, tests that
# need an extension the front end does not support, or need the absence
# of one it does.  Supported is what the front end accepts: agxc --check
# takes "#extension NAME : require" in that version and stage (glslang's
# list; the GL layer will advertise its own, docs/compiler.md).
# check_link: true runs agxc --check --link, which links the shader with
# a dummy shader of the other stage, as glslparsertest does for GLSL ES.
#
# EXPECTED-FAILURES lists the cases known to fail, one a line: the path
# (relative to PIGLIT-DIR), then why.  The list is exact: a failure not in
# it, a listed case that passes, and a listed case that is not run all
# fail the test.  Exit 77 (skip) when piglit is not installed.
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

PIGLIT_DIRS = ['/usr/lib/x86_64-linux-gnu/piglit', '/usr/lib/aarch64-linux-gnu/piglit',
               '/usr/lib/piglit']
EXTENSIONS = ('vert', 'frag', 'geom', 'comp', 'tesc', 'tese')
STAGES = ('vert', 'frag')  # what OpenGL ES 3.0 and agxc's 1.00 and 3.00 have
TIMEOUT = 120  # seconds per file; glslang takes milliseconds

HEADER = re.compile(r'(//|/\*|\*)\s*\[config\]')
END = re.compile(r'(//|/\*|\*)\s*\[end config\]')
ITEM = re.compile(r'(//|/\*|\*)\s*(?P<key>[a-z_]*):\s(?P<value>.*)')


def read_config(path):
    """The [config] block's keys, or None without one (piglit's reading)."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = [line.strip() for line in f.read().split('\n')]
    except (OSError, UnicodeDecodeError):
        return None
    config = {'require_extensions': '', 'check_link': 'false'}
    it = iter(lines)
    if not any(HEADER.match(line) for line in it):
        return None
    for line in it:
        if line in ('', '//', '*'):
            continue
        if END.match(line):
            return config
        m = ITEM.match(line)
        if not m:
            return None  # malformed: piglit refuses the file
        config[m.group('key')] = m.group('value').strip()
    return None


def es_version(value):
    """100 or 300 for a GLSL ES 1.00 or 3.00 glsl_version, else None."""
    m = re.fullmatch(r'(\d+)(?:\.(\d+))?(\s+es)?', value or '')
    if not m:
        return None
    number = int(m.group(1)) * 100 + int(m.group(2) or 0)
    return number if number in (100, 300) else None


def supported(agxc, probes):
    """{(extension, version, stage): whether agxc accepts a shader requiring it}."""
    answers = {}
    with tempfile.TemporaryDirectory(prefix='agx-piglit-') as tmp:
        for n, (ext, version, stage) in enumerate(sorted(probes)):
            path = os.path.join(tmp, '%d.%s' % (n, stage))
            with open(path, 'w', encoding='utf-8') as f:
                f.write('#version %s\n#extension %s : require\nvoid main() { }\n' %
                        ('100' if version == 100 else '300 es', ext))
            p = subprocess.run([agxc, '--check', path], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=TIMEOUT)
            answers[(ext, version, stage)] = p.returncode == 0
    return answers


def skip_reason(rel, version, config, answers):
    stage = rel.rsplit('.', 1)[1]
    if stage not in STAGES:
        return 'stage .%s' % stage
    for ext in config['require_extensions'].split():
        if ext.startswith('!'):
            if answers[(ext[1:], version, stage)]:
                return 'needs %s absent' % ext[1:]
        elif not answers[(ext, version, stage)]:
            return 'needs %s' % ext
    return None


def select(agxc, root):
    """(cases, skipped): cases as (path, version, config), skips as (path, reason)."""
    found, cases, skipped = [], [], []
    for top in ('tests', 'generated_tests'):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.rsplit('.', 1)[-1] not in EXTENSIONS:
                    continue
                full = os.path.join(dirpath, name)
                config = read_config(full)
                if not config or config.get('expect_result') not in ('pass', 'fail'):
                    continue
                version = es_version(config.get('glsl_version'))
                if version is None:
                    continue
                found.append((os.path.relpath(full, root), version, config))
    probes = {(ext.lstrip('!'), version, rel.rsplit('.', 1)[1])
              for rel, version, config in found
              for ext in config['require_extensions'].split()}
    answers = supported(agxc, probes)
    for rel, version, config in found:
        reason = skip_reason(rel, version, config, answers)
        if reason:
            skipped.append((rel, reason))
        else:
            cases.append((rel, version, config))
    return cases, skipped


def run_case(agxc, root, case):
    """(passed, output) of agxc on one case."""
    rel, _, config = case
    cmd = [agxc, '--check', '--expect', config['expect_result']]
    if config['check_link'].lower() == 'true':
        cmd.append('--link')
    cmd.append(os.path.join(root, rel))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, 'timed out after %d s' % TIMEOUT
    out = p.stdout.decode('utf-8', 'replace')
    said_pass = 'PIGLIT: {"result": "pass" }' in out
    said_fail = 'PIGLIT: {"result": "fail" }' in out
    if p.returncode == 0 and said_pass and not said_fail:
        return True, out
    if p.returncode == 1 and said_fail and not said_pass:
        return False, out
    return False, out + '\nagxc exited with %d and no single PIGLIT line\n' % p.returncode


def read_expected(path):
    """{case path: reason} from the expected-failures file."""
    expected = {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            fields = line.split(None, 1)
            if len(fields) < 2:
                sys.exit('%s:%d: a case without a reason' % (path, number))
            if fields[0] in expected:
                sys.exit('%s:%d: %s listed twice' % (path, number, fields[0]))
            expected[fields[0]] = fields[1]
    return expected


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit('usage: piglit-parser.py AGXC EXPECTED-FAILURES [PIGLIT-DIR]')
    agxc, expected_path = sys.argv[1], sys.argv[2]
    if len(sys.argv) == 4:
        root = sys.argv[3]
    else:
        root = next((d for d in PIGLIT_DIRS if os.path.isdir(os.path.join(d, 'tests'))), None)
    if not root or not os.path.isdir(os.path.join(root, 'tests', 'spec', 'glsl-es-1.00')):
        print('piglit-parser: piglit is not installed (apt-get install piglit): skipped')
        return 77
    expected = read_expected(expected_path)
    cases, skipped = select(agxc, root)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda c: run_case(agxc, root, c), cases))

    passed = failed = listed = 0
    problems = []
    for (rel, _, config), (ok, out) in zip(cases, results):
        if ok:
            passed += 1
            if rel in expected:
                problems.append('%s: listed as failing (%s), but passes' % (rel, expected[rel]))
            continue
        failed += 1
        if rel in expected:
            listed += 1
        else:
            problems.append('%s: expected %s, failed:\n%s' %
                            (rel, config['expect_result'],
                             ''.join('    ' + line + '\n' for line in out.splitlines())))
    run = {rel for rel, _, _ in cases}
    for rel in sorted(set(expected) - run):
        problems.append('%s: listed as failing, but not run' % rel)

    for p in problems:
        print('piglit-parser: ' + p)
    reasons = {}
    for _, reason in skipped:
        reasons[reason] = reasons.get(reason, 0) + 1
    detail = ', '.join('%d %s' % (n, r) for r, n in sorted(reasons.items()))
    print('piglit-parser: %d passed, %d failed (%d of them expected), %d skipped (%s)' %
          (passed, failed, listed, len(skipped), detail or 'none'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
