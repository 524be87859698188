#!/usr/bin/env bash
# Starts the controller tier's cluster on this machine and leaves it running, to check charts on as on any cluster
# the checks did not start: kube-apiserver and etcd, kube-controller-manager, kube-scheduler, kwok with the fake GPU
# node pools, the LeaderWorkerSet controller (with its webhooks) and mpi-operator, built from Go modules by the ci/
# scripts on first use. Prints the kubeconfig's path once everything is ready. Its command is chart-tools'
# dev.nimchart.tools.commands.LocalCluster, started with java on the launcher ci/show-example.sh uses too (ci/launcher.sh:
# built by Maven the first time and after a pom or a module's main sources changed; NIM_COMMANDS_LAUNCHER=DIR puts it
# elsewhere, NIM_MAVEN_OFFLINE=1 runs that Maven with -o).
#
#   ci/local-cluster.sh up      start it (in the background; its log: chart-tests/target/local-cluster/cluster.log)
#   ci/local-cluster.sh down    stop it (every process it started)
#   ci/local-cluster.sh status  say whether it runs, and its kubeconfig
#
# Then, e.g.: ci/check-chart.sh --chart charts/nim-llm --with-repo-examples --tier api,controllers \
#               --kubeconfig chart-tests/target/local-cluster/kubeconfig --cluster-writes
# It runs beside a `mvn verify` on the same machine: every tier chooses its own ports.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo=$root
dir="$root/chart-tests/target/local-cluster"
pidfile="$dir/pid"
kubeconfig="$dir/kubeconfig"

running() {
  [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

case "${1:-}" in
  up)
    if running; then
      echo "already running (pid $(cat "$pidfile")); kubeconfig: $kubeconfig"
      exit 0
    fi
    mkdir -p "$dir"
    rm -f "$kubeconfig"
    # shellcheck source=ci/launcher.sh
    source "$root/ci/launcher.sh" # use_commands_launcher, ensure_commands_launcher, $launcher, $launcher_cwd
    use_commands_launcher
    ensure_commands_launcher local-cluster || exit 1
    cd "$launcher_cwd"
    # setsid: its own session, so a terminal closing does not stop it; `down` sends SIGTERM and its shutdown hook
    # stops the processes it started (each is also under a watchdog that stops it when the JVM is gone).
    setsid nohup java -cp "$(cat "$launcher/launch-classpath")" -Dnim.ci.dir="$root/ci" \
      "-Dnim.crds.dir=$root/chart-tests/target/classes/dev/nimchart/checks/crds" \
      dev.nimchart.tools.commands.LocalCluster "$kubeconfig" >"$dir/cluster.log" 2>&1 </dev/null &
    echo $! >"$pidfile"
    echo "starting (pid $!; log $dir/cluster.log) ..."
    for _ in $(seq 1 3600); do
      if [[ -f "$kubeconfig" ]]; then
        grep -E '\] (controller tier ready|ready:)' "$dir/cluster.log" | sed 's/^/  /'
        echo "kubeconfig: $kubeconfig"
        exit 0
      fi
      if ! running; then
        echo "local-cluster: it stopped before it was ready:" >&2
        tail -20 "$dir/cluster.log" >&2
        exit 1
      fi
      sleep 1
    done
    echo "local-cluster: not ready within an hour; see $dir/cluster.log" >&2
    exit 1
    ;;
  down)
    if ! running; then
      echo "not running"
      rm -f "$pidfile"
      exit 0
    fi
    pid=$(cat "$pidfile")
    kill -TERM "$pid"
    for _ in $(seq 1 60); do
      kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile" "$kubeconfig"; echo "stopped"; exit 0; }
      sleep 1
    done
    echo "local-cluster: pid $pid did not stop within 60 s" >&2
    exit 1
    ;;
  status)
    if running; then echo "running (pid $(cat "$pidfile")); kubeconfig: $kubeconfig"; else echo "not running"; exit 1; fi
    ;;
  *)
    sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
