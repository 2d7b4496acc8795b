#!/bin/sh
# Installs the command-line tools the tests call: xmllint (Debian's libxml2-utils) validates
# `loopscope check --format junit` against test/fixtures/junit.xsd (test/check/check-cli.test.ts).
# Idempotent: does nothing when xmllint is already there.
set -eu
if command -v xmllint >/dev/null 2>&1; then
  echo "xmllint: $(xmllint --version 2>&1 | head -n 1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists only when they are missing (a fresh container) or the package is unknown.
if ! apt-cache show libxml2-utils >/dev/null 2>&1; then $SUDO apt-get update; fi
$SUDO apt-get install -y --no-install-recommends libxml2-utils
xmllint --version 2>&1 | head -n 1
