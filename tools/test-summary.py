#!/usr/bin/env python3
"""Counts the results of the last 'meson test' run in each build directory
given: every TAP subtest (every CMocka test case) counts as one test, and so
does every non-TAP test.  Prints "PASSED FAILED SKIPPED"."""
import json
import re
import sys

TAP_LINE = re.compile(r"^(ok|not ok)\b[^#\n]*(?:#\s*(SKIP|TODO))?", re.M)

passed = failed = skipped = 0
for build in sys.argv[1:]:
    with open(f"{build}/meson-logs/testlog.json") as log:
        for line in log:
            test = json.loads(line)
            result = test.get("result")
            tap = TAP_LINE.findall(test.get("stdout") or "")
            if tap:
                for status, directive in tap:
                    if directive == "SKIP":
                        skipped += 1
                    elif status == "ok":
                        passed += 1
                    else:
                        failed += 1
                # a binary that failed outside its test cases (a crash, a timeout)
                if result not in ("OK", "SKIP") and all(s == "ok" for s, _ in tap):
                    failed += 1
            elif result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skipped += 1
            else:
                failed += 1
print(passed, failed, skipped)
