#!/usr/bin/env bash
# Builds the command-line tools the cluster tier and the benchmarks run as
# processes, from their upstream Go modules through the Go module proxy:
#
#   helm         the Helm CLI at the version helm-java embeds (v3.21.0), for
#                what helm-java cannot do (`helm rollback`, `helm package
#                --sign`, `helm lint --strict`) and for the `helm template`
#                side of the benchmark. Stamped like the upstream Makefile
#                does: `helm version` reports the release, and the default
#                Kubernetes version of `helm template`/`helm lint` is the one
#                of its client-go pin (v0.35 -> 1.35), not Go's 1.20 fallback
#   kubeconform  the manifest validator the usual chart CI pipes `helm template` into
#   kube-score   a policy engine platform teams run on rendered manifests; the offline tier runs it on every pod
#                template the chart renders, unwrapped into a Pod (dev.nimchart.lint)
#   registry     CNCF distribution's OCI registry: the API-server tier pushes the signed chart package to it and
#                installs from it (OciRegistryIT)
#   ct           chart-testing, the linter Helm chart repositories run in CI: ChartTestingLintTest runs `ct lint` on
#                the chart with every example as a ci/*-values.yaml file (helm, yamllint and yamale on its PATH)
#
#   ci/build-tools.sh [--print-path] [TOOL...]     default: all tools
#
# Each tool's version is pinned in ci/tools/<tool>/go.mod (with go.sum), built
# read-only. Output, cached outside the repo and keyed by the pinned version:
#   ${NIM_TOOLS_DIR:-$HOME/.cache/nim-llm-chart/tools}/<tool>-<version>[<stamp>]/<tool>
# (helm's stamp is -k8s<major>.<minor>: a binary built without it is rebuilt).
# A cached binary is reused as is (no Go, no network). With --print-path the
# script prints only the binaries' paths on stdout (progress goes to stderr).
#
# Cost (2 cores, empty Go caches): helm 3-5 min, kubeconform ~15 s, kube-score ~70 s, ct ~30 s (measured on a loaded machine).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools_dir="${script_dir}/tools"
cache="${NIM_TOOLS_DIR:-${HOME}/.cache/nim-llm-chart/tools}"

die() {
  echo "build-tools: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"
parse_tool_args helm kubeconform kube-score registry ct -- "$@"

# tool -> module of its main package; its version is the go.mod pin.
declare -A main_pkg=(
  [helm]=helm.sh/helm/v3/cmd/helm
  [kubeconform]=github.com/yannh/kubeconform/cmd/kubeconform
  [kube-score]=github.com/zegl/kube-score/cmd/kube-score
  [registry]=github.com/distribution/distribution/v3/cmd/registry
  [ct]=github.com/helm/chart-testing/v3/ct
)
declare -A module=(
  [helm]=helm.sh/helm/v3
  [kubeconform]=github.com/yannh/kubeconform
  [kube-score]=github.com/zegl/kube-score
  [registry]=github.com/distribution/distribution/v3
  [ct]=github.com/helm/chart-testing/v3
)

pinned_version() { # go.mod module
  sed -nE "s#^[[:space:]]*(require[[:space:]]+)?${2//./\\.} (v[0-9][^ ]*).*#\\2#p" "$1" | sed -n 1p
}

export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0

for tool in "${tools[@]}"; do
  [[ -n "${main_pkg[${tool}]:-}" ]] || die "unknown tool '${tool}' (known: ${!main_pkg[*]})"
  mod_dir="${tools_dir}/${tool}"
  version="$(pinned_version "${mod_dir}/go.mod" "${module[${tool}]}")"
  [[ -n "${version}" ]] || die "cannot read the ${module[${tool}]} pin from ${mod_dir}/go.mod"
  ldflags="-s -w"
  stamp=""
  if [[ "${tool}" == helm ]]; then
    # As helm's Makefile: client-go v0.<minor>.x is Kubernetes 1.<minor> (major = 0 + 1).
    client_go="$(pinned_version "${mod_dir}/go.mod" k8s.io/client-go)"
    [[ "${client_go}" =~ ^v0\.([0-9]+)\. ]] || die "cannot read the k8s.io/client-go pin from ${mod_dir}/go.mod"
    k8s_minor="${BASH_REMATCH[1]}"
    stamp="-k8s1.${k8s_minor}"
    # `helm version` reports the release; template, install and lint default to Kubernetes 1.<minor>.
    ldflags+=" -X helm.sh/helm/v3/internal/version.version=${version} -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
    for pkg in helm.sh/helm/v3/pkg/chartutil helm.sh/helm/v3/pkg/lint/rules; do
      ldflags+=" -X ${pkg}.k8sVersionMajor=1 -X ${pkg}.k8sVersionMinor=${k8s_minor}"
    done
  fi
  if [[ "${tool}" == ct ]]; then
    # `ct version` reports the release instead of "unreleased"
    ldflags+=" -X github.com/helm/chart-testing/v3/ct/cmd.Version=${version}"
  fi
  dest="${cache}/${tool}-${version}${stamp}"
  bin="${dest}/${tool}"
  # A binary is only ever moved into place complete (below), so its presence is the cache check. One build of a tool at
  # a time on a machine (forked test JVMs ask together): the second finds the first's binary.
  [[ -x "${bin}" ]] || hold_lock "${cache}/.build-${tool}.lock"
  if [[ -x "${bin}" ]]; then
    log "${tool} ${version} cached at ${bin}"
  else
    command -v go >/dev/null 2>&1 ||
      die "'go' is not on PATH: install Go 1.25 or newer; ${tool} is built from ${module[${tool}]}@${version} through GOPROXY."
    mkdir -p "${cache}"
    tmp="$(mktemp -d "${cache}/.tmp-${tool}.XXXXXX")"
    trap 'rm -rf "${tmp}"' EXIT
    log "building ${tool} ${version} from ${module[${tool}]} (GOPROXY=$(go env GOPROXY)) ..."
    started="${SECONDS}"
    (cd "${mod_dir}" && go mod download && go build -trimpath -ldflags "${ldflags}" -o "${tmp}/${tool}" "${main_pkg[${tool}]}") >&2 ||
      die "building ${tool} ${version} failed (see above). Check that the Go module proxy serves ${module[${tool}]}@${version}."
    rm -rf "${dest}"
    mv "${tmp}" "${dest}"
    chmod 755 "${dest}"
    trap - EXIT
    log "built ${tool} ${version} in $((SECONDS - started))s: ${bin}"
  fi
  if ${print_path}; then echo "${bin}"; fi
done
