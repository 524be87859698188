#!/usr/bin/env bash
# Builds the Gateway API Inference Extension's endpoint picker (EPP), cmd/epp of
# sigs.k8s.io/gateway-api-inference-extension at the version ci/go.mod pins (the
# version of the InferencePool CRD the tests install, and of the chart's default
# EPP image), from its Go module through the Go module proxy:
#
#   ci/build-epp.sh [--print-path]
#
# Output, cached outside the repo and keyed by version (never committed):
#   ${NIM_EPP_DIR:-$HOME/.cache/nim-llm-chart/epp}/epp-<version>/epp
# The directory is moved into place complete, so the binary's presence is the
# cache check (warm: no Go, no network). With --print-path only the binary's path
# goes to stdout. Like ci/build-controllers.sh the module is fetched with
# `go mod download` and built read-only inside its module directory with its own
# go.sum (`go install M@V` reads the version list, which the proxy may refuse).
# Run on first use by chart-tests' EndpointPickerIT (so a cold `mvn verify` builds it once; with CI=true a failed
# build fails that test), and by hand (docs/routing-and-autoscaling.md).
# Measured here (2 shared cores, Go 1.26.8, module cache and Kubernetes build cache warm from the
# controller tier's builds): 517 s cold (3 min user CPU), 0.02 s warm; an 83 MB binary.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${NIM_EPP_DIR:-${HOME}/.cache/nim-llm-chart/epp}"
print_path=false
[[ "${1:-}" == "--print-path" ]] && print_path=true

die() {
  echo "build-epp: ERROR: $*" >&2
  exit 1
}
source "${script_dir}/lib/steps.sh"

module=sigs.k8s.io/gateway-api-inference-extension
tag="$(sed -nE "s#^[[:space:]]*(require[[:space:]]+)?${module//./\\.} (v[0-9][^ ]*).*#\\2#p" "${script_dir}/go.mod" | head -n 1)"
[[ -n "${tag}" ]] || die "no 'require ${module} <version>' line in ci/go.mod"
dest="${cache}/epp-${tag}"

finish() {
  if ${print_path}; then echo "${dest}/epp"; else log "endpoint picker: ${dest}/epp"; fi
}
[[ -x "${dest}/epp" ]] && { finish; exit 0; }

command -v go >/dev/null 2>&1 || die "'go' is not on PATH (needed once to build the endpoint picker)."
hold_lock "${cache}/.build.lock"
[[ -x "${dest}/epp" ]] && { finish; exit 0; }

export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0 GOTOOLCHAIN=local
json="$(mktemp)"
trap 'rm -f "${json}" "${json}.err"' EXIT
run_step "downloading ${module}@${tag}" go_mod_download_json "${json}" "${module}@${tag}" || die "go mod download failed"
dir="$(sed -nE 's#^[[:space:]]*"Dir": "(.*)",?$#\1#p' "${json}" | head -n 1)"
[[ -n "${dir}" && -d "${dir}/cmd/epp" ]] || die "no cmd/epp in ${module}@${tag} (${dir})"
mkdir -p "${cache}"
tmp="$(mktemp -d "${cache}/.tmp-epp.XXXXXX")"
chmod 0755 "${tmp}"
run_step "building ${module}/cmd/epp@${tag}" bash -c "cd '${dir}' && go build -trimpath -o '${tmp}/epp' ./cmd/epp" ||
  { rm -rf "${tmp}"; die "go build of ${module}/cmd/epp@${tag} failed"; }
rm -rf "${dest}"
mv "${tmp}" "${dest}"
finish
