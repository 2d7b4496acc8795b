#!/usr/bin/env bash
# Install and start a real Incus daemon (Debian bookworm-backports' incus 6.0.x) and
# import the loopscope busybox test image. Idempotent: a second run only checks.
# Works without systemd (PID 1 here is not systemd) and without stdin (CI=true).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ALIAS="${LOOPSCOPE_INCUS_IMAGE:-loopscope-busybox}"
INCUS_DIR="${INCUS_DIR:-/var/lib/incus}"
SOCKET="${INCUS_SOCKET:-$INCUS_DIR/unix.socket}"
LOG_DIR="/var/log/incus"
export DEBIAN_FRONTEND=noninteractive
# The incus CLI keeps its config under $HOME/.config/incus; CI may run with a bare environment.
export HOME="${HOME:-/root}"

T0=$(date +%s.%N)
step() { awk -v t0="$T0" -v now="$(date +%s.%N)" -v msg="$*" 'BEGIN { printf "[setup-incus %6.1fs] %s\n", now - t0, msg }'; }

if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi

# --- 1. packages -----------------------------------------------------------
need_pkgs=()
command -v incus >/dev/null 2>&1 || need_pkgs+=(incus-client)
[ -x /usr/libexec/incus/incusd ] || command -v incusd >/dev/null 2>&1 || need_pkgs+=(incus-base)
dpkg -s busybox-static >/dev/null 2>&1 || need_pkgs+=(busybox-static)

if [ ${#need_pkgs[@]} -gt 0 ]; then
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
  list="/etc/apt/sources.list.d/loopscope-backports.sources"
  if [ ! -f "$list" ] && ! apt-get indextargets --format '$(RELEASE)' | grep -x "${codename}-backports" >/dev/null; then
    # Reuse whatever Debian mirror this machine already uses for <codename>/main:
    # never hard-code a host name.
    mirror="$(apt-get indextargets --format '$(REPO_URI)' "Release: ${codename}" 'Component: main' 'Identifier: Packages' | head -1)"
    if [ -z "$mirror" ]; then
      echo "setup-incus: no ${codename}/main Packages target in apt-get indextargets; run apt-get update first" >&2
      $SUDO apt-get update -q
      mirror="$(apt-get indextargets --format '$(REPO_URI)' "Release: ${codename}" 'Component: main' 'Identifier: Packages' | head -1)"
    fi
    [ -n "$mirror" ] || { echo "setup-incus: cannot find the Debian mirror for ${codename}" >&2; exit 1; }
    step "adding ${codename}-backports from ${mirror}"
    $SUDO tee "$list" >/dev/null <<EOF
Types: deb
URIs: ${mirror}
Suites: ${codename}-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  # Other jobs may be using apt at the same moment: wait for the locks instead of failing.
  APT_OPTS=(-o DPkg::Lock::Timeout=300 -o Acquire::Retries=3)
  step "apt-get update"
  $SUDO apt-get update -q "${APT_OPTS[@]}" >/dev/null
  step "installing ${need_pkgs[*]} (from ${codename}-backports)"
  # incus-base (the daemon) depends on incus-client (the `incus` CLI) and lxcfs. Not the
  # `incus` package (systemd units, which this machine's PID 1 can't run), never `lxd` beside it.
  $SUDO apt-get install -y -q "${APT_OPTS[@]}" -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    -t "${codename}-backports" incus-base incus-client busybox-static </dev/null >/tmp/setup-incus-apt.log 2>&1 \
    || { tail -30 /tmp/setup-incus-apt.log >&2; exit 1; }
  step "packages installed: $(dpkg-query -W -f '${Version}' incus-base 2>/dev/null)"
else
  step "packages already installed"
fi

INCUSD="/usr/libexec/incus/incusd"
[ -x "$INCUSD" ] || INCUSD="$(command -v incusd)"

# --- 2. daemon -------------------------------------------------------------
daemon_ready() { timeout 5 "$INCUSD" waitready --timeout=2 >/dev/null 2>&1; }

# lxcfs makes /proc/meminfo, /proc/cpuinfo... inside a container reflect its limits.
# Incus includes /usr/share/lxc/config/common.conf.d/00-lxcfs.conf, whose mount hook
# (Debian's lxcfs package) bind-mounts from /var/lib/lxcfs at each container start,
# so lxcfs only has to be mounted there; incusd itself does not need a restart.
# Without lxcfs containers still run (the API's memory numbers come from cgroups).
LXCFS_MNT=/var/lib/lxcfs
start_lxcfs() {
  command -v lxcfs >/dev/null 2>&1 || return 0
  [ -e /dev/fuse ] || { step "no /dev/fuse: running without lxcfs"; return 0; }
  if grep -q " $LXCFS_MNT fuse" /proc/mounts; then
    # A killed lxcfs leaves a dead FUSE mount ("Transport endpoint is not connected"):
    # lazily unmount it so a new lxcfs can mount there.
    if [ -r "$LXCFS_MNT/proc/meminfo" ]; then
      return 0
    fi
    step "lazy-unmounting stale lxcfs mount $LXCFS_MNT"
    $SUDO umount -l "$LXCFS_MNT" || true
  fi
  $SUDO mkdir -p "$LXCFS_MNT" "$LOG_DIR"
  $SUDO setsid lxcfs "$LXCFS_MNT" </dev/null >"$LOG_DIR/lxcfs.log" 2>&1 &
  for _ in $(seq 1 50); do [ -r "$LXCFS_MNT/proc/meminfo" ] && break; sleep 0.1; done
  if [ -r "$LXCFS_MNT/proc/meminfo" ]; then
    step "lxcfs started on $LXCFS_MNT"
  else
    step "lxcfs did not start (continuing without it; see $LOG_DIR/lxcfs.log)"
  fi
}

start_lxcfs

if daemon_ready; then
  step "incusd already answering on $SOCKET"
else
  $SUDO mkdir -p "$LOG_DIR"
  getent group incus-admin >/dev/null || $SUDO groupadd --system incus-admin
  # No systemd: run the daemon detached from this shell (no stdin, own session).
  step "starting incusd"
  $SUDO setsid "$INCUSD" --group incus-admin --logfile="$LOG_DIR/incusd.log" </dev/null >>"$LOG_DIR/incusd.out" 2>&1 &
  if ! "$INCUSD" waitready --timeout=60; then
    echo "setup-incus: incusd did not become ready; last log lines:" >&2
    tail -40 "$LOG_DIR/incusd.log" "$LOG_DIR/incusd.out" >&2 || true
    exit 1
  fi
  step "incusd ready"
fi

# --- 3. initialise (storage pool + default profile) -------------------------
if incus storage show default >/dev/null 2>&1 && incus profile device get default root pool >/dev/null 2>&1; then
  step "already initialised"
else
  step "incus admin init --preseed"
  # https://linuxcontainers.org/incus/docs/main/howto/initialize/#non-interactive-configuration
  incus admin init --preseed <<'EOF'
config: {}
networks: []
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
EOF
  step "initialised"
fi

# --- 4. test image ---------------------------------------------------------
bash "$HERE/incus-image.sh" "$ALIAS"
step "done (incusd $(incus version 2>/dev/null | tr '\n' ' '))"
