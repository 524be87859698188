#!/bin/bash
# Readiness of an MPIJob worker pod (exec probe). The MPI operator publishes a worker's DNS name only while it is
# Ready and starts the launcher only when every worker is, so a worker is Ready when its sshd accepts connections.
# Worker 0 (NIM_NODE_RANK 0) hosts MPI rank 0, which serves the API: once an MPI daemon runs there (the launcher's
# mpirun has connected), it is Ready only while the server answers $1 (readinessProbe.path) on NIM_SERVER_PORT.
set -uo pipefail
path=${1:-}
port=${NIM_MPI_SSH_PORT:-2222}
[[ "$port" =~ ^[0-9]{1,9}$ ]] || exit 1
(exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null || exit 1
[[ -n "$path" && "${NIM_NODE_RANK:-}" == 0 ]] || exit 0

mpi_daemon_running() {
  local comm
  for comm in /proc/[0-9]*/comm; do
    read -r c < "$comm" 2>/dev/null || continue
    [[ "$c" == orted || "$c" == prted ]] && return 0
  done
  return 1
}
mpi_daemon_running || exit 0

server_port=${NIM_SERVER_PORT:-8000}
[[ "$server_port" =~ ^[0-9]{1,9}$ ]] || exit 1
exec 3<>"/dev/tcp/127.0.0.1/${server_port}" 2>/dev/null || exit 1
printf 'GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n' "$path" >&3
IFS= read -r -t 5 status <&3 || exit 1
[[ "$status" =~ ^HTTP/1\.[01]\ 2[0-9][0-9] ]]
