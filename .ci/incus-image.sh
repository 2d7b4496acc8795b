#!/usr/bin/env bash
# Build a ~1 MB busybox-static container image and import it into Incus under an alias.
# No image server is reachable from CI, so the test image is made locally.
# Usage: .ci/incus-image.sh [alias]   (default alias: loopscope-busybox)
# Image format: a "unified" tarball holding metadata.yaml + rootfs/
# (https://linuxcontainers.org/incus/docs/main/reference/image_format/).
set -euo pipefail

ALIAS="${1:-loopscope-busybox}"
BUSYBOX="${BUSYBOX:-/bin/busybox}"

if incus image info "$ALIAS" >/dev/null 2>&1; then
  echo "incus-image: image '$ALIAS' already present"
  exit 0
fi

[ -x "$BUSYBOX" ] || { echo "incus-image: $BUSYBOX missing (apt-get install busybox-static)" >&2; exit 1; }
# Only a static busybox works in an empty rootfs (no libc inside): busybox-static's is.
if ! "$BUSYBOX" --list >/dev/null 2>&1; then
  echo "incus-image: $BUSYBOX is not a working busybox" >&2; exit 1
fi

WORK="$(mktemp -d /tmp/loopscope-image.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/rootfs"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc,dev,proc,sys,tmp,root,run,var}
chmod 1777 "$ROOT/tmp"
cp "$BUSYBOX" "$ROOT/bin/busybox"

# One link per applet, at the path busybox itself reports (bin/, sbin/, usr/bin/...).
while read -r applet; do
  [ -n "$applet" ] || continue
  dest="$ROOT/$applet"
  [ "$applet" = "bin/busybox" ] && continue
  [ -e "$dest" ] || ln -s /bin/busybox "$dest"
done < <("$BUSYBOX" --list-full)

# Our own init replaces busybox's: it must exit on SIGPWR, which is what
# `incus stop` sends to PID 1 for a clean shutdown (else stop waits for its timeout).
rm -f "$ROOT/sbin/init"
cat > "$ROOT/sbin/init" <<'EOF'
#!/bin/sh
# loopscope test init: mount what a load driver needs, then sleep until told to stop.
# LXC already mounts /proc and /sys (lxc.mount.auto), with lxcfs files bound over
# /proc/meminfo etc.; mounting proc again here would hide them.
mkdir -p /dev/shm
# A tmpfs on /dev/shm: pages written there are charged to the container's memory
# cgroup, so exec'ing `dd of=/dev/shm/x` raises memory usage (and past limits.memory, OOM).
mount -t tmpfs -o mode=1777 tmpfs /dev/shm 2>/dev/null
trap 'exit 0' PWR TERM INT
while :; do
  sleep 3600 &
  wait $!
done
EOF
chmod 0755 "$ROOT/sbin/init"

cat > "$ROOT/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
EOF
cat > "$ROOT/etc/group" <<'EOF'
root:x:0:
EOF
echo loopscope > "$ROOT/etc/hostname"

ARCH="$(uname -m)"
cat > "$WORK/metadata.yaml" <<EOF
architecture: $ARCH
creation_date: $(date +%s)
properties:
  description: loopscope busybox test image
  os: busybox
  release: static
  architecture: $ARCH
templates: {}
EOF

tar -C "$WORK" --numeric-owner --owner=0 --group=0 -czf "$WORK/image.tar.gz" metadata.yaml rootfs
echo "incus-image: built $(du -h "$WORK/image.tar.gz" | cut -f1) image"
incus image import "$WORK/image.tar.gz" --alias "$ALIAS" </dev/null
echo "incus-image: imported as '$ALIAS'"
