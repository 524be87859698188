#!/usr/bin/env bash
# Builds a Gateway API Inference Extension (GAIE) endpoint picker from its Go module through the Go module proxy:
#
#   ci/build-epp.sh [--print-path] [epp|lwepp]        (default: epp)
#
#   epp    the full picker, cmd/epp of GAIE at the version ci/epp/go.mod pins (v1.5.0: the last GAIE release that has
#          it; the version of the InferenceObjective CRD the tests install and of the chart's default picker image)
#   lwepp  the lightweight reference picker, cmd/lwepp of GAIE at the version ci/go.mod pins (v1.6.0: the version of
#          the InferencePool CRD the tests install; round robin over the pool's Ready pods, no metrics, no objectives)
#
# Output, cached outside the repo and keyed by picker and version (never committed):
#   ${NIM_EPP_DIR:-$HOME/.cache/nim-llm-chart/epp}/<picker>-<version>/<picker>
# The directory is moved into place complete, so the binary's presence is the
# cache check (warm: no Go, no network). With --print-path only the binary's path
# goes to stdout. Like ci/build-controllers.sh the module is fetched with
# `go mod download` and built read-only inside its module directory with its own
# go.sum (`go install M@V` reads the version list, which the proxy may refuse).
# One lock for both pickers (they share the Go build cache). Run on first use by chart-tests' EndpointPickerIT (so a
# cold `mvn verify` builds each once; with CI=true a failed build fails that test), and by hand
# (docs/routing-and-autoscaling.md).
# Measured here (2 shared cores, Go 1.26.8):
#   epp   v1.5.0: 517 s cold (3 min user CPU), module cache and Kubernetes build cache warm from the controller tier's
#         builds; 0.02 s warm; an 83 MB binary.
#   lwepp v1.6.0: 2856 s cold wall time with the machine shared by ~8 other builds (load average ~50), 5.5 min user
#         CPU (its own dependencies, Kubernetes v0.36, controller-runtime v0.24 and Envoy's go-control-plane, not yet in
#         the build cache); on an idle machine: not measured; 0.02 s warm (0.3 s under that load); a 66 MB
#         binary.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${NIM_EPP_DIR:-${HOME}/.cache/nim-llm-chart/epp}"
print_path=false
[[ "${1:-}" == "--print-path" ]] && { print_path=true; shift; }
picker="${1:-epp}"

die() {
  echo "build-epp: ERROR: $*" >&2
  exit 1
}
source "${script_dir}/lib/steps.sh"

module=sigs.k8s.io/gateway-api-inference-extension
case "${picker}" in
  epp) pin=epp/go.mod ;;
  lwepp) pin=go.mod ;;
  *) die "unknown picker '${picker}': epp (GAIE's full picker, ci/epp/go.mod) or lwepp (GAIE's lightweight picker, ci/go.mod)" ;;
esac
tag="$(sed -nE "s#^[[:space:]]*(require[[:space:]]+)?${module//./\\.} (v[0-9][^ ]*).*#\\2#p" "${script_dir}/${pin}" | sed -n 1p)"
[[ -n "${tag}" ]] || die "no 'require ${module} <version>' line in ci/${pin}"
dest="${cache}/${picker}-${tag}"

finish() {
  if ${print_path}; then echo "${dest}/${picker}"; else log "endpoint picker ${picker}: ${dest}/${picker}"; fi
}
[[ -x "${dest}/${picker}" ]] && { finish; exit 0; }

command -v go >/dev/null 2>&1 || die "'go' is not on PATH (needed once to build the endpoint picker)."
hold_lock "${cache}/.build.lock"
[[ -x "${dest}/${picker}" ]] && { finish; exit 0; }

export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0 GOTOOLCHAIN=local
json="$(mktemp)"
trap 'rm -f "${json}" "${json}.err"' EXIT
run_step "downloading ${module}@${tag}" go_mod_download_json "${json}" "${module}@${tag}" || die "go mod download failed"
dir="$(sed -nE 's#^[[:space:]]*"Dir": "(.*)",?$#\1#p' "${json}" | sed -n 1p)"
[[ -n "${dir}" && -d "${dir}/cmd/${picker}" ]] || die "no cmd/${picker} in ${module}@${tag} (${dir})"
mkdir -p "${cache}"
tmp="$(mktemp -d "${cache}/.tmp-${picker}.XXXXXX")"
chmod 0755 "${tmp}"
run_step "building ${module}/cmd/${picker}@${tag}" bash -c "cd '${dir}' && go build -trimpath -o '${tmp}/${picker}' ./cmd/${picker}" ||
  { rm -rf "${tmp}"; die "go build of ${module}/cmd/${picker}@${tag} failed"; }
rm -rf "${dest}"
mv "${tmp}" "${dest}"
finish
