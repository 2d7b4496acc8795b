#!/usr/bin/env bash
# Packs loopscope as a user gets it and fills the npm cache with everything installing that tarball
# needs (its dependencies, and vitest, TypeScript and Node's types as a user's project has them), so
# that test/package installs it with `npm install --offline` from an empty directory.
# `npm ci` caches only tarballs and abbreviated metadata; `npm install` asks for full metadata, so the
# cache is filled by one real install into a throwaway directory.
# Prints the two variables test/package reads: LOOPSCOPE_TARBALL=… and LOOPSCOPE_NPM_OFFLINE=1.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d /tmp/loopscope-pack.XXXXXX)}"
mkdir -p "$out"
file=$(npm pack --json --pack-destination "$out" | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8"))[0].filename)')
version() { node -p "require('./node_modules/$1/package.json').version"; }
fill=$(mktemp -d /tmp/loopscope-fill.XXXXXX)
echo '{ "name": "fill", "private": true }' > "$fill/package.json"
# The versions are read here, in the clone: inside the subshell below the cwd is the throwaway directory.
specs=("vitest@$(version vitest)" "typescript@$(version typescript)" "@types/node@$(version @types/node)")
(cd "$fill" && npm install --prefer-offline --no-audit --no-fund "$out/$file" "${specs[@]}" >&2)
rm -rf "$fill"
echo "LOOPSCOPE_TARBALL=$out/$file"
echo "LOOPSCOPE_NPM_OFFLINE=1"
