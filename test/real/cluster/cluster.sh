#!/usr/bin/env bash
# A real Incus cluster on this one machine, for test/real/cluster.test.ts — the approach of
# upstream Incus's own test suite (lxc/incus test/includes/clustering.sh: setup_clustering_bridge,
# setup_clustering_netns, spawn_incus_and_bootstrap_cluster, spawn_incus_and_join_cluster): every
# member is its own incusd with its own INCUS_DIR, in its own network namespace joined to a bridge
# made here; the first member bootstraps the cluster from a preseed, the others join it with a token.
# Nothing here touches the machine's own daemon (/var/lib/incus): own dirs, own sockets, no managed
# network, own storage pool dirs, own bridge and addresses.
#
# Usage: cluster.sh up [members]   build it (2 by default; first tears down any leftover)
#        cluster.sh down           tear it down (also after a failed or killed run)
#        cluster.sh start <i>      start member i's incusd again (after the tests killed it)
# State: $LOOPSCOPE_CLUSTER_DIR (default /tmp/loopscope-cluster): m<i>/ is member i's INCUS_DIR,
# cluster.json describes the members for the tests.
set -euo pipefail

DIR="${LOOPSCOPE_CLUSTER_DIR:-/tmp/loopscope-cluster}"
BRIDGE=lscbr0
NET=100.127.209            # a /24 of the shared address space (RFC 6598): no clash with real networks
HOST_IP="$NET.1"
PORT=8443
ALIAS="${LOOPSCOPE_INCUS_IMAGE:-loopscope-busybox}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
INCUSD=/usr/libexec/incus/incusd
[ -x "$INCUSD" ] || INCUSD="$(command -v incusd)"
export HOME="${HOME:-/root}"

T0=$(date +%s.%N)
step() { awk -v t0="$T0" -v now="$(date +%s.%N)" -v msg="$*" 'BEGIN { printf "[cluster %5.1fs] %s\n", now - t0, msg }' >&2; }
ns_of() { echo "lsc-m$1"; }
ip_of() { echo "$NET.1$1"; }

# Kill what a member left: its incusd, anything else in its network namespace (lxc monitors,
# forkfile helpers), and its containers (each in its own namespaces, found by their cgroup
# lxc.payload.<name> / lxc.monitor.<name>: names are the ones in the member's containers/ dir).
kill_member() {
  local m="$1" mdir="$DIR/m$1" ns pids names
  ns="$(ns_of "$m")"
  # No clean shutdown: the whole cluster is thrown away (a member's shutdown waits for the others,
  # 2-8 s each); SIGKILL and the cgroup sweep below leave nothing running.
  names=""
  [ -d "$mdir/containers" ] && names="$(ls -1 "$mdir/containers" 2>/dev/null || true)"
  for _ in 1 2 3; do
    pids=""
    [ -f "$mdir/incusd.pid" ] && pids="$(cat "$mdir/incusd.pid")"
    if ip netns list 2>/dev/null | grep -qw "$ns"; then pids="$pids $(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ' || true)"; fi
    for n in $names; do
      pids="$pids $(grep -lE "/lxc\.(payload|monitor)\.${n}(/|$)" /proc/[0-9]*/cgroup 2>/dev/null | cut -d/ -f3 | tr '\n' ' ' || true)"
    done
    pids="$(echo $pids)"
    [ -z "$pids" ] && break
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null || true
    sleep 0.3
  done
  # A container killed this way leaves its (empty) cgroups behind: removed, deepest first.
  for n in $names; do
    find /sys/fs/cgroup -maxdepth 2 -type d \( -name "lxc.payload.$n" -o -name "lxc.monitor.$n" -o -name "lxc.payload.$n-[0-9]*" -o -name "lxc.monitor.$n-[0-9]*" \) 2>/dev/null \
      | while read -r cg; do find "$cg" -depth -type d -exec rmdir {} \; 2>/dev/null || true; done
  done
  rm -f "$mdir/incusd.pid"
}

down() {
  step "tearing down $DIR"
  if [ -d "$DIR" ]; then
    for mdir in "$DIR"/m[0-9]*; do if [ -d "$mdir" ]; then kill_member "${mdir##*/m}"; fi; done
  fi
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^lsc-m[0-9]*$' || true); do
    ip link del "v${ns#lsc-}h" 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  if ip link show "$BRIDGE" >/dev/null 2>&1; then ip link del "$BRIDGE"; fi
  if [ -d "$DIR" ]; then
    # The daemons' mounts lived in their own mount namespaces (ip netns exec): gone with them.
    # Anything still mounted under DIR (should not happen) is detached before the files go.
    { grep -o " $DIR[^ ]*" /proc/mounts || true; } | sort -r | while read -r mnt; do umount -l "$mnt" 2>/dev/null || true; done
    rm -rf --one-file-system "$DIR"
  fi
  step "down"
}

start_member() {
  local m="$1" mdir="$DIR/m$1" ns
  ns="$(ns_of "$m")"
  mkdir -p "$mdir"
  ip netns add "$ns"
  ip link add "vm${m}h" type veth peer name "vm${m}n"
  ip link set "vm${m}n" netns "$ns"
  ip link set "vm${m}h" master "$BRIDGE" up
  ip -n "$ns" link set lo up
  ip -n "$ns" link set "vm${m}n" name eth0
  ip -n "$ns" addr add "$(ip_of "$m")/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" route add default via "$HOST_IP"
  spawn_member "$m"
}

# Start member m's incusd (again: after a kill, the namespace and its INCUS_DIR are still there).
spawn_member() {
  local m="$1" mdir="$DIR/m$1" ns
  ns="$(ns_of "$m")"
  # In the member's network namespace and a mount namespace of its own (a slave of the host's:
  # the daemon's mounts never reach the host and vanish with it), with a sysfs of that network
  # namespace and the host's cgroup mounts moved under it — as upstream's setup_clustering_netns
  # does (`ip netns exec` would remount /sys without the cgroup hierarchies: containers then fail
  # "Failed to setup cgroup limits"). nsenter, unshare and sh all exec: $! is the daemon's pid.
  INCUS_DIR="$mdir" setsid nsenter --net="/run/netns/$ns" unshare --mount --propagation slave sh -c '
    set -e
    old="$(mktemp -d /tmp/lsc-sys.XXXXXX)"
    mount --move /sys "$old"
    mount -t sysfs sysfs /sys
    mount --move "$old/fs/cgroup" /sys/fs/cgroup
    umount -l "$old"; rmdir "$old"
    exec "$0" --logfile "$1"' "$INCUSD" "$mdir/incusd.log" </dev/null >>"$mdir/incusd.out" 2>&1 &
  echo $! > "$mdir/incusd.pid"
}

wait_member() {
  local m="$1" mdir="$DIR/m$1"
  if ! INCUS_DIR="$mdir" timeout 60 "$INCUSD" waitready --timeout=50; then
    echo "cluster: member m$m (incusd in $mdir) did not become ready; last log lines:" >&2
    tail -20 "$mdir/incusd.log" "$mdir/incusd.out" >&2 || true
    exit 1
  fi
}

up() {
  local members="${1:-2}"
  [[ "$members" =~ ^[1-9]$ ]] || { echo "cluster: members must be 1-9, got $members" >&2; exit 2; }
  for tool in ip setsid timeout "$INCUSD" incus; do
    command -v "$tool" >/dev/null 2>&1 || { echo "cluster: $tool not found (iproute2, util-linux, coreutils, incus-base, incus-client)" >&2; exit 1; }
  done
  [ "$(id -u)" -eq 0 ] || { echo "cluster: needs root (network namespaces, incusd)" >&2; exit 1; }
  down
  mkdir -p "$DIR"
  ip link add "$BRIDGE" type bridge
  ip addr add "$HOST_IP/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  step "bridge $BRIDGE $HOST_IP/24"
  for m in $(seq 1 "$members"); do start_member "$m"; done
  for m in $(seq 1 "$members"); do wait_member "$m"; done
  step "$members incusd ready"

  # https://linuxcontainers.org/incus/docs/main/howto/cluster_form/#use-a-preseed-file
  INCUS_DIR="$DIR/m1" incus admin init --preseed <<YAML
config:
  core.https_address: $(ip_of 1):$PORT
  images.auto_update_interval: 0
storage_pools:
- name: default
  driver: dir
profiles:
- name: default
  devices:
    root:
      path: /
      pool: default
      type: disk
cluster:
  server_name: m1
  enabled: true
YAML
  step "m1 bootstrapped the cluster"
  local cert
  cert="$(sed ':a;N;$!ba;s/\n/\\n/g' "$DIR/m1/cluster.crt")"
  for m in $(seq 2 "$members"); do
    local token
    token="$(INCUS_DIR="$DIR/m1" incus cluster add "m$m" --quiet)"
    INCUS_DIR="$DIR/m$m" incus admin init --preseed <<YAML
cluster:
  enabled: true
  server_name: m$m
  server_address: $(ip_of "$m"):$PORT
  cluster_address: $(ip_of 1):$PORT
  cluster_certificate: "$cert"
  cluster_token: $token
  member_config:
  - entity: storage-pool
    name: default
    key: source
    value: ""
YAML
    step "m$m joined"
  done
  INCUS_DIR="$DIR/m1" bash "$HERE/../../../.ci/incus-image.sh" "$ALIAS" >/dev/null
  step "image $ALIAS imported"
  {
    printf '{"dir":"%s","bridge":"%s","members":[' "$DIR" "$BRIDGE"
    for m in $(seq 1 "$members"); do
      [ "$m" -gt 1 ] && printf ','
      printf '{"name":"m%s","address":"%s:%s","incusDir":"%s","socket":"%s","pid":%s}' \
        "$m" "$(ip_of "$m")" "$PORT" "$DIR/m$m" "$DIR/m$m/unix.socket" "$(cat "$DIR/m$m/incusd.pid")"
    done
    printf ']}\n'
  } > "$DIR/cluster.json"
  step "up: $(INCUS_DIR="$DIR/m1" incus cluster list --format csv -c nus | tr '\n' ' ')"
}

case "${1:-}" in
  up) up "${2:-2}" ;;
  down) down ;;
  start)
    [[ "${2:-}" =~ ^[1-9]$ ]] && [ -d "$DIR/m$2" ] || { echo "cluster: start <member number of a built cluster>" >&2; exit 2; }
    spawn_member "$2"; wait_member "$2"
    echo "$(cat "$DIR/m$2/incusd.pid")" ;;
  *) echo "usage: $0 up [members] | down" >&2; exit 2 ;;
esac
