#!/usr/bin/env bash
# Checks a chart directory (any chart name: a vendored copy renamed acme-nim is fine) with values directories, on
# the tiers asked for, and ends with one table: each values file by each tier, "passed" or the first reason it failed.
# Exit status 0 when everything passed, 1 when anything failed, 2 on a usage error.
#
#   ci/check-chart.sh --chart DIR --values DIR[,DIR...] [--tier offline|api|controllers|startup|all] [--with-repo-examples]
#                     [--fuzz N] [--lint [EXCEPTIONS.yaml]] [--kubeconfig FILE [--cluster-writes]]
#                     [--pod-security privileged|baseline|restricted] [--startup-files GLOB[,GLOB...]] [--maven-offline]
#
#   --chart DIR            the chart (holds Chart.yaml, values.yaml, values.schema.json)
#   --values DIR,...       values directories: their *.yaml files must install, their invalid/*.yaml files must be
#                          refused with the text of their first line, "# expect-error: <text>" (rules: docs/downstream.md,
#                          "For downstream teams")
#   --tier T               the library's tiers (dev.nimchart.ChartCheck.tiers(); the command checks the names):
#                          offline (default): render, schema, strict object checks, refusals, fuzz; no cluster.
#                          api: helm install into a real kube-apiserver. controllers: reconciled by real controllers
#                          on fake GPU nodes. startup: reconciled, then the pods' processes started on this machine
#                          (root, ip netns, sshd, mpirun: ci/install-startup-tools.sh) for the files --startup-files
#                          names. all: every tier. A comma list works too. Every tier runs in one JVM; the cluster
#                          tiers with CI=true: a tier that cannot start fails, it is never skipped.
#   --with-repo-examples   add this repository's values-examples/ (and its invalid/) to the values directories
#   --fuzz N               generated values documents on the offline tier (default 200; 0: none)
#   --lint [FILE]          also judge every valid values file's objects with kube-score and checkov (built by ci/), pods
#                          inside custom resources (LeaderWorkerSet, MPIJob, ...) unwrapped into Pods; a finding FILE does
#                          not document fails that file (format: dev.nimchart.lint.PolicyExceptions). Without FILE no
#                          finding is allowed, unless --with-repo-examples names this repository's own exceptions.
#   --kubeconfig FILE      run the api and controllers tiers on the existing cluster of this kubeconfig instead of
#                          starting one (ci/local-cluster.sh up prints one): the checks create their own namespaces
#                          (labelled nim-chart-tests/made-by) and what goes in them, delete them again, wait up to 15
#                          minutes a release (-Dnim.reconcile.timeout=S through MAVEN_OPTS to change it), and stop nothing
#                          of the cluster. A release that needs a StorageClass, PriorityClass, RuntimeClass or CRD the
#                          cluster lacks fails naming it. Not on it: the start-up tier and the repository's own tests
#                          that need the tier's fake nodes (docs/existing-cluster.md)
#   --cluster-writes       with --kubeconfig: let the checks also create the cluster-scoped objects an administrator
#                          would (CRDs, StorageClasses, PersistentVolumes, PriorityClasses, RuntimeClasses)
#   --pod-security LEVEL   the Pod Security level the cluster tiers' namespaces enforce and warn at: a chart whose pods
#                          promise a level opts in here, and each tier judges it at that level. Default: privileged (what
#                          a namespace without Pod Security labels admits), except for this repository's charts/nim-llm,
#                          whose own level is restricted. A values file declaring its own in its header
#                          ("# pod-security: privileged (why)", before its first key) gets that one
#   --startup-files GLOB   the values files (by file name, comma-separated globs) the start-up tier starts; default none,
#                          except for this repository's charts/nim-llm: its multi-node examples, multi-node-*.yaml
#   --maven-offline        run Maven with -o (no repository look-ups; needs a warm ~/.m2)
#
# Works from any working directory; relative paths are taken from it. A line per verdict is printed as it comes; the
# full log goes to a temporary directory named at the start; nothing of Maven's own output reaches the terminal.
# Maven runs only when the command must be built: the first time, and after a pom, chart-tests' main sources,
# ci/go.mod, ci/crds/ or ci/fetch-crds.sh changed. That run also writes a launcher (chart-tests/target/
# check-chart-launcher: the runtime classpath, chart-tests' classes as a jar, Helm's native library unpacked, a
# class-data archive of the first direct run), and every later run starts the command with java directly, as a tool
# starts: no Maven, a JVM that compiles with C1 only. (NIM_CHECK_CHART_LAUNCHER=DIR puts the launcher elsewhere.)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  sed -n '6,8p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2
  echo "check-chart: $*" >&2
  exit 2
}

chart=""
values=""
tiers="offline"
with_repo=false
fuzz=200
lint=off
kube=false
writes=false
pod_security=""
startup_files=none
mvn_flags=(-B -Dstyle.color=never)
nim_props=() # the command's system properties this run sets (Maven: project properties of exec@check-chart)
while [[ $# -gt 0 ]]; do
  case "$1" in
    --chart) [[ $# -ge 2 ]] || usage "--chart needs a directory"; chart=$2; shift 2 ;;
    --values) [[ $# -ge 2 ]] || usage "--values needs a directory"; values=$2; shift 2 ;;
    --tier) [[ $# -ge 2 ]] || usage "--tier needs tier names, comma-separated, or all (the command knows the tiers: ChartCheck.tiers())"; tiers=$2; shift 2 ;;
    --with-repo-examples) with_repo=true; shift ;;
    --fuzz) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || usage "--fuzz needs a number"; fuzz=$2; shift 2 ;;
    --lint)
      if [[ $# -ge 2 && "$2" != --* ]]; then
        [[ -f "$2" ]] || usage "the exceptions file $2 does not exist"
        lint=$2; shift 2
      else
        lint=none; shift
      fi ;;
    --kubeconfig)
      [[ $# -ge 2 && -f "$2" ]] || usage "--kubeconfig needs an existing kubeconfig file"
      nim_props+=(-Dnim.cluster=kubeconfig "-Dnim.kubeconfig=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); kube=true; shift 2 ;;
    --cluster-writes) writes=true; shift ;;
    --pod-security)
      [[ $# -ge 2 && "$2" =~ ^(privileged|baseline|restricted)$ ]] || usage "--pod-security needs privileged, baseline or restricted"
      pod_security=$2; shift 2 ;;
    --startup-files) [[ $# -ge 2 ]] || usage "--startup-files needs a glob"; startup_files=$2; shift 2 ;;
    --maven-offline) mvn_flags+=(-o); shift ;;
    -h|--help) sed -n '2,50p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown argument: $1" ;;
  esac
done
[[ -n "$chart" ]] || usage "--chart DIR is required"
if [[ "$writes" == true ]]; then
  [[ "$kube" == true ]] || usage "--cluster-writes goes with --kubeconfig"
  nim_props+=(-Dnim.cluster.writes=cluster)
fi
[[ -n "$values" || "$with_repo" == true ]] || usage "--values DIR[,DIR...] is required"

[[ -d "$chart" ]] || usage "the chart directory $chart does not exist"
chart=$(cd "$chart" && pwd)
[[ -f "$chart/Chart.yaml" ]] || usage "$chart is not a Helm chart: it has no Chart.yaml"
if [[ -z "$pod_security" ]]; then
  # nim-llm's own rules: its pods meet restricted. Any other chart is judged as an unlabelled namespace would admit it.
  if [[ "$chart" == "$(cd "$repo/charts/nim-llm" && pwd)" ]]; then pod_security=restricted; else pod_security=privileged; fi
fi
if [[ "$startup_files" == none && "$chart" == "$(cd "$repo/charts/nim-llm" && pwd)" ]]; then
  # nim-llm's own: the start-up tier stands in for the programs of its multi-node pods
  startup_files='multi-node-*'
fi

dirs=()
if [[ "$with_repo" == true ]]; then
  dirs+=("$repo/values-examples")
fi
IFS=',' read -r -a given <<<"$values"
for dir in "${given[@]}"; do
  [[ -n "$dir" ]] || continue
  [[ -d "$dir" ]] || usage "the values directory $dir does not exist"
  dirs+=("$(cd "$dir" && pwd)")
done
[[ ${#dirs[@]} -gt 0 ]] || usage "no values directory given"
if [[ "$lint" == none && "$with_repo" == true ]]; then
  lint="$repo/chart-tests/src/test/resources/dev/nimchart/chart/policy-exceptions.yaml"
fi

# the tier names are the library's (ChartCheck.tiers()): the command refuses one it does not know, naming them (exit 2)
[[ "$tiers" =~ ^[a-z,]+$ ]] || usage "'$tiers' is not a comma-separated list of tier names"
tier_csv=$tiers
values_csv=$(IFS=','; echo "${dirs[*]}")

work=$(mktemp -d "${TMPDIR:-/tmp}/check-chart.XXXXXX")
pom="$repo/chart-tests/pom.xml"
# shellcheck source=ci/launcher.sh
source "$repo/ci/launcher.sh" # $launcher, launcher_current, write_launcher, launcher_java
command_args=(--chart "$chart" --values "$values_csv" --tiers "$tier_csv" --results "$work" --fuzz "$fuzz" --cwd "$PWD"
  --lint "$lint" --pod-security "$pod_security" --startup-files "$startup_files")

# The library's command (dev.nimchart.CheckChart) through Maven, which builds it first when needed (compile, the CRDs),
# and writes the launcher's classpath: every tier asked for runs in that one JVM.
through_maven() {
  CI=true mvn "${mvn_flags[@]}" "${nim_props[@]}" -q -f "$pom" compile exec:exec@check-chart-classpath exec:exec@check-chart \
    -Dnim.launcher.dir="$launcher" -Dnim.chart.dir="$chart" -Dnim.check.values="$values_csv" -Dnim.check.tiers="$tier_csv" \
    -Dnim.check.results="$work" -Dnim.check.fuzz="$fuzz" -Dnim.check.cwd="$PWD" -Dnim.check.lint="$lint" -Dnim.check.podSecurity="$pod_security" \
    -Dnim.check.startupFiles="$startup_files"
}

# The same command with java directly (ci/launcher.sh), with the system properties exec@check-chart gives it.
directly() {
  launcher_defaults=(-Dnim.cluster=auto -Dnim.kubeconfig= -Dnim.cluster.writes=namespaced -Dnim.nodes.file= -Dnim.reconcile.timeout=)
  launcher_java "$work/lookup-stub.kubeconfig" "${nim_props[@]}" dev.nimchart.CheckChart "${command_args[@]}"
}

echo "chart $chart ($(sed -n 's/^name: *//p' "$chart/Chart.yaml" | sed -n 1p)); values: ${dirs[*]}; tiers: $tier_csv; work: $work"
if launcher_current; then
  run=directly
else
  echo "check-chart: building the command with Maven (first run, or chart-tests or a pom changed since the last build)"
  mkdir -p "$launcher"
  touch "$launcher/stamp.$$"
  run=through_maven
fi
"$run" 2>&1 | tee "$work/check.log" \
  | sed -u 's/\x1b\[[0-9;]*m//g' \
  | grep --line-buffered -E '^(  [a-z]+ |[a-z]+ tier \.\.\.$|\[(cluster|controller|startup) tier\] |== chart |\| |all [0-9]+ passed|[0-9]+ of [0-9]+ failed|check-chart: )' || true
if [[ "$run" == through_maven ]]; then
  # the launcher counts as built only when Maven got as far as the command, and only for the inputs as they were at
  # the start of this run
  if [[ -f "$work/status" ]] && write_launcher >>"$work/check.log" 2>&1; then
    mv "$launcher/stamp.$$" "$launcher/stamp"
  else
    rm -f "$launcher/stamp.$$"
  fi
fi
if [[ ! -f "$work/status" && "$run" == directly ]]; then
  echo "check-chart: the checks could not run; the command said:" >&2
  tail -5 "$work/check.log" | sed 's/^/  /' >&2
  echo "  (full log: $work/check.log)" >&2
  exit 1
elif [[ ! -f "$work/status" ]]; then
  echo "check-chart: the checks could not run; the build said:" >&2
  grep -E '^\[ERROR\]' "$work/check.log" | grep -vE '^\[ERROR\] *(->|$|Re-run|For more|\[Help|To see the full)' | sed -n 1,5p | sed 's/^/  /' >&2 || true
  echo "  (full log: $work/check.log)" >&2
  exit 1
fi
exit "$(tr -dc '0-9' <"$work/status")"
