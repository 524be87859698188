#!/usr/bin/env bash
# Copies the CustomResourceDefinitions the chart renders objects for out of
# the Go module cache into an output directory, for CrdSchemaValidator.
#
#   ci/fetch-crds.sh [OUT_DIR]      (default: chart-tests/target/crds under the repo root)
#
# Module versions come from ci/go.mod (the single place of version truth; a
# module pinned at a second version has a go.mod of its own under ci/, named in
# the table below). The
# modules are fetched through the Go module proxy with `go mod download`, which
# downloads only each module's own zip (no transitive dependencies) and checks
# it against the checksum database. Nothing is ever committed: the output
# directory is a build directory. With a warm module cache no network is used.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/.." && pwd)"
go_mod="${script_dir}/go.mod"
out_dir="${1:-${repo_root}/chart-tests/target/crds}"

die() {
  echo "fetch-crds: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"

# module path | file inside the module [| the go.mod under ci/ that pins it, when not ci/go.mod] (one line per CRD file)
crd_files=(
  "sigs.k8s.io/lws|config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml"
  "github.com/kubeflow/mpi-operator|manifests/base/kubeflow.org_mpijobs.yaml"
  "github.com/prometheus-operator/prometheus-operator|example/prometheus-operator-crd-full/monitoring.coreos.com_servicemonitors.yaml"
  "sigs.k8s.io/gateway-api-inference-extension|config/crd/bases/inference.networking.k8s.io_inferencepools.yaml"
  # GAIE v1.6.0 has no InferenceObjective (it moved to llm-d-router): taken from v1.5.0, the full picker's release.
  "sigs.k8s.io/gateway-api-inference-extension|config/crd/bases/inference.networking.x-k8s.io_inferenceobjectives.yaml|epp/go.mod"
  "sigs.k8s.io/gateway-api|config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"
  "github.com/kedacore/keda/v2|config/crd/bases/keda.sh_scaledobjects.yaml"
)

command -v go >/dev/null 2>&1 ||
  die "'go' is not on PATH. Install Go (see ci/go.mod for the version) to fetch the CRDs from the Go module proxy."
[[ -f "${go_mod}" ]] || die "${go_mod} not found."

# Versions from ci/go.mod (or the go.mod an entry names), read with `go mod edit -json` (no network, no go.sum needed).
version_of() {
  # Prints the version of module $1 from the Require list of the go.mod file $2.
  local json
  json="$(go mod edit -json "$2")" || die "cannot parse $2"
  awk -v want="\"$1\"," '
    /^\t"Require": \[/ { inreq = 1; next }
    inreq && /^\t\]/ { inreq = 0 }
    inreq && $1 == "\"Path\":" { path = $2 }
    inreq && $1 == "\"Version\":" && path == want { v = $2; gsub(/[",]/, "", v); print v; exit }
  ' <<<"${json}"
}

declare -A version=()
queries=()
for entry in "${crd_files[@]}"; do
  IFS='|' read -r mod _ pin <<<"${entry}"
  pin_file="${script_dir}/${pin:-go.mod}"
  [[ -f "${pin_file}" ]] || die "${pin_file} not found."
  [[ -n "${version[${mod}|${pin_file}]:-}" ]] && continue
  v="$(version_of "${mod}" "${pin_file}")"
  [[ -n "${v}" ]] || die "no 'require ${mod} <version>' line in ${pin_file}"
  version["${mod}|${pin_file}"]="${v}"
  queries+=("${mod}@${v}")
done

tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
go_mod_download_json "${tmp}/download.json" "${queries[@]}"

# Module directory in the cache for each module@version, from the JSON output.
declare -A mod_dir=()
while IFS='|' read -r p v d; do
  mod_dir["${p}@${v}"]="${d}"
done < <(awk '
  $1 == "\"Path\":"    { p = $2; gsub(/[",]/, "", p) }
  $1 == "\"Version\":" { v = $2; gsub(/[",]/, "", v) }
  $1 == "\"Dir\":"     { d = $0; sub(/^[^:]*: "/, "", d); sub(/",?$/, "", d); print p "|" v "|" d }
' "${tmp}/download.json")

# Resolve every source file before copying anything, so a failure leaves no half-updated output.
srcs=()
for entry in "${crd_files[@]}"; do
  IFS='|' read -r mod rel pin <<<"${entry}"
  mv="${mod}@${version[${mod}|${script_dir}/${pin:-go.mod}]}"
  dir="${mod_dir[${mv}]:-}"
  [[ -n "${dir}" && -d "${dir}" ]] || die "go mod download reported no directory for ${mv}"
  [[ -f "${dir}/${rel}" ]] ||
    die "${rel} not found in ${mv} (${dir}); did the file move in this version? Update the table in ci/fetch-crds.sh."
  srcs+=("${mv}|${rel}|${dir}/${rel}")
done

# Forked test JVMs ask for the same directory at once: one copy at a time, made in a directory of this run's own and
# renamed into place, so a reader never sees a directory with only some of the CRDs (a new directory appears whole, an
# existing one has each file replaced by a rename).
hold_lock "$(dirname "${out_dir}")/.$(basename "${out_dir}").lock"
partial="$(private_partial "${out_dir}")"
for s in "${srcs[@]}"; do
  IFS='|' read -r mv rel src <<<"${s}"
  # Module cache files are read-only: install gives the copy a normal mode so re-runs can overwrite it.
  install -m 0644 "${src}" "${partial}/$(basename "${rel}")"
  echo "${mv} ${rel} -> ${out_dir}/$(basename "${rel}")"
done
# CRDs pinned as files in ci/crds (their sources are not served by the Go module proxy; each file says where it
# comes from): the ComputeDomain of NVIDIA's DRA driver for GPUs.
for src in "${script_dir}"/crds/*.yaml; do
  install -m 0644 "${src}" "${partial}/$(basename "${src}")"
  echo "ci/crds/$(basename "${src}") -> ${out_dir}/$(basename "${src}")"
done
if [[ -d "${out_dir}" ]]; then
  for f in "${partial}"/*; do
    mv -f "${f}" "${out_dir}/"
  done
  rmdir "${partial}"
else
  publish_partial "${partial}" "${out_dir}"
fi
