#!/usr/bin/env bash
# Rewrites the generated part of docs/layout.md (every Java package of the build, with the first sentence of its
# package-info.java and its classes; every ci/*.sh with the first line of its header) from the code. LayoutDocTest
# (chart-tools) fails when the two disagree.
#   ci/layout-doc.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec mvn -q -B -Dstyle.color=never -f "$root/pom.xml" -pl chart-tools -am compile exec:exec@layout-doc
