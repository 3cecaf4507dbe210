#!/usr/bin/env bash
# Builds the Debian package from the build tree (cpack), unpacks it into an
# empty root (dpkg-deb -x: what `apt install` puts on a server, without
# touching this machine's dpkg database), and runs the installed copy:
# `list` finds the profiles by name under <root>/usr/share, `probe --quick`
# measures, `bench --profile ycsb-a` reads a profile by name. Also checks the
# package depends on runtime libraries only (no -dev package, no compiler).
#
#   tests/package_install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in cpack dpkg-deb jq; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 0; }
done

tmp=$(mktemp -d /tmp/disktune-pkgtest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && cpack -G DEB -B "$tmp/out" --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log" >&2; fail "cpack did not build the package"; }
deb=$(ls "$tmp"/out/disktune_*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || fail "no disktune_*.deb in $tmp/out"
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# RocksDB is linked from its static archive (Debian's CMake target
# RocksDB::rocksdb), so its compression libraries appear instead of it.
for lib in liburing libsnappy libleveldb libsqlite3 libkyotocabinet liblmdb libdb5.3++ libzstd liblz4; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib"
done
if grep -Eq -- '-dev|build-essential|g\+\+|cmake' <<<"$depends"; then
  fail "Depends names a build package: $depends"
fi
grep -q fio <<<"$(dpkg-deb -f "$deb" Recommends)" || fail "fio is not recommended"
# Every dependency is a package Debian has (it is installed here, since the
# build linked against it).
for pkg in $(tr ',' '\n' <<<"$depends" | sed 's/(.*)//; s/|.*//' | tr -d ' '); do
  dpkg-query -W "$pkg" >/dev/null 2>&1 || fail "dependency $pkg is not a known package"
done

# What `apt install ./disktune.deb` would do here (simulated: nothing changes).
if command -v apt-get >/dev/null; then
  apt-get install -s "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt cannot install the package"; }
  grep -q "^Inst disktune" "$tmp/apt.log" || { cat "$tmp/apt.log" >&2; fail "apt would not install disktune"; }
fi

root="$tmp/root"
mkdir -p "$root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/disktune"
[ -x "$bin" ] || fail "package has no usr/bin/disktune"
[ -f "$root/usr/share/disktune/profiles/ycsb-a.json" ] || fail "profiles not under usr/share/disktune/profiles"
[ -f "$root/usr/share/disktune/schema/report.v1.schema.json" ] || fail "report schema not installed"
# exec's sync floor: the preload library, where the binary looks for it.
[ -n "$(find "$root/usr/lib" -path '*/disktune/libdisktune_syncfloor.so' 2>/dev/null)" ] ||
  fail "package has no lib/.../disktune/libdisktune_syncfloor.so (exec's sync floor)"

# Run from a directory with no profiles/ so only the installed ones count.
work="$tmp/work"
mkdir -p "$work"
cd "$work"
"$bin" list --json list.json >/dev/null
n=$(jq '.profiles | length' list.json)
[ "$n" -ge 10 ] || fail "installed list shows $n profiles"
outside=$(jq -r --arg d "$root/usr/share/disktune/profiles/" \
  '[.profiles[] | select(.path | startswith($d) | not) | .path] | join(" ")' list.json)
[ -z "$outside" ] || fail "installed copy reads profiles outside its root: $outside"
jq -e '.profiles[] | select(.name == "ycsb-a")' list.json >/dev/null || fail "ycsb-a not listed by name"

"$bin" probe --quick --probes rand_read,fsync --file-size 16MiB --duration 100ms \
  --warmup 20ms --queue-depths 1 --json probe.json --quiet
jq -e '.schema == "disktune.report" and (.probes | length) > 0' probe.json >/dev/null ||
  fail "probe --quick from the package wrote no report"
jq -e '[.probes[] | select(.status == "ok")] | length > 0' probe.json >/dev/null ||
  fail "no probe succeeded from the package"

"$bin" bench --profile ycsb-a --quick --num 2000 --json bench.json --quiet
jq -e '(.benches | length) > 0' bench.json >/dev/null || fail "bench --profile ycsb-a ran nothing"
if "$bin" bench --profile no-such-profile --quiet 2>err.txt; then
  fail "an unknown profile name was accepted"
fi
grep -q "ycsb-a" err.txt || fail "the unknown-profile message does not list the names: $(cat err.txt)"
# tune --workload resolves the name before anything is measured: with a bad
# budget after it, the error is about the budget, not the workload.
if "$bin" tune --engine leveldb --workload ycsb-a --memory-budget 12 --quiet 2>err.txt; then
  fail "tune accepted --memory-budget 12"
fi
grep -q -- "--memory-budget" err.txt || fail "tune --workload ycsb-a was not found by name: $(cat err.txt)"
echo "PASS: installed package lists $n profiles by name, probes and benches"
