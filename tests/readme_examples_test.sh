#!/bin/bash
# Fails when an example output in README.md no longer matches what the built
# binary prints for it (scripts/readme_examples.sh --check).
set -euo pipefail
build="$1"
exec "$(dirname "$0")/../scripts/readme_examples.sh" --check "$build/disktune"
