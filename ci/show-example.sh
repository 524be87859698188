#!/usr/bin/env bash
# The chart's main job, on real controllers: refuses a values file the chart refuses (schema or preflight) before
# starting anything; otherwise starts the controller tier (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kwok with fake GPU nodes, the LeaderWorkerSet controller and its webhooks, mpi-operator; all built
# from Go modules, the first run on a machine builds them with progress), installs the values file with Helm
# (default: the seed's Llama 3.1 405B LeaderWorkerSet example), waits until the controllers have reconciled it, and
# prints what the release asks for (groups, pods per group with their GPUs and network devices, Services, volumes)
# and what the cluster made of it (the pods, the node each landed on, Ready, the headless Services and the hostname
# of each pod, every Service's endpoints, the claims and their volumes). Then it stops everything.
#
#   ci/show-example.sh [values-file]              install on the controller tier
#   ci/show-example.sh --offline [values-file]    only render (no cluster; default: single-node-minimal)
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
# The program's own messages say why it stopped; Maven's report of the non-zero exit (a stack trace) adds nothing.
mvn -q -B -Dstyle.color=never -f "$root/chart-tests/pom.xml" generate-test-resources exec:exec@"$execution" -Dnim.example="$example" 2>&1 |
  awk '/^org\.apache\.commons\.exec\.ExecuteException/ { quiet = 1 } /^\[ERROR\]/ { next } !quiet { print; fflush() }'

