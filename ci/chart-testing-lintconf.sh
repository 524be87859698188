#!/usr/bin/env bash
# Prints the path of chart-testing's yamllint configuration (etc/lintconf.yaml of github.com/helm/chart-testing/v3,
# the rules `ct lint` applies to a chart's values files), in the Go module cache, at the version ci/go.mod pins.
# `go mod download` fetches only that module's zip (checked against the checksum database); with a warm module cache
# no network is used. Nothing is copied into the repository.
#
#   ci/chart-testing-lintconf.sh
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() {
  echo "chart-testing-lintconf: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"

module=github.com/helm/chart-testing/v3
command -v go >/dev/null 2>&1 || die "'go' is not on PATH (see ci/go.mod for the version)"
version="$(go mod edit -json "${script_dir}/go.mod" | awk -v want="\"${module}\"," '
  $1 == "\"Path\":" { path = $2 }
  $1 == "\"Version\":" && path == want { v = $2; gsub(/[",]/, "", v); print v; exit }')"
[[ -n "${version}" ]] || die "no 'require ${module} <version>' line in ci/go.mod"
tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
go_mod_download_json "${tmp}/download.json" "${module}@${version}"
dir="$(awk '$1 == "\"Dir\":" { d = $0; sub(/^[^:]*: "/, "", d); sub(/",?$/, "", d); print d; exit }' "${tmp}/download.json")"
[[ -f "${dir}/etc/lintconf.yaml" ]] || die "etc/lintconf.yaml not found in ${module}@${version} (${dir})"
echo "${dir}/etc/lintconf.yaml"
