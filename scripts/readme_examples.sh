#!/bin/bash
# Regenerates (or, with --check, verifies) every example output in README.md
# from the current binary. An example is a fenced block between
#   <!-- example: ARGS [lines A-B] -->
#   ```
#   ...what `disktune ARGS` prints on stdout (lines A to B of it)...
#   ```
#   <!-- /example -->
# ARGS run from the repository root against stored result files
# (tests/readme/), so no example needs a fresh measurement and the check is
# fast. Usage: scripts/readme_examples.sh [--check] [path/to/disktune]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then
  check=1
  shift
fi
bin="${1:-build/disktune}"
if [[ ! -x "$bin" ]]; then
  echo "readme_examples.sh: no disktune binary at $bin; build first (cmake --build build)" >&2
  exit 2
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

python3 - "$bin" README.md "$out" <<'PY'
import re, subprocess, sys, shlex
bin_, readme, out = sys.argv[1:4]
text = open(readme).read()
pat = re.compile(r'(<!-- example: (.*?) -->\n```[^\n]*\n)(.*?)(```\n<!-- /example -->)', re.S)
def run(m):
    spec = m.group(2).strip()
    lines = None
    lm = re.search(r'\s+lines (\d+)-(\d+)$', spec)
    if lm:
        lines = (int(lm.group(1)), int(lm.group(2)))
        spec = spec[:lm.start()]
    p = subprocess.run([bin_] + shlex.split(spec), capture_output=True, text=True)
    body = p.stdout.splitlines()
    if lines:
        body = body[lines[0] - 1:lines[1]]
    if not body:
        sys.exit("readme_examples.sh: `disktune %s` printed nothing (exit %d): %s"
                 % (spec, p.returncode, p.stderr.strip()))
    return m.group(1) + "\n".join(body) + "\n" + m.group(4)
new, n = pat.subn(run, text)
if n == 0:
    sys.exit("readme_examples.sh: README.md has no <!-- example: ... --> blocks")
open(out, "w").write(new)
PY

if [[ $check == 1 ]]; then
  if ! diff -u README.md "$out"; then
    echo "README.md: an example no longer matches what $bin prints;" \
         "run scripts/readme_examples.sh to regenerate it" >&2
    exit 1
  fi
  echo "README.md examples match $bin"
else
  cp "$out" README.md
  echo "README.md examples regenerated from $bin"
fi
