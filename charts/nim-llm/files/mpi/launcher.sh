#!/bin/bash
# MPIJob launcher (no GPU): the MPI operator writes the hostfile (OMPI_MCA_orte_default_hostfile) and starts this pod
# with the workers (launcherCreationPolicy AtStartup). Waits (at most CLUSTER_START_TIMEOUT seconds) until every worker
# accepts SSH, then runs the rank command ("$@") on all ranks. Nothing of this container's environment is forwarded
# (no -x; the operator gives it an empty NVIDIA_VISIBLE_DEVICES): every rank gets its own worker pod's environment.
# Worker 0 (the first host, MPI rank 0, which serves the API) is dialled by the chart's name for it (serving_host in
# common.sh): it is Ready only once the server answers, and the operator's name for it resolves only while it is Ready.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
: "${NIM_MPI_NUM_PROCESSES:?}" "${NIM_MPI_SSH_KEY:?}" "${CLUSTER_START_TIMEOUT:?}"
: "${OMPI_MCA_orte_default_hostfile:?OMPI_MCA_orte_default_hostfile is not set: launcher.sh runs in an MPIJob launcher pod}"
(( $# > 0 )) || { log "no rank command given"; exit 2; }
require_count NIM_MPI_NUM_PROCESSES CLUSTER_START_TIMEOUT
require_port

deadline=$(( $(date +%s) + CLUSTER_START_TIMEOUT ))
mapfile -t workers < <(hostfile_hosts "$OMPI_MCA_orte_default_hostfile")
(( ${#workers[@]} > 0 )) || { log "FAILED: no hosts in ${OMPI_MCA_orte_default_hostfile}"; exit 2; }
require_hosts "${workers[@]}"
workers[0]=$(serving_host "${workers[0]}")
require_hosts "${workers[0]}"

# The operator's hostfile with worker 0 under the chart's name. mpirun reads it as the default hostfile (a --hostfile
# would only select among the default hostfile's hosts).
hostfile=$(mktemp /tmp/nim-hostfile.XXXXXX)
first=1
while read -r host rest; do
  [[ -z "$host" || "$host" == \#* ]] && continue
  if (( first )); then host=${workers[0]}; first=0; fi
  echo "${host} ${rest}" >> "$hostfile"
done < "$OMPI_MCA_orte_default_hostfile"
export OMPI_MCA_orte_default_hostfile=$hostfile

wait_for_ssh "$deadline" "${workers[@]}"

root_flag=()
[[ "$(id -u)" == 0 ]] && root_flag=(--allow-run-as-root)
log "all ${#workers[@]} workers reachable; starting ${NIM_MPI_NUM_PROCESSES} ranks of: $*"
exec "${NIM_MPIRUN:-mpirun}" "${root_flag[@]}" -n "$NIM_MPI_NUM_PROCESSES" \
  -bind-to none -map-by slot \
  -mca plm_rsh_args "$(ssh_args)" \
  "$@"
