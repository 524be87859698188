#!/usr/bin/env bash
# Builds the controllers the controller tier runs as local processes, from their
# upstream Go modules through the Go module proxy, and copies beside each binary
# the data files of the same module version that the tier needs:
#
#   kube-controller-manager, kube-scheduler   k8s.io/kubernetes, the version of
#                                             ci/control-plane/kubernetes/go.mod
#                                             (the API server's own version; the
#                                             controller manager with one upstream
#                                             fix, see below)
#   kwok                                      sigs.k8s.io/kwok (+ its Stage files)
#   lws                                       sigs.k8s.io/lws, ./cmd (+ its webhook
#                                             manifests and the DisaggregatedSet CRD)
#   mpi-operator                              github.com/kubeflow/mpi-operator, ./cmd/mpi-operator
#                                             (its health address made settable, see below)
#   kueue                                     sigs.k8s.io/kueue, ./cmd/kueue (+ its CRDs and webhook
#                                             manifests)
#
#   ci/build-controllers.sh [--print-dirs] [--kube-version 1.X.Y]
#
# Versions: kwok, lws, mpi-operator and kueue are the require lines of ci/go.mod (the
# CRD pins: the controller and the CRD the tests install are one version).
# kube-controller-manager and kube-scheduler are built in the control plane's
# own module, so they match kube-apiserver exactly: ci/control-plane/kubernetes
# (the pin), or with --kube-version the committed ci/control-plane/v<version>/.
#
# Output, cached outside the repo and keyed by version (never committed):
#   ${NIM_CONTROLLERS_DIR:-$HOME/.cache/nim-llm-chart/controllers}/<name>-<version>/
# A directory is only ever moved into place complete, so its binary's presence
# is the cache check: a warm run takes ~0.1 s and needs neither Go nor network.
# With --print-dirs the script prints only "<name> <directory>" lines on stdout
# (progress goes to stderr), for the harness to find each binary and its files.
#
# lws and mpi-operator cannot be built with `go install M@V` here (the proxy
# answers 403 for the version list that reads), so each is downloaded with
# `go mod download` and built read-only inside its module directory, with the
# module's own go.sum.
#
# Cost (2 cores, Go 1.26): see docs/benchmarks.md; cold roughly 10 min in all,
# after the control plane (which shares most of the Kubernetes build cache).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kube_mod_dir="${script_dir}/control-plane/kubernetes"
cache="${NIM_CONTROLLERS_DIR:-${HOME}/.cache/nim-llm-chart/controllers}"

print_dirs=false
kube_version=""
while (($#)); do
  case "$1" in
    --print-dirs) print_dirs=true ;;
    --kube-version) kube_version="${2:?--kube-version needs a version such as 1.34.10}"; shift ;;
    *) echo "build-controllers: ERROR: unknown argument $1 (use [--print-dirs] [--kube-version 1.X.Y])" >&2; exit 1 ;;
  esac
  shift
done

die() {
  echo "build-controllers: ERROR: $*" >&2
  exit 1
}
# log and run_step: progress lines and long steps that show they are alive.
source "${script_dir}/lib/steps.sh"

pinned_version() { # go.mod module
  sed -nE "s#^[[:space:]]*(require[[:space:]]+)?${2//./\\.} (v[0-9][^ ]*).*#\\2#p" "$1" | sed -n 1p
}

kube_tag="$(pinned_version "${kube_mod_dir}/go.mod" k8s.io/kubernetes)"
# Another Kubernetes version than the pin: its committed modules in ci/control-plane/v<version>/ (as
# ci/build-control-plane.sh builds its API server from), so the controllers always match the API server.
if [[ -n "${kube_version}" && "v${kube_version#v}" != "${kube_tag}" ]]; then
  kube_tag="v${kube_version#v}"
  kube_mod_dir="${script_dir}/control-plane/${kube_tag}/kubernetes"
  [[ -f "${kube_mod_dir}/go.mod" ]] ||
    die "no committed modules for Kubernetes ${kube_tag} (${kube_mod_dir}/go.mod): the controller tier runs the versions of ci/control-plane/"
fi
kwok_tag="$(pinned_version "${script_dir}/go.mod" sigs.k8s.io/kwok)"
lws_tag="$(pinned_version "${script_dir}/go.mod" sigs.k8s.io/lws)"
mpi_tag="$(pinned_version "${script_dir}/go.mod" github.com/kubeflow/mpi-operator)"
kueue_tag="$(pinned_version "${script_dir}/go.mod" sigs.k8s.io/kueue)"
for v in kube_tag kwok_tag lws_tag mpi_tag kueue_tag; do
  [[ -n "${!v}" ]] || die "cannot read the ${v%_tag} pin from ci/go.mod or ci/control-plane/kubernetes/go.mod"
done

# Every output directory: name -> directory under the cache.
declare -A dest=(
  [kube-controller-manager]="${cache}/kube-controller-manager-${kube_tag}-claim-statuses"
  [kube-scheduler]="${cache}/kube-scheduler-${kube_tag}"
  [kwok]="${cache}/kwok-${kwok_tag}"
  [lws]="${cache}/lws-${lws_tag}"
  [mpi-operator]="${cache}/mpi-operator-${mpi_tag}-health-address"
  [kueue]="${cache}/kueue-${kueue_tag}"
)
order=(kube-controller-manager kube-scheduler kwok lws mpi-operator kueue)

find_missing() {
  missing=()
  for name in "${order[@]}"; do
    [[ -x "${dest[${name}]}/${name}" ]] || missing+=("${name}")
  done
}
find_missing

finish() {
  if ${print_dirs}; then
    for name in "${order[@]}"; do echo "${name} ${dest[${name}]}"; done
  fi
  exit 0
}
if ((${#missing[@]} == 0)); then
  log "controllers cached in ${cache}: ${order[*]}"
  finish
fi

mkdir -p "${cache}"
# One build at a time on a machine; the loser of the race finds the winner's binaries.
hold_lock "${cache}/.build.lock"
find_missing
if ((${#missing[@]} == 0)); then
  log "controllers cached in ${cache} (built while this run waited): ${order[*]}"
  finish
fi

command -v go >/dev/null 2>&1 ||
  die "'go' is not on PATH. Install Go 1.26 or newer; the controllers are built from their modules through GOPROXY."

export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0 GOTOOLCHAIN=local
log "building ${missing[*]} with $(go version | cut -d' ' -f3) (GOPROXY=$(go env GOPROXY))"

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# module_dir M@V: prints the module's directory in the module cache, downloading it if needed.
module_dir() {
  local json dir
  json="$(cd "${work}" && GOFLAGS=-mod=mod go mod download -json "$1" 2>&1)" || true
  dir="$(sed -nE 's/^[[:space:]]*"Dir": "(.*)",?$/\1/p' <<<"${json}")"
  if [[ -z "${dir}" || ! -d "${dir}" ]]; then
    grep -E '"Error"|^go: ' <<<"${json}" >&2 || true
    die "the Go module proxy did not serve $1 (GOPROXY=$(go env GOPROXY))"
  fi
  echo "${dir}"
}

# publish NAME TMPDIR: moves a complete output directory into place.
publish() {
  rm -rf "${dest[$1]}"
  mv "$2" "${dest[$1]}"
  chmod 755 "${dest[$1]}"
  log "  ${1}: ${dest[$1]}/${1} ($(($(stat -c %s "${dest[$1]}/${1}") / 1048576)) MiB)"
}

needs() { [[ " ${missing[*]} " == *" $1 "* ]]; }

# --- kube-controller-manager, kube-scheduler: the API server's module and stamps ---------
if needs kube-controller-manager || needs kube-scheduler; then
  build_date="$(cd "${kube_mod_dir}" && go list -m -f '{{with .Time}}{{.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' k8s.io/kubernetes)"
  ldflags="$(kube_ldflags "${kube_tag}" "${build_date}")"
  run_step "downloading modules for Kubernetes ${kube_tag}" bash -c "cd '${kube_mod_dir}' && go mod download" ||
    die "downloading the Kubernetes modules failed (see above)"
  # One upstream fix in kube-controller-manager, made at build time in a copy of the module where the release lacks it
  # (the module cache is left as it is; Go's build overlays may not replace files there): Kubernetes issue 138407, fixed
  # upstream by pull request 138408; v1.37.2 has it (its controller merges the recorded statuses, `mergedStatuses`),
  # v1.34.10 does not. The resource claim controller applies a pod's status.resourceClaimStatuses with only the claims
  # it has just created or found, and server-side apply then drops the entries it recorded before. A pod with two
  # claims from templates (the GB200 examples: a GPU claim, and a ComputeDomain channel claim whose template NVIDIA's
  # controller creates a moment after the pod) can flap between one-entry lists and never be scheduled ("ResourceClaim
  # not created yet"). The change keeps the recorded entries in the apply, as the upstream fix does; the output
  # directory's "-claim-statuses" says the binary keeps them either way. kube-scheduler is built as it is.
  patched_mod="${kube_mod_dir}"
  kube_dir="$(cd "${kube_mod_dir}" && go list -m -f '{{.Dir}}' k8s.io/kubernetes)"
  if needs kube-controller-manager && grep -qF 'maps.Copy(mergedStatuses, newPodClaims)' "${kube_dir}/pkg/controller/resourceclaim/controller.go"; then
    log "Kubernetes ${kube_tag} keeps recorded claim statuses (issue 138407 fixed upstream): kube-controller-manager built as it is"
  elif needs kube-controller-manager; then
    patched_mod="${work}/control-plane-kubernetes"
    apply_line='		podApply := corev1apply.Pod(name, namespace).WithStatus(corev1apply.PodStatus().WithResourceClaimStatuses(statuses...))'
    grep -qxF "${apply_line}" "${kube_dir}/pkg/controller/resourceclaim/controller.go" ||
      die "Kubernetes ${kube_tag}: pkg/controller/resourceclaim/controller.go no longer has the status apply this script changes"
    mkdir -p "${patched_mod}"
    cp "${kube_mod_dir}"/go.mod "${kube_mod_dir}"/go.sum "${patched_mod}/"
    cp -r "${kube_dir}" "${work}/kubernetes" && chmod -R u+w "${work}/kubernetes"
    claims_go="${work}/kubernetes/pkg/controller/resourceclaim/controller.go"
    awk -v line="${apply_line}" '$0 == line { print "\t\tstatuses = withRecordedClaimStatuses(pod, newPodClaims, statuses)" } { print }' \
      "${kube_dir}/pkg/controller/resourceclaim/controller.go" >"${claims_go}"
    cat >>"${claims_go}" <<'GO'

// withRecordedClaimStatuses is added by the nim-llm chart's ci/build-controllers.sh: the entries of
// pod.status.resourceClaimStatuses that this sync did not replace stay in the apply, so that server-side apply keeps
// them (Kubernetes issue 138407).
func withRecordedClaimStatuses(pod *v1.Pod, replaced map[string]string, statuses []*corev1apply.PodResourceClaimStatusApplyConfiguration) []*corev1apply.PodResourceClaimStatusApplyConfiguration {
	for _, recorded := range pod.Status.ResourceClaimStatuses {
		if _, ok := replaced[recorded.Name]; ok {
			continue
		}
		status := corev1apply.PodResourceClaimStatus().WithName(recorded.Name)
		if recorded.ResourceClaimName != nil {
			status = status.WithResourceClaimName(*recorded.ResourceClaimName)
		}
		statuses = append(statuses, status)
	}
	return statuses
}
GO
    (cd "${patched_mod}" && go mod edit "-replace=k8s.io/kubernetes=${work}/kubernetes")
  fi
  for name in kube-controller-manager kube-scheduler; do
    needs "${name}" || continue
    tmp="$(mktemp -d "${cache}/.tmp-${name}.XXXXXX")"
    module="${kube_mod_dir}"
    [[ "${name}" == kube-controller-manager ]] && module="${patched_mod}"
    run_step "building ${name} ${kube_tag}" \
      bash -c "cd '${module}' && go build -trimpath -ldflags '${ldflags}' -o '${tmp}/${name}' k8s.io/kubernetes/cmd/${name}" ||
      die "building ${name} failed (see above)"
    [[ "$("${tmp}/${name}" --version 2>/dev/null)" == "Kubernetes ${kube_tag}" ]] ||
      die "${name} reports '$("${tmp}/${name}" --version 2>&1)', not Kubernetes ${kube_tag}"
    publish "${name}" "${tmp}"
  done
fi

# --- kwok: the binary and the Stage files its --config needs (the binary has none built in) -
if needs kwok; then
  dir="$(module_dir "sigs.k8s.io/kwok@${kwok_tag}")"
  tmp="$(mktemp -d "${cache}/.tmp-kwok.XXXXXX")"
  run_step "building kwok ${kwok_tag}" \
    bash -c "cd '${dir}' && go build -trimpath -ldflags '-s -w' -o '${tmp}/kwok' ./cmd/kwok" ||
    die "building kwok failed (see above)"
  mkdir -p "${tmp}/stages"
  # pod-complete is left out on purpose: it would complete the MPIJob launcher at once.
  for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
    pod/fast/pod-ready.yaml pod/fast/pod-delete.yaml; do
    [[ -f "${dir}/kustomize/stage/${f}" ]] || die "kwok ${kwok_tag} has no kustomize/stage/${f}"
    install -m 0644 "${dir}/kustomize/stage/${f}" "${tmp}/stages/$(basename "${f}")"
  done
  publish kwok "${tmp}"
fi

# --- LeaderWorkerSet controller, its webhook manifests and the DisaggregatedSet CRD it watches -
if needs lws; then
  dir="$(module_dir "sigs.k8s.io/lws@${lws_tag}")"
  tmp="$(mktemp -d "${cache}/.tmp-lws.XXXXXX")"
  run_step "building lws ${lws_tag}" \
    bash -c "cd '${dir}' && go build -trimpath -ldflags '-s -w' -o '${tmp}/lws' ./cmd" ||
    die "building lws failed (see above)"
  mkdir -p "${tmp}/webhook" "${tmp}/crds"
  for f in manifests.yaml mutating-patch.yaml validating-patch.yaml; do
    install -m 0644 "${dir}/config/webhook/${f}" "${tmp}/webhook/${f}"
  done
  install -m 0644 "${dir}/config/crd/bases/disaggregatedset.x-k8s.io_disaggregatedsets.yaml" "${tmp}/crds/"
  publish lws "${tmp}"
fi

# --- mpi-operator -----------------------------------------------------------------------
if needs mpi-operator; then
  dir="$(module_dir "github.com/kubeflow/mpi-operator@${mpi_tag}")"
  tmp="$(mktemp -d "${cache}/.tmp-mpi-operator.XXXXXX")"
  # One change to upstream, made at build time in a copy of the module (the module cache is left as it is): the health
  # check's listen address, hard-coded ":8080" in v0.8.0, comes from MPI_OPERATOR_HEALTH_ADDRESS when that is set, so
  # that several controller tiers (forked test JVMs, another checkout) run side by side on one machine. The file
  # health-address next to the binary tells the harness it may set it.
  src="${work}/mpi-operator"
  cp -r "${dir}" "${src}" && chmod -R u+w "${src}"
  server="${src}/cmd/mpi-operator/app/server.go"
  grep -q 'Addr:    fmt.Sprintf(":%d", healthCheckPort),' "${server}" ||
    die "mpi-operator ${mpi_tag}: cmd/mpi-operator/app/server.go no longer has the hard-coded health address this script changes"
  sed -i 's/Addr:    fmt.Sprintf(":%d", healthCheckPort),/Addr:    healthAddress(),/' "${server}"
  cat >>"${server}" <<'GO'

// healthAddress is added by the nim-llm chart's ci/build-controllers.sh: MPI_OPERATOR_HEALTH_ADDRESS, else upstream's.
func healthAddress() string {
	if address := os.Getenv("MPI_OPERATOR_HEALTH_ADDRESS"); address != "" {
		return address
	}
	return fmt.Sprintf(":%d", healthCheckPort)
}
GO
  run_step "building mpi-operator ${mpi_tag} (health address settable)" \
    bash -c "cd '${src}' && go build -trimpath -ldflags '-s -w' -o '${tmp}/mpi-operator' ./cmd/mpi-operator" ||
    die "building mpi-operator failed (see above)"
  echo "MPI_OPERATOR_HEALTH_ADDRESS" >"${tmp}/health-address"
  publish mpi-operator "${tmp}"
fi

# --- Kueue: the controller, its CRDs and its webhook manifests (the tier registers them by URL) -
if needs kueue; then
  dir="$(module_dir "sigs.k8s.io/kueue@${kueue_tag}")"
  tmp="$(mktemp -d "${cache}/.tmp-kueue.XXXXXX")"
  run_step "building kueue ${kueue_tag}" \
    bash -c "cd '${dir}' && go build -trimpath -ldflags '-s -w' -o '${tmp}/kueue' ./cmd/kueue" ||
    die "building kueue failed (see above)"
  mkdir -p "${tmp}/webhook" "${tmp}/crds"
  install -m 0644 "${dir}/config/components/webhook/manifests.yaml" "${tmp}/webhook/manifests.yaml"
  for f in "${dir}"/config/components/crd/bases/*.yaml; do
    install -m 0644 "${f}" "${tmp}/crds/"
  done
  publish kueue "${tmp}"
fi

log "controllers ready in ${cache} after ${SECONDS}s"
finish
