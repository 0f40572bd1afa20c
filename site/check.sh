#!/usr/bin/env bash
# CI step for the documentation site (.ci/run runs it after ./test.sh, which wrote the reference data): installs the
# pinned npm packages into site/node_modules, runs the checks' own tests, builds the site (which fails on a broken
# internal link or anchor, a missing translation, an asset from another host, or a .env.example variable missing from
# the configuration pages), then loads it in a headless Debian Chromium. Where no Chromium can be installed, the
# browser check is skipped with one line; every other failure fails this script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
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
