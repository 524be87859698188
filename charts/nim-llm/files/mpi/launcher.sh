#!/bin/bash
# MPIJob launcher (no GPU): the MPI operator writes the hostfile (OMPI_MCA_orte_default_hostfile) and starts this pod
# once every worker's sshd is ready. Waits (at most CLUSTER_START_TIMEOUT seconds) until every worker accepts SSH,
# then runs the rank command ("$@") on all ranks. Nothing of this container's environment is forwarded (no -x; the
# operator gives it an empty NVIDIA_VISIBLE_DEVICES): every rank gets its own worker pod's environment.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
: "${NIM_MPI_NUM_PROCESSES:?}" "${NIM_MPI_SSH_KEY:?}" "${CLUSTER_START_TIMEOUT:?}"
: "${OMPI_MCA_orte_default_hostfile:?OMPI_MCA_orte_default_hostfile is not set: launcher.sh runs in an MPIJob launcher pod}"
(( $# > 0 )) || { log "no rank command given"; exit 2; }
require_count NIM_MPI_NUM_PROCESSES CLUSTER_START_TIMEOUT
require_port

deadline=$(( $(date +%s) + CLUSTER_START_TIMEOUT ))
mapfile -t workers < <(hostfile_hosts "$OMPI_MCA_orte_default_hostfile")
require_hosts "${workers[@]}"
wait_for_ssh "$deadline" "${workers[@]}"

root_flag=()
[[ "$(id -u)" == 0 ]] && root_flag=(--allow-run-as-root)
log "all ${#workers[@]} workers reachable; starting ${NIM_MPI_NUM_PROCESSES} ranks of: $*"
exec "${NIM_MPIRUN:-mpirun}" "${root_flag[@]}" -n "$NIM_MPI_NUM_PROCESSES" \
  -bind-to none -map-by slot \
  -mca plm_rsh_args "$(ssh_args)" \
  "$@"
