#!/usr/bin/env bash
# Builds the NetworkPolicy enforcer the start-up tier runs on its pod network: SIG Network's kube-network-policies
# (sigs.k8s.io/kube-network-policies, ./cmd), from its Go module through the Go module proxy, with the
# AdminNetworkPolicy CRDs of the sigs.k8s.io/network-policy-api version its go.mod requires copied beside the binary
# (its --baseline-admin-network-policy mode watches them; see NetworkPolicyEnforcer.java), and installs socat
# (Debian's package: the relay that lets the enforcer, inside the pods' network namespace, reach the tier's API server
# on the host's loopback) and nftables.
#
#   ci/build-netpol-enforcer.sh [--print-dir]
#
# One change at build time, in a copy of the module (the module cache is left as it is): kube-network-policies hands
# each new connection to user space with nftables' `queue` expression, whose kernel module (nft_queue) some kernels
# lack (this project's 6.18 Firecracker VMs: "Could not process rule: No such file or directory"), while the xtables
# NFQUEUE target, reached from nftables through nft_compat, feeds the same nfnetlink queue there. The copy builds the
# queue verdict as that target (revision 3: queue number, one queue, the bypass flag where upstream sets it); how
# packets are judged (pkg/networkpolicy's evaluatePacket and the policy evaluation) is upstream's, untouched. The
# script fails if the upstream line it replaces is no longer there.
#
# Output, cached outside the repo and keyed by version (never committed):
#   ${NIM_NETPOL_DIR:-$HOME/.cache/nim-llm-chart/netpol}/kube-network-policies-<version>-xt-nfqueue/
#     kube-network-policies, crds/*.yaml
# A directory is only ever moved into place complete, so the binary's presence is the cache check (warm: ~0.1 s,
# neither Go nor network). --print-dir prints only that directory on stdout (progress goes to stderr).
#
# Cost, measured 2026-11-29 with Go 1.26 on a 2-core machine that was running several other Go and Maven builds at
# once (load average ~55): cold build 2599 s (the module's client-go v0.32.3 shares no build cache with the control
# plane's), the socat install 6m46s (mostly waiting for the machine's install lock); warm 0.04 s. An idle machine
# builds it faster; that was not measured. Also installs nftables (nft) when missing: the tier reads the enforcer's
# rules back with it to know they are in place.
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version=v0.8.0
module=sigs.k8s.io/kube-network-policies
cache="${NIM_NETPOL_DIR:-${HOME}/.cache/nim-llm-chart/netpol}"
dest="${cache}/kube-network-policies-${version}-xt-nfqueue"
print_dir=false
[[ "${1:-}" == "--print-dir" ]] && print_dir=true
die() {
  echo "build-netpol-enforcer: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"

ensure_tools() {
  command -v socat >/dev/null 2>&1 && command -v nft >/dev/null 2>&1 && return 0
  # apt-get does not wait for another install: the machine's install lock, then look again.
  hold_lock "${TMPDIR:-/tmp}/nim-llm-chart-install.lock"
  local need=()
  command -v socat >/dev/null 2>&1 || need+=(socat)
  command -v nft >/dev/null 2>&1 || need+=(nftables)
  ((${#need[@]} == 0)) || apt_install build-netpol-enforcer "${need[@]}" >&2
}

finish() {
  ensure_tools
  ${print_dir} && echo "${dest}"
  exit 0
}
[[ -x "${dest}/kube-network-policies" ]] && finish
mkdir -p "${cache}"
hold_lock "${cache}/.build.lock"
[[ -x "${dest}/kube-network-policies" ]] && finish

command -v go >/dev/null 2>&1 ||
  die "'go' is not on PATH. Install Go 1.23 or newer; the enforcer is built from its module through GOPROXY."
export GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off GO111MODULE=on CGO_ENABLED=0 GOTOOLCHAIN=local
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
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
log "building ${module}@${version} with $(go version | cut -d' ' -f3)"
src="$(module_dir "${module}@${version}")"
npa_version="$(sed -nE 's#^[[:space:]]*sigs\.k8s\.io/network-policy-api (v[^ ]+).*#\1#p' "${src}/go.mod" | sed -n 1p)"
[[ -n "${npa_version}" ]] || die "${module}@${version}: its go.mod names no sigs.k8s.io/network-policy-api version"
npa="$(module_dir "sigs.k8s.io/network-policy-api@${npa_version}")"

copy="${work}/kube-network-policies"
cp -r "${src}" "${copy}" && chmod -R u+w "${copy}"
controller="${copy}/pkg/networkpolicy/controller.go"
queue_line='	queue := &expr.Queue{Num: uint16(c.config.QueueID)}'
bypass_line='		queue.Flag = expr.QueueFlagBypass'
[[ "$(grep -cxF "${queue_line}" "${controller}")" == 2 && "$(grep -cxF "${bypass_line}" "${controller}")" == 2 ]] ||
  die "${module}@${version}: pkg/networkpolicy/controller.go no longer builds its queue verdicts as this script expects"
awk -v q="${queue_line}" -v b="${bypass_line}" '
  $0 == q { print "\tqueue := xtNFQueue(uint16(c.config.QueueID), false)"; next }
  $0 == b { print "\t\tqueue = xtNFQueue(uint16(c.config.QueueID), true)"; next }
  { print }' "${controller}" >"${controller}.new"
mv "${controller}.new" "${controller}"
cat >"${copy}/pkg/networkpolicy/xt_nfqueue.go" <<'GO'
package networkpolicy

// Added by the nim-llm chart's ci/build-netpol-enforcer.sh: the queue verdict as the xtables NFQUEUE target (through
// nft_compat) instead of nftables' queue expression, for kernels without nft_queue. Same queue, same packets.

import (
	"encoding/binary"

	"github.com/google/nftables/expr"
	"github.com/google/nftables/xt"
)

// xtNFQueue is `-j NFQUEUE --queue-num num [--queue-bypass]`: struct xt_NFQ_info_v3 {u16 queuenum; u16 queues_total;
// u16 flags}, host byte order, padded to XT_ALIGN (8 bytes) as iptables sends it. NFQ_FLAG_BYPASS is 0x01.
func xtNFQueue(num uint16, bypass bool) *expr.Target {
	info := make(xt.Unknown, 8)
	binary.NativeEndian.PutUint16(info[0:], num)
	binary.NativeEndian.PutUint16(info[2:], 1)
	if bypass {
		binary.NativeEndian.PutUint16(info[4:], 1)
	}
	return &expr.Target{Name: "NFQUEUE", Rev: 3, Info: &info}
}
GO

partial="$(private_partial "${dest}")"
run_step "building kube-network-policies ${version}" bash -c "cd '${copy}' && go build -trimpath -ldflags '-s -w' \
  -o '${partial}/kube-network-policies' ./cmd" || { rm -rf "${partial}"; die "building ${module}@${version} failed (see above)"; }
mkdir -p "${partial}/crds"
cp "${npa}"/config/crd/standard/policy.networking.k8s.io_{adminnetworkpolicies,baselineadminnetworkpolicies}.yaml "${partial}/crds/"
chmod -R u+w,go+rX "${partial}"
publish_partial "${partial}" "${dest}"
log "kube-network-policies ${version}: ${dest}/kube-network-policies ($(($(stat -c %s "${dest}/kube-network-policies") / 1048576)) MiB)"
finish
