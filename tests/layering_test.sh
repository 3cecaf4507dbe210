#!/bin/sh
# The layers' includes (layering.cmake checks their links): nothing below
# src/app includes src/app or src/cli, src/app does not include src/cli, of
# the layers only src/cli includes reports/ (a test may, for the schema
# validator), src/model includes only src/core and itself, and reports/ only
# src/model, src/core and itself.
# Prints each offending line; fails when there is one.
set -u
src=${1:?usage: layering_test.sh SOURCE_DIR}
cd "$src" || exit 1
bad=0
below="src/core src/model probes engines src/bench src/predict src/tune reports"
if grep -rnE '#include "src/(app|cli)/' $below; then bad=1; fi
if grep -rnE '#include "src/cli/' src/app; then bad=1; fi
# The Report and its Summary are src/model; rendering is src/cli's to call.
if grep -rnE --exclude='*_test.cc' '#include "reports/' \
    src/core src/model probes engines src/bench src/predict src/tune src/app; then
  bad=1
fi
# src/model sits on src/core alone.
if grep -rnE '#include "(probes|engines|src/(bench|predict|tune|app|cli))/|#include "reports/' src/model; then bad=1; fi
# reports/ reads the typed model only.
if grep -rnE '#include "(probes|engines|src/(bench|predict|tune|app|cli))/' reports; then bad=1; fi
if [ "$bad" -ne 0 ]; then
  echo "layering: a lower layer includes a higher one (see layering.cmake)"
  exit 1
fi
echo "layering: ok"
