#!/usr/bin/env bash
# Benchmarks: how fast the suite proves the chart, side by side with the usual `helm template | kubeconform`
# pipeline (in one JVM, and end to end as commands: ci/check-chart.sh --tier offline against the two tools in a script,
# in turn, with what the fuzz adds), the cluster and controller tiers' timings, a workers x replicas scale sweep, and
# the start-up tier's time from starting a multi-node group's processes to its serving pod's readiness (min/median/max
# per example; needs root and ip netns, else the report says why it was not measured). Prints the figures and writes
# chart-tools/target/benchmark/{report.md,figures.tsv}; records them in benchmarks/figures.tsv (each section this
# run measured replaces the recorded one) and regenerates docs/benchmarks.md's measured table from that record.
#
#   ci/benchmark.sh [--offline] [--verify] [--cold | --cold-results DIR] [--faults] [--agreement] [--epp] [--gpu-results DIR]
#                   [--show-example] [-Dnim.bench.runs=N ...]
#
#   --offline only the offline side by side, in one JVM and as commands (the other sections keep their recorded figures)
#   --verify  also time a whole `mvn -B verify` with warm caches (every tier: minutes on 2 cores)
#   --cold    also time the README's two commands (ci/show-example.sh, then mvn -B verify) on a fresh clone with
#             every cache empty, as a fresh machine runs them (ci/cold-run.sh; about an hour on 2 cores; needs the
#             network to Maven Central, the Go module proxy and PyPI); the report also gives each build script's own
#             time from those runs' logs
#   --cold-results DIR  record a cold run ci/cold-run.sh DIR made before (on this or another machine) instead of
#             running one
#   --agreement also run the differential fuzz (chart-tests' ChartValidatorAgreementIT) at a large budget:
#             NIM_AGREEMENT_SECONDS (default 150) of documents with its fixed seed; its summary (documents tried and per
#             second, escapes, false refusals, explained escapes) goes to chart-tools/target/benchmark/agreement.txt
#   --faults  also run the fault suite (chart-tests' FaultIT: every fault injected once with the fixed seed, about
#             3 min on 2 cores) and report faults injected, faults survived and the time to recover per fault
#             (median and worst), from that run's record (chart-tests/target/it-fork-1/target/faults/faults.tsv)
#   --epp     also run the endpoint picker test (chart-tests' EndpointPickerIT: the real GAIE endpoint picker with the
#             chart's arguments and config, on the controller tier) with NIM_EPP_REQUESTS (default 1000) idle requests,
#             and report the picker's decision latency (p50, p99, worst: request headers and body sent to its answer to
#             the headers, over ext_proc with the chart's default TLS), from that run's record (decisions.tsv)
#   --gpu-results DIR  only the GPU check's figures, from the result.json files (any *.json) in DIR that `DIR/run`
#             (ci/gpu-check.sh --bundle) wrote on GPU hosts and that were carried back: per card and values file the whole
#             run, the time to Ready, the engine's own start and the chat completion's tokens per second
#   --show-example  only the README's first command again on a warm machine: ci/show-example.sh (the default example)
#             once to warm up, then NIM_SHOW_EXAMPLE_RUNS (default 5) timed runs as a user starts it, end to end
# Other arguments go to Maven (e.g. -Dnim.bench.runs=9, -Dnim.cluster=local, -Dnim.bench.only=startup to measure only
# the start-up section: offline, cluster, controllers, startup, verify; the record keeps what this run did not measure).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/chart-tools/target/benchmark"
verify=false
cold=false
cold_results=""
faults=false
agreement=false
epp=false
gpu_results=""
show_example=false
maven_args=()
while (($#)); do
  a=$1
  shift
  case "$a" in
    --gpu-results)
      [[ -d "${1:-}" ]] || { echo "benchmark: --gpu-results needs a directory of result.json files from DIR/run" >&2; exit 2; }
      gpu_results=$(cd "$1" && pwd)
      shift
      maven_args+=(-Dnim.bench.only=gpu) ;;
    --offline) maven_args+=(-Dnim.bench.only=offline) ;;
    --verify) verify=true ;;
    --cold) cold=true ;;
    --cold-results)
      [[ -f "${1:-}/times.tsv" ]] || { echo "benchmark: --cold-results needs the directory of a ci/cold-run.sh run (with times.tsv)" >&2; exit 2; }
      cold_results=$(cd "$1" && pwd)
      shift ;;
    --faults) faults=true ;;
    --agreement) agreement=true ;;
    --epp) epp=true ;;
    --show-example) show_example=true; maven_args+=(-Dnim.bench.only=show-example) ;;
    *) maven_args+=("$a") ;;
  esac
done

# Milliseconds a command takes, its output kept in a log next to the report.
timed() { # name command...
  local name="$1" start end
  shift
  echo "timing $name: $*" >&2
  start=$(date +%s%N)
  "$@" >"$out/$name.log" 2>&1 || {
    echo "$name failed, see $out/$name.log" >&2
    exit 1
  }
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

mkdir -p "$out"
verify_figures="$out/verify.tsv"
: >"$verify_figures.new"
# Busy CPU time of the whole machine so far, in milliseconds (both cores; /proc/stat's user, nice, system, irq,
# softirq and steal, in USER_HZ ticks of 10 ms).
busy_ms() { awk '$1 == "cpu" {print ($2 + $3 + $4 + $7 + $8 + $9) * 10}' /proc/stat; }
if $verify; then
  busy_before=$(busy_ms)
  echo -e "warm\t$(timed verify-warm mvn -B -f "$root/pom.xml" verify)" >>"$verify_figures.new"
  echo -e "warm-machine-cpu\t$(($(busy_ms) - busy_before))" >>"$verify_figures.new"
fi
cold_scratch=""
if $cold && [[ -z "$cold_results" ]]; then
  cold_scratch=$(mktemp -d)
  cold_results=$cold_scratch/run
  echo "timing the README's two commands on a fresh clone with every cache empty (ci/cold-run.sh $cold_results)" >&2
  "$root/ci/cold-run.sh" "$cold_results" || echo "the cold run failed; see $cold_results" >&2
fi
if [[ -n "$cold_results" ]]; then
  # The cold run's figures: both commands must have ended green, else there is nothing to record.
  for name in show-example verify; do
    line=$(awk -F'\t' -v n="$name" '$1 == n' "$cold_results/times.tsv" 2>/dev/null || true)
    [[ -n "$line" && "$(cut -f3 <<<"$line")" == 0 ]] || {
      echo "benchmark: the cold run in $cold_results did not end green ($name: ${line:-not run}); nothing recorded" >&2
      exit 1
    }
  done
  echo -e "cold-show-example\t$(awk -F'\t' '$1 == "show-example" {print $2}' "$cold_results/times.tsv")" >>"$verify_figures.new"
  echo -e "cold\t$(awk -F'\t' '$1 == "verify" {print $2}' "$cold_results/times.tsv")" >>"$verify_figures.new"
  cp "$cold_results/show-example.log" "$out/show-example-cold.log"
  cp "$cold_results/verify.log" "$out/verify-cold.log"
  cp "$cold_results/head.txt" "$out/cold-head.txt"
fi
if [[ -n "$cold_scratch" ]]; then
  # Go's module cache is read-only; the clone and its caches are gigabytes.
  chmod -R u+w "$cold_scratch" && rm -rf "$cold_scratch"
fi
if [[ -s "$verify_figures.new" ]]; then
  mv "$verify_figures.new" "$verify_figures"
else
  # Not measured in this run: no figure of an older run may pass for this one's.
  rm -f "$verify_figures.new" "$verify_figures"
fi

rm -f "$out/agreement.txt"
if $agreement; then
  # The chart against the real validators with a budget of NIM_AGREEMENT_SECONDS (mvn verify gives it a few seconds):
  # failsafe's ChartValidatorAgreementIT alone, in one fork; its summary line is the figure.
  echo "running the differential fuzz (ChartValidatorAgreementIT), log in $out/agreement.log" >&2
  mvn -B -f "$root/pom.xml" -pl chart-tests -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=ChartValidatorAgreementIT -Dnim.it.forks=1 "-Dnim.agreement.seconds=${NIM_AGREEMENT_SECONDS:-150}" -Dnim.agreement.pickerStarts=40 \
    >"$out/agreement.log" 2>&1 || echo "the differential fuzz failed; see $out/agreement.log" >&2
  grep -E '^(chart/validator agreement|refusal corpus against the validators):' "$out/agreement.log" | tee "$out/agreement.txt" >&2 || true
fi

rm -f "$out/faults.tsv" "$out/faults-suite.tsv"
if $faults; then
  # Only the fault suite: no unit tests, failsafe's FaultIT alone. A fault that is not survived is a figure (survived <
  # injected), reported below, not a reason to stop; the suite's log says what failed.
  # Failsafe runs FaultIT in a forked JVM whose working directory is chart-tests/target/it-fork-1.
  faults_record="$root/chart-tests/target/it-fork-1/target/faults/faults.tsv"
  rm -f "$faults_record"
  echo "running the fault suite (FaultIT), log in $out/fault-suite.log" >&2
  start=$(date +%s%N)
  mvn -B -f "$root/pom.xml" -pl chart-tests -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=FaultIT \
    >"$out/fault-suite.log" 2>&1 || echo "the fault suite failed; see $out/fault-suite.log" >&2
  echo $((($(date +%s%N) - start) / 1000000)) >"$out/faults-suite.tsv"
  if [[ -f "$faults_record" ]]; then
    cp "$faults_record" "$out/faults.tsv"
  fi
fi

rm -rf "$out/gpu"
if [[ -n "$gpu_results" ]]; then
  mkdir -p "$out/gpu"
  cp "$gpu_results"/*.json "$out/gpu/" 2>/dev/null || { echo "benchmark: no *.json in $gpu_results" >&2; exit 2; }
fi

rm -f "$out/epp.tsv"
if $epp; then
  # EndpointPickerIT alone, in one fork (working directory chart-tests/target/it-fork-1); a failure leaves no record.
  epp_record="$root/chart-tests/target/it-fork-1/target/endpoint-picker/decisions.tsv"
  rm -f "$epp_record"
  echo "running the endpoint picker test (EndpointPickerIT), log in $out/epp.log" >&2
  mvn -B -f "$root/pom.xml" -pl chart-tests -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=EndpointPickerIT \
    -Dnim.it.forks=1 "-Dnim.epp.requests=${NIM_EPP_REQUESTS:-1000}" >"$out/epp.log" 2>&1 ||
    echo "the endpoint picker test failed; see $out/epp.log" >&2
  if [[ -f "$epp_record" ]]; then
    cp "$epp_record" "$out/epp.tsv"
  fi
fi

rm -f "$out/show-example.tsv"
if $show_example; then
  # The command as a user starts it, warm: the first run may build its launcher and is not timed.
  echo "timing ci/show-example.sh (a warm-up, then ${NIM_SHOW_EXAMPLE_RUNS:-5} runs), logs in $out/show-example-*.log" >&2
  "$root/ci/show-example.sh" >"$out/show-example-warm-up.log" 2>&1 || { echo "ci/show-example.sh failed; see $out/show-example-warm-up.log" >&2; exit 1; }
  for ((i = 1; i <= ${NIM_SHOW_EXAMPLE_RUNS:-5}; i++)); do
    echo "$(timed "show-example-$i" "$root/ci/show-example.sh")" >>"$out/show-example.tsv"
  done
fi

exec mvn -q -B -Dstyle.color=never -f "$root/pom.xml" -pl chart-tools -am generate-test-resources exec:exec@benchmark "${maven_args[@]}"
