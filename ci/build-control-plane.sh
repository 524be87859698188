#!/usr/bin/env bash
# Builds a local Kubernetes control plane (etcd, kube-apiserver, kubectl) from
# the upstream Go modules through the Go module proxy, for the test tiers that
# start a real API server as local processes (no container images needed).
#
#   ci/build-control-plane.sh [--print-dir] [KUBE_VERSION]      e.g. 1.34.10 or v1.34.10
#
# With --print-dir its last line on stdout is the version's directory (the build scripts' contract:
# ci/build-scripts.properties, dev.nimchart.settings.BuildScripts).
#
# Default version: the k8s.io/kubernetes pin in ci/control-plane/kubernetes/go.mod
# (etcd: the pin in ci/control-plane/etcd/go.mod). Those two modules, with their
# go.sum files, are the version truth and are built read-only. The other
# versions the tests run (the oldest the chart claims) have committed modules of
# the same shape in ci/control-plane/v<version>/{kubernetes,etcd}, also built
# read-only. Any other KUBE_VERSION is built from temporary modules written on
# the fly in the same shape (staging modules at the matching v0.X.Y, etcd at the
# version that Kubernetes release uses); that needs the proxy to serve all of them.
#
# Output (all three binaries are required):
#   ${NIM_CONTROL_PLANE_DIR:-$HOME/.cache/nim-llm-chart/control-plane}/<version>-<os>-<arch>/{etcd,kube-apiserver,kubectl}
# e.g. ~/.cache/nim-llm-chart/control-plane/1.34.10-linux-amd64. Binaries never
# go into the repo.
# A complete, working directory is reused as is: a warm run takes ~0.1 s and
# needs neither Go nor the network. The cache is keyed by version only: delete
# the directory to force a rebuild.
#
# Cost (1.34.10, 2 cores, Go 1.26): with empty Go caches 6-8 min (~35 s download,
# then compiling etcd ~1 min, kube-apiserver 4-5 min, kubectl ~0.5 min), leaving
# ~0.7 GB in GOMODCACHE and ~2.5 GB in GOCACHE; with warm Go caches ~12 s.
# Binaries: etcd 25 MiB, kube-apiserver 97 MiB, kubectl 58 MiB. Set GOMODCACHE
# and GOCACHE to keep the Go caches elsewhere. The suite builds two versions
# (1.37.2, the pin, and 1.34.10: docs/tiers.md, "Kubernetes versions"), so a
# fresh machine pays this twice; 1.37.2 on a machine starved by ~8 parallel
# builds (load average 40-50): etcd 14 min, kube-apiserver over 70 min.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
modules_dir="${script_dir}/control-plane"
kube_mod_dir="${modules_dir}/kubernetes"
etcd_mod_dir="${modules_dir}/etcd"

die() {
  echo "build-control-plane: ERROR: $*" >&2
  exit 1
}

# log and run_step: progress lines and long steps that show they are alive.
source "${script_dir}/lib/steps.sh"

# Prints the version that go.mod file $1 requires for module $2 (no Go needed).
pinned_version() {
  sed -nE "s#^[[:space:]]*(require[[:space:]]+)?${2//./\\.} (v[0-9][^ ]*).*#\\2#p" "$1" | sed -n 1p
}

# ---------------------------------------------------------------------------
# Version and output directory
# ---------------------------------------------------------------------------
default_kube="$(pinned_version "${kube_mod_dir}/go.mod" k8s.io/kubernetes)"
default_etcd="$(pinned_version "${etcd_mod_dir}/go.mod" go.etcd.io/etcd/server/v3)"
[[ -n "${default_kube}" && -n "${default_etcd}" ]] ||
  die "cannot read the pinned versions from ${kube_mod_dir}/go.mod and ${etcd_mod_dir}/go.mod"

print_dir=false
if [[ "${1:-}" == --print-dir ]]; then
  print_dir=true
  shift
fi
requested="${1:-${default_kube}}"
[[ "${requested}" =~ ^v?([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] ||
  die "KUBE_VERSION must look like 1.34.10 (got '${requested}')"
kube_major="${BASH_REMATCH[1]}"
kube_minor="${BASH_REMATCH[2]}"
kube_patch="${BASH_REMATCH[3]}"
version="${kube_major}.${kube_minor}.${kube_patch}" # directory name: no "v"
kube_tag="v${version}"                              # k8s.io/kubernetes module version
staging_tag="v0.${kube_minor}.${kube_patch}"        # k8s.io/* staging module version

# Platform suffix of the output directory.
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) die "unsupported OS $(uname -s) (the control plane runs on Linux or macOS)" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  ppc64le) arch=ppc64le ;;
  *) die "unsupported CPU architecture $(uname -m)" ;;
esac

k8s_dir="${NIM_CONTROL_PLANE_DIR:-${HOME}/.cache/nim-llm-chart/control-plane}"
dest="${k8s_dir}/${version}-${os}-${arch}"
binaries=(etcd kube-apiserver kubectl)

# done_at HOW: the last lines of a successful run (cached or built), then exit 0.
done_at() {
  echo "control plane ${version} $1 at ${dest}"
  if [[ "${print_dir}" == true ]]; then
    echo "${dest}"
  fi
  exit 0
}

# True when $1 holds all three binaries, each runs `--version`, and
# kube-apiserver reports the expected Kubernetes version.
complete_in() {
  local dir="$1" b
  for b in "${binaries[@]}"; do
    [[ -x "${dir}/${b}" ]] || return 1
  done
  "${dir}/etcd" --version >/dev/null 2>&1 || return 1
  "${dir}/kubectl" version --client >/dev/null 2>&1 || return 1
  [[ "$("${dir}/kube-apiserver" --version 2>/dev/null)" == "Kubernetes ${kube_tag}" ]] || return 1
}

# ---------------------------------------------------------------------------
# Warm cache: nothing to do
# ---------------------------------------------------------------------------
if complete_in "${dest}"; then
  done_at cached
fi

mkdir -p "${k8s_dir}"
# One build of a version at a time (e.g. parallel CI jobs on one machine); the
# loser of the race finds the winner's binaries. Two versions build side by side.
hold_lock "${k8s_dir}/.build-control-plane-${version}.lock"
if complete_in "${dest}"; then
  done_at cached
fi

command -v go >/dev/null 2>&1 ||
  die "'go' is not on PATH. Install Go 1.26 or newer (https://go.dev/dl/) and run this script again;
the modules come from the Go module proxy (GOPROXY), so no other network access is needed."

# Our settings win over the user's environment: read-only modules (the
# committed go.mod/go.sum are the truth), no VCS stamping, no go.work, static
# binaries. GOPROXY, GOSUMDB, GOMODCACHE and GOCACHE are the user's.
export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0
export GOOS="${os}" GOARCH="${arch}"

log "building Kubernetes control plane ${version} (etcd, kube-apiserver, kubectl) with $(go version | cut -d' ' -f3)"
log "output:       ${dest}"
log "module cache: $(go env GOMODCACHE)   build cache: $(go env GOCACHE)   proxy: $(go env GOPROXY)"

work="$(mktemp -d)"
out="$(mktemp -d "${k8s_dir}/.tmp-${version}.XXXXXX")"
cleanup() { rm -rf "${work}" "${out}"; }
trap cleanup EXIT

proxy_hint="Check that the Go module proxy is reachable (GOPROXY=$(go env GOPROXY)) and serves these module
versions and their checksums (GOSUMDB=$(go env GOSUMDB)). If one version is missing there, pick a Kubernetes
version it serves: ci/build-control-plane.sh ${default_kube#v} is the pinned one."

# go_in DIR ARGS...: runs `go ARGS...` in DIR.
go_in() {
  local dir="$1"
  shift
  (cd "${dir}" && go "$@")
}

# ---------------------------------------------------------------------------
# Module directories: the committed ones, or re-pinned copies for another version
# ---------------------------------------------------------------------------
kube_src="${kube_mod_dir}"
etcd_src="${etcd_mod_dir}"
etcd_tag="${default_etcd}"
committed_dir="${modules_dir}/${kube_tag}"
if [[ "${kube_tag}" != "${default_kube}" && -f "${committed_dir}/kubernetes/go.mod" ]]; then
  kube_src="${committed_dir}/kubernetes"
  etcd_src="${committed_dir}/etcd"
  etcd_tag="$(pinned_version "${etcd_src}/go.mod" go.etcd.io/etcd/server/v3)"
  [[ "$(pinned_version "${kube_src}/go.mod" k8s.io/kubernetes)" == "${kube_tag}" && -n "${etcd_tag}" ]] ||
    die "${committed_dir} does not pin k8s.io/kubernetes ${kube_tag} and an etcd server"
  log "${kube_tag}: the committed modules of ${committed_dir}"
elif [[ "${kube_tag}" != "${default_kube}" ]]; then
  log "${kube_tag} is not the pinned ${default_kube}: writing temporary modules pinned to it"
  kube_src="${work}/kubernetes"
  etcd_src="${work}/etcd"
  mkdir -p "${kube_src}" "${etcd_src}"
  cp "${etcd_mod_dir}/main.go" "${etcd_src}/"

  # Prints the cache directory of module@version $1, downloading it if needed.
  module_dir() {
    local json dir
    json="$(cd "${work}" && go mod download -json "$1" 2>&1)" || true
    dir="$(sed -nE 's/^[[:space:]]*"Dir": "(.*)",?$/\1/p' <<<"${json}")"
    if [[ -z "${dir}" || ! -d "${dir}" ]]; then
      grep -E '"Error"|^go: ' <<<"${json}" >&2 || true
      die "the Go module proxy did not serve $1. ${proxy_hint}"
    fi
    echo "${dir}"
  }

  # The k8s.io/kubernetes module itself tells which staging modules exist, its
  # go and godebug lines, and which etcd the release runs with (hack/lib/etcd.sh,
  # the version its own integration tests use).
  kube_dir="$(module_dir "k8s.io/kubernetes@${kube_tag}")"
  etcd_tag="v$(sed -nE 's/^ETCD_VERSION=\$\{ETCD_VERSION:-([0-9.]+)\}.*/\1/p' "${kube_dir}/hack/lib/etcd.sh")"
  [[ "${etcd_tag}" != "v" ]] || die "cannot find ETCD_VERSION in ${kube_dir}/hack/lib/etcd.sh"
  etcd_dir="$(module_dir "go.etcd.io/etcd/server/v3@${etcd_tag}")"

  # Fresh go.mod files (no requirements carried over from the pinned version,
  # which would raise this release's dependencies): the same shape as the
  # committed ones. Every staging module (those k8s.io/kubernetes replaces with
  # ./staging/src/...) is replaced with its published v0.X.Y; unused replaces
  # cost nothing.
  {
    echo "module nimchart.local/ci/control-plane/kubernetes"
    grep -E '^(go|godebug) ' "${kube_dir}/go.mod"
  } >"${kube_src}/go.mod"
  edits=("-require=k8s.io/kubernetes@${kube_tag}"
    -tool=k8s.io/kubernetes/cmd/kube-apiserver -tool=k8s.io/kubernetes/cmd/kubectl)
  while read -r m; do
    edits+=("-replace=${m}=${m}@${staging_tag}")
  done < <(sed -nE 's#^[[:space:]]*(replace[[:space:]]+)?(k8s\.io/[a-z0-9-]+) => \./staging/.*#\2#p' "${kube_dir}/go.mod")
  go_in "${kube_src}" mod edit "${edits[@]}"
  {
    echo "module nimchart.local/ci/control-plane/etcd"
    grep -E '^go ' "${etcd_dir}/go.mod"
  } >"${etcd_src}/go.mod"
  go_in "${etcd_src}" mod edit "-require=go.etcd.io/etcd/server/v3@${etcd_tag}"

  tidy_both() { go_in "${kube_src}" mod tidy && go_in "${etcd_src}" mod tidy; }
  GOFLAGS="-mod=mod -buildvcs=false" run_step "resolving modules for ${kube_tag} / etcd ${etcd_tag} (go mod tidy)" tidy_both ||
    die "could not resolve the modules of Kubernetes ${kube_tag} / etcd ${etcd_tag}. ${proxy_hint}"
fi

# ---------------------------------------------------------------------------
# Download (separately from compiling, so a proxy failure says so)
# ---------------------------------------------------------------------------
run_step "downloading modules for etcd ${etcd_tag}" \
  go_in "${etcd_src}" mod download ||
  die "downloading the etcd modules failed (see above). ${proxy_hint}"
run_step "downloading modules for Kubernetes ${kube_tag}" \
  go_in "${kube_src}" mod download ||
  die "downloading the Kubernetes modules failed (see above). ${proxy_hint}"

# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------
# Version stamps (ci/lib/steps.sh); the build date is the module's publication time.
build_date="$(go_in "${kube_src}" list -m -f '{{with .Time}}{{.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' k8s.io/kubernetes)"
kube_flags="$(kube_ldflags "${kube_tag}" "${build_date}")"

build_started="${SECONDS}"
run_step "building etcd ${etcd_tag}" \
  go_in "${etcd_src}" build -trimpath -ldflags "-s -w" -o "${out}/etcd" . ||
  die "building etcd failed (see above)."
run_step "building kube-apiserver ${kube_tag}" \
  go_in "${kube_src}" build -trimpath -ldflags "${kube_flags}" -o "${out}/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver ||
  die "building kube-apiserver failed (see above)."
run_step "building kubectl ${kube_tag}" \
  go_in "${kube_src}" build -trimpath -ldflags "${kube_flags}" -o "${out}/kubectl" k8s.io/kubernetes/cmd/kubectl ||
  die "building kubectl failed (see above)."

complete_in "${out}" ||
  die "the built binaries in ${out} do not run or report the wrong version ($("${out}/kube-apiserver" --version 2>&1 || true))"

# Publish atomically: no test ever sees a half-filled version directory.
rm -rf "${dest}"
mv "${out}" "${dest}"
chmod 755 "${dest}"

log "built in $((SECONDS - build_started))s (compile only), $((SECONDS))s in total:"
for b in "${binaries[@]}"; do
  printf '         %-15s %4s MiB\n' "${b}" "$(($(stat -c %s "${dest}/${b}" 2>/dev/null || stat -f %z "${dest}/${b}") / 1048576))"
done
"${dest}/kube-apiserver" --version | sed 's/^/         /'
"${dest}/etcd" --version | sed -n '1s/^/         /p' # sed reads every line: head would leave etcd (four writes) to die of SIGPIPE, failing the script under pipefail
done_at built
