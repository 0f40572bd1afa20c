#!/usr/bin/env bash
# The site's reference pages are rendered from what the code publishes: the settings catalogue
# (bootstrap/target/site-data/settings.json) and the tools/list descriptors with the error codes
# (adapters-mcp/target/site-data/tools.json). ./test.sh writes both (SettingsReferenceExportTest,
# ToolReferenceExportTest); this runs just those two tests when a file is missing, or always with --force.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
settings="$root/bootstrap/target/site-data/settings.json"
tools="$root/adapters-mcp/target/site-data/tools.json"
if [ "${1:-}" != "--force" ] && [ -f "$settings" ] && [ -f "$tools" ]; then
  exit 0
fi
echo "site: rendering the reference data from the code (Maven: SettingsReferenceExportTest, ToolReferenceExportTest)"
# shellcheck source=../../scripts/jdk.sh
. "$root/scripts/jdk.sh"
java_home=$(serverfs_find_jdk)
serverfs_require_maven
cd "$root"
JAVA_HOME="$java_home" mvn -B -ntp -q -pl bootstrap -am test \
  -Dtest='SettingsReferenceExportTest,ToolReferenceExportTest' -Dsurefire.failIfNoSpecifiedTests=false \
  -Dspotless.check.skip=true ${SERVERFS_SITE_MAVEN_ARGS:-}
[ -f "$settings" ] && [ -f "$tools" ] || { echo "site: the reference data was not written" >&2; exit 1; }
