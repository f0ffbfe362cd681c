#!/usr/bin/env bash
# Branch coverage of the reference processor (seed_provenance.py) over every golden case.
#
#   tests/golden/coverage.sh ORACLE        (run from anywhere; ORACLE: the path of oracle.py, the
#                                           reference post-processor's command-line wrapper)
#   CASES_GLOB='rand_*' tests/golden/coverage.sh ...   only the cases whose directory matches the glob
#
# Needs coverage.py for the interpreter in $PYTHON (default /usr/bin/python3; Debian: apt-get install
# python3-coverage). Each case is run through the unchanged oracle under
#   $PYTHON -m coverage run --branch --append --include='*seed_provenance.py'
# and the combined `coverage report -m` is printed, followed by the figure restricted to the code the
# cases target (everything above `def _add_inductor_provenance`). The script also checks that the
# oracle still reproduces expected.json and result.json of every case (semantic JSON equality) and
# exits non-zero on any mismatch.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ORACLE=${1:?usage: tests/golden/coverage.sh ORACLE, the path of oracle.py (tests/golden/README.md)}
PYTHON=${PYTHON:-/usr/bin/python3}
CASES=$ROOT/tests/data/golden

[ -f "$ORACLE" ] || { echo "oracle not found: $ORACLE" >&2; exit 2; }
"$PYTHON" -m coverage --version >/dev/null 2>&1 || {
    echo "coverage.py missing for $PYTHON (apt-get install -y python3-coverage)" >&2; exit 2; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export COVERAGE_FILE=$TMP/.coverage

n=0
mismatch=0
for d in "$CASES"/${CASES_GLOB:-*}/; do
    d=${d%/}
    "$PYTHON" -m coverage run --branch --append --include='*seed_provenance.py' \
        "$ORACLE" "$d/trace.json" "$d/kernel_info.json" "$TMP/out.json" \
        --result "$TMP/result.json" --indent -1 >/dev/null
    if ! "$PYTHON" - "$d" "$TMP" <<'PY'
import json, sys
d, t = sys.argv[1], sys.argv[2]
load = lambda p: json.load(open(p, encoding="utf-8"))
same = load(d + "/expected.json") == load(t + "/out.json") and load(d + "/result.json") == load(t + "/result.json")
sys.exit(0 if same else 1)
PY
    then
        echo "MISMATCH: $(basename "$d")" >&2
        mismatch=$((mismatch + 1))
    fi
    n=$((n + 1))
done

echo "cases run: $n, mismatches against stored expected/result: $mismatch"
"$PYTHON" -m coverage report -m
"$PYTHON" -m coverage json -q -o "$TMP/cov.json"
"$PYTHON" - "$TMP/cov.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
(path, f), = files.items()
src = open(path, encoding="utf-8").read().splitlines()
limit = next(i + 1 for i, l in enumerate(src) if l.startswith("def _add_inductor_provenance"))
ex = [n for n in f["executed_lines"] if n < limit]
mi = [n for n in f["missing_lines"] if n < limit]
eb = [b for b in f.get("executed_branches", []) if b[0] < limit]
mb = [b for b in f.get("missing_branches", []) if b[0] < limit]
print("in scope (lines 1-%d, everything above _add_inductor_provenance): statements %d/%d, "
      "branch arcs %d/%d, %.1f%%%s" % (
          limit - 1, len(ex), len(ex) + len(mi), len(eb), len(eb) + len(mb),
          100.0 * (len(ex) + len(eb)) / max(1, len(ex) + len(mi) + len(eb) + len(mb)),
          "" if not (mi or mb) else "; missing lines %s, branch arcs %s" % (mi, mb)))
PY
[ "$mismatch" -eq 0 ]
