#!/usr/bin/env bash
# Builds KEDA's admission webhook server (cmd/webhooks of github.com/kedacore/keda/v2, the `keda-admission-webhooks`
# image's program) at the version ci/go.mod pins (the version of the ScaledObject CRD ci/fetch-crds.sh installs), from
# its Go module through the Go module proxy:
#
#   ci/build-keda-webhooks.sh [--print-path]
#
# Output, cached outside the repo and keyed by version (never committed):
#   ${NIM_KEDA_DIR:-$HOME/.cache/nim-llm-chart/keda}/keda-webhooks-<version>/keda-webhooks, and beside it
#   validation_webhooks.yaml (config/webhooks/ of the module: the webhooks' paths and rules)
# The directory is moved into place complete, so the binary's presence is the cache check (warm: no Go, no network).
# With --print-path only the binary's path goes to stdout. Like ci/build-epp.sh the module is fetched with
# `go mod download` and built read-only inside its module directory with its own go.sum, under a lock (forked test
# JVMs may ask at once). Run on first use by chart-tests' ChartValidatorAgreementIT (the agreement registers it with
# the tier's API server as a ValidatingWebhookConfiguration by URL, as KEDA's chart does by Service; with CI=true a
# failed build fails that test), and by hand.
# Measured here (2 shared cores, Go 1.26.8, module cache already holding keda's zip from ci/fetch-crds.sh): cold
# 2843 s wall while ~8 other Go builds shared the cores (load average ~50; 5.6 min user CPU, so minutes on a quiet
# machine), 28 s with the Go build cache warm and the binary missing, 0.06 s warm; a 45 MB binary.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${NIM_KEDA_DIR:-${HOME}/.cache/nim-llm-chart/keda}"
print_path=false
[[ "${1:-}" == "--print-path" ]] && print_path=true

die() {
  echo "build-keda-webhooks: ERROR: $*" >&2
  exit 1
}
source "${script_dir}/lib/steps.sh"

module=github.com/kedacore/keda/v2
tag="$(sed -nE "s#^[[:space:]]*(require[[:space:]]+)?${module//./\\.} (v[0-9][^ ]*).*#\\2#p" "${script_dir}/go.mod" | sed -n 1p)"
[[ -n "${tag}" ]] || die "no 'require ${module} <version>' line in ci/go.mod"
dest="${cache}/keda-webhooks-${tag}"

finish() {
  if ${print_path}; then echo "${dest}/keda-webhooks"; else log "KEDA admission webhooks: ${dest}/keda-webhooks"; fi
}
[[ -x "${dest}/keda-webhooks" ]] && { finish; exit 0; }

command -v go >/dev/null 2>&1 || die "'go' is not on PATH (needed once to build KEDA's admission webhooks)."
hold_lock "${cache}/.build.lock"
[[ -x "${dest}/keda-webhooks" ]] && { finish; exit 0; }

export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0 GOTOOLCHAIN=local
json="$(mktemp)"
trap 'rm -f "${json}" "${json}.err"' EXIT
run_step "downloading ${module}@${tag}" go_mod_download_json "${json}" "${module}@${tag}" || die "go mod download failed"
dir="$(sed -nE 's#^[[:space:]]*"Dir": "(.*)",?$#\1#p' "${json}" | sed -n 1p)"
[[ -n "${dir}" && -d "${dir}/cmd/webhooks" ]] || die "no cmd/webhooks in ${module}@${tag} (${dir})"
mkdir -p "${cache}"
tmp="$(mktemp -d "${cache}/.tmp-keda.XXXXXX")"
chmod 0755 "${tmp}"
run_step "building ${module}/cmd/webhooks@${tag}" bash -c "cd '${dir}' && go build -trimpath -ldflags '-s -w' -o '${tmp}/keda-webhooks' ./cmd/webhooks" ||
  { rm -rf "${tmp}"; die "go build of ${module}/cmd/webhooks@${tag} failed"; }
# The webhook registrations as KEDA's kustomize manifests declare them (the harness registers them by URL).
cp "${dir}/config/webhooks/validation_webhooks.yaml" "${tmp}/validation_webhooks.yaml"
chmod 0644 "${tmp}/validation_webhooks.yaml"
rm -rf "${dest}"
mv "${tmp}" "${dest}"
finish
