#!/bin/sh
# Installs the command-line tools the tests call:
# - xmllint (Debian's libxml2-utils) validates `loopscope check --format junit` against
#   test/fixtures/junit.xsd (test/check/check-cli.test.ts);
# - systemd-analyze (Debian's systemd; it verifies unit files without systemd running as init)
#   checks `loopscope real systemd-unit` (test/cli/systemd-unit.test.ts).
# Idempotent: installs only what is missing.
set -eu
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
missing=""
command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
command -v systemd-analyze >/dev/null 2>&1 || missing="$missing systemd"
if [ -n "$missing" ]; then
  # Refresh the package lists only when they are missing (a fresh container) or a package is unknown.
  for p in $missing; do
    if ! apt-cache show "$p" >/dev/null 2>&1; then $SUDO apt-get update; break; fi
  done
  # shellcheck disable=SC2086 # one word per package
  $SUDO apt-get install -y --no-install-recommends $missing
fi
echo "xmllint: $(xmllint --version 2>&1 | head -n 1)"
echo "systemd-analyze: $(systemd-analyze --version | head -n 1)"
command -v spin >/dev/null || $SUDO apt-get install -y --no-install-recommends spin  # bench/spin.ts: the SPIN comparison (bench/explorer.ts's targets)
