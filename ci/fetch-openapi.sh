#!/usr/bin/env bash
# Copies the Kubernetes OpenAPI v3 documents the chart's values schema takes its Kubernetes object definitions from
# (core/v1 for pods, autoscaling/v2 for the autoscaler), and the module's generated OpenAPI definitions (Go source, the
# one place that lists the allowed values of enum fields: the checked-in documents omit them), out of the
# k8s.io/kubernetes module, at the oldest Kubernetes version the chart claims (Chart.yaml's kubeVersion): the lowest
# ci/control-plane/v<version>/kubernetes/go.mod, else the pin of ci/control-plane/kubernetes/go.mod. A field newer
# than that version is then refused by the values schema instead of being rejected by an older cluster the chart
# claims. Into an output directory.
#
#   ci/fetch-openapi.sh [OUT_DIR]      (default: chart-tests/target/openapi under the repo root)
#
# The module comes through the Go module proxy with `go mod download` (its zip only, checked against the checksum
# database; ~18 MB, the one ci/build-control-plane.sh compiles). With a warm module cache no network is used.
# Nothing is committed: ci/kubernetes-schemas.sh and EmbeddedKubernetesSchemasTest read the copies.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"
go_mod="${script_dir}/control-plane/kubernetes/go.mod"
oldest="$(cd "${script_dir}/control-plane" && ls -d v*/kubernetes 2>/dev/null | sort -V | sed -n 1p)"
[[ -z "${oldest}" ]] || go_mod="${script_dir}/control-plane/${oldest}/go.mod"
out_dir="${1:-${repo_root}/chart-tests/target/openapi}"
files=(api__v1_openapi.json apis__autoscaling__v2_openapi.json)

die() {
  echo "fetch-openapi: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"

command -v go >/dev/null 2>&1 || die "'go' is not on PATH. Install Go to fetch the Kubernetes OpenAPI documents."
version="$(sed -nE 's#^[[:space:]]*(require[[:space:]]+)?k8s\.io/kubernetes (v[0-9][^ ]*).*#\2#p' "${go_mod}" | sed -n 1p)"
[[ -n "${version}" ]] || die "no k8s.io/kubernetes pin in ${go_mod}"

tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
go_mod_download_json "${tmp}/download.json" "k8s.io/kubernetes@${version}"
dir="$(sed -nE 's#^[[:space:]]*"Dir": "(.*)",?$#\1#p' "${tmp}/download.json" | sed -n 1p)"
[[ -n "${dir}" && -d "${dir}/api/openapi-spec/v3" ]] || die "no api/openapi-spec/v3 in k8s.io/kubernetes@${version} (${dir})"

mkdir -p "${out_dir}"
for f in "${files[@]}"; do
  [[ -f "${dir}/api/openapi-spec/v3/${f}" ]] || die "${f} not found in k8s.io/kubernetes@${version}"
  install -m 0644 "${dir}/api/openapi-spec/v3/${f}" "${out_dir}/${f}"
done
generated=pkg/generated/openapi/zz_generated.openapi.go
[[ -f "${dir}/${generated}" ]] || die "${generated} not found in k8s.io/kubernetes@${version}"
install -m 0644 "${dir}/${generated}" "${out_dir}/zz_generated.openapi.go"
echo "${version}" >"${out_dir}/VERSION"
echo "k8s.io/kubernetes@${version} api/openapi-spec/v3/{$(IFS=,; echo "${files[*]}")} ${generated} -> ${out_dir}"
