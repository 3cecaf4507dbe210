#!/usr/bin/env bash
# End to end: the playbook against three inventory hosts on this machine
# (ansible_connection=local), each measuring its own loop-device filesystem;
# one of them runs in a cgroup v1 blkio cgroup that throttles its loop
# device. Then `disktune fleet` must flag exactly that host.
#
#   deploy/ansible/fleet_playbook_test.sh BUILD_DIR
# Needs root, ansible-playbook, losetup, mkfs.ext4 and cgroup v1 blkio;
# prints SKIP: <reason> otherwise. Every loop device, mount and cgroup it
# makes is put back on every exit path (the EXIT trap).
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 0; }

[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, mounts, cgroups)"
command -v ansible-playbook >/dev/null || skip "ansible-playbook is not installed (scripts/test.sh installs ansible-core)"
for t in losetup mkfs.ext4 cpack dpkg-deb jq; do
  command -v "$t" >/dev/null || skip "$t is not installed"
done
blkio=/sys/fs/cgroup/blkio
[ -w "$blkio/cgroup.procs" ] || skip "no writable cgroup v1 blkio hierarchy at $blkio"

tmp=$(mktemp -d /tmp/disktune-fleet-test.XXXXXX)
cg="$blkio/disktune-fleet-test-$$"
loops=()
found_wc=()
mounts=()
cleanup() {
  set +e
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
  for i in "${!loops[@]}"; do
    # Put back the write cache setting the loop device was found with: a
    # loop device keeps it across detach and attach.
    wc="/sys/block/$(basename "${loops[$i]}")/queue/write_cache"
    [ -n "${found_wc[$i]:-}" ] && echo "${found_wc[$i]}" >"$wc"
    losetup -d "${loops[$i]}"
  done
  if [ -d "$cg" ]; then
    # Anything still in the cgroup goes back to the root first.
    while read -r pid; do echo "$pid" >"$blkio/cgroup.procs"; done <"$cg/cgroup.procs"
    rmdir "$cg"
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

(cd "$tmp" && cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log" >&2; fail "cpack"; }
deb=$(ls "$tmp"/pkg/disktune_*.deb | head -n1)

hosts=(fast1 fast2 slow)
for h in "${hosts[@]}"; do
  truncate -s 192M "$tmp/$h.img"
  # Direct I/O to the backing file: reads reach the disk, not this machine's
  # page cache, so the three hosts measure alike.
  dev=$(losetup -f --show --direct-io=on "$tmp/$h.img")
  loops+=("$dev")
  # The state the hosts must share, whatever an earlier user of this loop
  # number left: the kernel's view of the cache "write back".
  wc="/sys/block/$(basename "$dev")/queue/write_cache"
  found_wc+=("$(cat "$wc")")
  echo "write back" >"$wc"
  mkfs.ext4 -q -F "$dev"
  mkdir -p "$tmp/mnt/$h"
  mount "$dev" "$tmp/mnt/$h"
  mounts+=("$tmp/mnt/$h")
  eval "dev_$h=$dev"
done

# The slow host: its loop device throttled to 100 read and 50 write IOPS
# and 4 MiB/s each way, for processes in the cgroup.
mkdir "$cg"
majmin=$(lsblk -dno MAJ:MIN "$dev_slow" | tr -d ' ')
echo "$majmin 100" >"$cg/blkio.throttle.read_iops_device"
echo "$majmin 50" >"$cg/blkio.throttle.write_iops_device"
echo "$majmin 4194304" >"$cg/blkio.throttle.read_bps_device"
echo "$majmin 4194304" >"$cg/blkio.throttle.write_bps_device"

# All three loop devices sit on this machine's one disk: they share a device,
# so the playbook must run them one after another.
# (YAML inventory, as JSON: the prefix is a list with shell quoting inside.)
jq -n --arg tmp "$tmp" --arg cg "$cg" '{disktune: {
  hosts: {
    fast1: {disktune_data_dir: "\($tmp)/mnt/fast1"},
    fast2: {disktune_data_dir: "\($tmp)/mnt/fast2"},
    slow: {disktune_data_dir: "\($tmp)/mnt/slow",
           disktune_command_prefix: ["sh", "-c",
             "echo $$ > \($cg)/cgroup.procs && exec \"$@\"", "sh"]}},
  vars: {ansible_connection: "local",
         ansible_python_interpreter: "/usr/bin/python3",
         disktune_shared_device: "this-machine"}}}' >"$tmp/inventory.yml"

args='["--quick", "--probes", "seq_read,rand_read,fsync", "--file-size", "32MiB", "--duration", "300ms", "--warmup", "100ms", "--queue-depths", "1,32"]'
cd "$tmp"
start=$(date +%s)
ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
ansible-playbook -i "$tmp/inventory.yml" "$here/disktune.yml" \
  -e disktune_deb="$deb" -e disktune_install=unpack -e disktune_unpack_dir="$tmp/root" \
  -e disktune_command=probe -e "{\"disktune_args\": $args}" \
  -e disktune_results_dir="$tmp/results" >"$tmp/ansible.log" 2>&1 ||
  { tail -n 60 "$tmp/ansible.log" >&2; fail "ansible-playbook failed"; }
echo "playbook: $(( $(date +%s) - start )) s for ${#hosts[@]} hosts"
for h in "${hosts[@]}"; do
  [ -s "$tmp/results/$h.json" ] || fail "no results/$h.json"
done
grep -q "3 hosts in 3 wave(s)" "$tmp/ansible.log" || fail "hosts sharing a device were not put in separate waves"
# Nothing left on the measured filesystems (the scratch directories are gone).
for h in "${hosts[@]}"; do
  left=$(ls -A "$tmp/mnt/$h" | grep -v '^lost+found$' || true)
  [ -z "$left" ] || fail "left on $h's data dir: $left"
done

set +e
"$tmp/root/usr/bin/disktune" fleet "$tmp/results" --json "$tmp/fleet.json" \
  --html "$tmp/fleet.html" --prometheus "$tmp/fleet.prom" --fail-on-outlier >"$tmp/fleet.txt"
rc=$?
set -e
cat "$tmp/fleet.txt"
[ "$rc" -eq 1 ] || fail "fleet --fail-on-outlier exited $rc, want 1"
flagged=$(jq -r '[.outliers[].host] | unique | join(" ")' "$tmp/fleet.json")
slow_label=$(jq -r '.hosts[] | select(.file | endswith("/slow.json")) | .host' "$tmp/fleet.json")
[ -n "$slow_label" ] || fail "no host entry for slow.json"
[ "$flagged" = "$slow_label" ] || fail "flagged '$flagged', want exactly '$slow_label'"
worse=$(jq -r '[.outliers[] | select(.direction == "worse")] | length' "$tmp/fleet.json")
all=$(jq -r '.outliers | length' "$tmp/fleet.json")
[ "$worse" -eq "$all" ] || fail "an outlier of $slow_label is not worse than the group: the throttle did not apply"
grep -q "host=\"$slow_label\"" "$tmp/fleet.prom" || fail "the Prometheus file has no host label for $slow_label"
grep -q "class=\"outlier-label\"" "$tmp/fleet.html" || fail "the HTML page labels no outlier"
echo "PASS: fleet flags exactly $slow_label"
