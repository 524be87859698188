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
#
# Its first line comes at once, and every progress line of the command as it happens (standard error, "[  1.2s] ..."),
# then the picture (standard output), never the two mixed. The command itself writes to the terminal or pipe: no
# filter between them, so no pipe buffers its lines, and no escape codes. It starts as a tool starts: Maven runs only
# to build it, the first time and after a pom, chart-tests' or chart-tools' main sources, ci/go.mod, ci/crds/ or
# ci/fetch-crds.sh changed (its output goes to a log, named when it fails); every run starts the command
# (dev.nimchart.tools.commands in chart-tools) with java directly through the repository commands' launcher, which
# ci/local-cluster.sh uses too (ci/launcher.sh; NIM_COMMANDS_LAUNCHER=DIR puts it elsewhere; NIM_MAVEN_OFFLINE=1 runs
# that Maven with -o).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
main=dev.nimchart.tools.commands.ReconciledExample
what="on the controller tier (real controllers, fake GPU nodes)"
if [[ "${1:-}" == "--offline" ]]; then
  main=dev.nimchart.tools.commands.ChartSummary
  what="rendered only (no cluster)"
  shift
fi
example=${1:-}
if [[ -n "$example" && "$example" != /* ]]; then
  example="$PWD/$example"
fi
echo "show-example: ${example:-the default example} $what" >&2

# shellcheck source=ci/launcher.sh
source "$repo/ci/launcher.sh" # use_commands_launcher, ensure_commands_launcher, launcher_java
use_commands_launcher
ensure_commands_launcher show-example || exit 1
launcher_defaults=("-Dnim.chart.dir=$repo/charts/nim-llm" "-Dnim.examples.dir=$repo/values-examples" -Dnim.cluster=auto)
mkdir -p "$launcher_cwd/target"
launcher_java "$launcher_cwd/target/lookup-stub.kubeconfig" "$main" "$example"
