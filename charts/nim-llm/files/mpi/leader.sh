#!/bin/bash
# LeaderWorkerSet leader in MPI launch mode: waits (at most CLUSTER_START_TIMEOUT seconds) for every worker's sshd,
# then runs the rank command ("$@") on all ranks with mpirun: ranks on this pod with this pod's environment, ranks on
# a worker with that worker's (nothing is forwarded with -x; see common.sh). This pod is the first host of the
# hostfile (as localhost, as NVIDIA's NIM Operator writes it), so MPI rank 0 runs here and serves the API.
# Worker addresses: worker_hosts in common.sh (LeaderWorkerSet naming, or NIM_MPI_WORKER_HOSTS).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

: "${LWS_LEADER_ADDRESS:?LWS_LEADER_ADDRESS is not set: leader.sh runs in a LeaderWorkerSet leader pod}"
: "${NIM_NUM_COMPUTE_NODES:?}" "${NIM_GPUS_PER_NODE:?}" "${CLUSTER_START_TIMEOUT:?}" "${NIM_MPI_SSH_KEY:?}"
(( $# > 0 )) || { log "no rank command given"; exit 2; }
require_count NIM_NUM_COMPUTE_NODES NIM_GPUS_PER_NODE CLUSTER_START_TIMEOUT
require_port
require_hosts "$LWS_LEADER_ADDRESS"

deadline=$(( $(date +%s) + CLUSTER_START_TIMEOUT ))
mapfile -t workers < <(worker_hosts)
require_hosts "${workers[@]}"

hostfile=$(mktemp /tmp/nim-hostfile.XXXXXX)
echo "localhost slots=${NIM_GPUS_PER_NODE}" > "$hostfile"
for w in "${workers[@]}"; do echo "${w} slots=${NIM_GPUS_PER_NODE}" >> "$hostfile"; done

wait_for_ssh "$deadline" "${workers[@]}"

np=$(( NIM_NUM_COMPUTE_NODES * NIM_GPUS_PER_NODE ))
root_flag=()
[[ "$(id -u)" == 0 ]] && root_flag=(--allow-run-as-root)
log "all ${#workers[@]} workers reachable; starting ${np} ranks of: $*"
exec "${NIM_MPIRUN:-mpirun}" "${root_flag[@]}" -n "$np" --hostfile "$hostfile" \
  -bind-to none -map-by slot \
  -mca plm_rsh_args "$(ssh_args)" -mca orte_keep_fqdn_hostnames true \
  "$@"
