#!/usr/bin/env bash
# The chart's main job, on an embedded cluster: starts a Kubernetes API server (K3s where Docker can run it,
# else a local etcd + kube-apiserver built from Go modules; the first run on a machine builds it, 6-8 min,
# with progress), installs a values file with Helm (default: the seed's Llama 3.1 405B LeaderWorkerSet
# example), prints what the API server now holds (groups, pods per group with their GPUs and network
# devices, Services and the pods they select, volumes and claims) and tears the cluster down.
#
#   ci/show-example.sh [values-file]              install on the embedded cluster
#   ci/show-example.sh --offline [values-file]    only render (no cluster; default: single-node-minimal)
#
# -Dnim.cluster=local|k3s|auto can be passed through MAVEN_ARGS.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
execution=installed-example
if [[ "${1:-}" == "--offline" ]]; then
  execution=summary
  shift
fi
example=${1:-}
if [[ -n "$example" && "$example" != /* ]]; then
  example="$PWD/$example"
fi
# generate-test-resources fetches the CRDs (ci/fetch-crds.sh) the cluster gets.
exec mvn -q -B -Dstyle.color=never -f "$root/chart-tests/pom.xml" generate-test-resources exec:exec@"$execution" -Dnim.example="$example"
