#!/bin/bash
# MPIJob launcher: the MPI operator starts it once every worker is ready and writes the
# hostfile (OMPI_MCA_orte_default_hostfile). Runs the server command ("$@") on all ranks.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
: "${NIM_MPI_NUM_PROCESSES:?}" "${NIM_MPI_SSH_KEY:?}"
(( $# > 0 )) || { log "no server command given"; exit 2; }
require_count NIM_MPI_NUM_PROCESSES
require_port

mapfile -t exports < <(mpi_export_args)
root_flag=()
[[ "$(id -u)" == 0 ]] && root_flag=(--allow-run-as-root)
log "starting ${NIM_MPI_NUM_PROCESSES} ranks"
exec "${NIM_MPIRUN:-mpirun}" "${root_flag[@]}" -n "$NIM_MPI_NUM_PROCESSES" \
  -bind-to none -map-by slot \
  -mca plm_rsh_args "$(ssh_args)" \
  "${exports[@]}" "$@"
