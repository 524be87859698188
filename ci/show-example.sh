#!/usr/bin/env bash
# The chart's main job on an embedded default: render a values file (default: the minimal
# single-node example) and print what the release would create: workloads, pods and their
# GPUs and network devices, volumes and claims, and the pods each Service selects.
#   ci/show-example.sh [values-file]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
example=${1:-$root/values-examples/single-node-minimal.yaml}
[[ "$example" = /* ]] || example="$PWD/$example"
exec mvn -q -B -Dstyle.color=never -f "$root/chart-tests/pom.xml" compile exec:exec@summary -Dnim.example="$example"
