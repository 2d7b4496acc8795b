#!/bin/sh
# Installs Debian's chromium for the browser tests (test/browser) and bench/web.ts.
# Idempotent: does nothing when /usr/bin/chromium is already there.
set -eu
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists only when they are missing (a fresh container) or chromium is unknown.
if ! apt-cache show chromium >/dev/null 2>&1; then $SUDO apt-get update; fi
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
/usr/bin/chromium --version
