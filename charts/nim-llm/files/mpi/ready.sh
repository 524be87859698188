#!/bin/bash
# Readiness of an MPIJob worker pod (exec probe). Usage: ready.sh PATH
# Worker 0 (NIM_NODE_RANK 0) hosts MPI rank 0, which serves the API: it is Ready only while the server answers PATH
# (readinessProbe.path) on NIM_SERVER_PORT, so the inference Service reaches it only then. The other workers are Ready
# while their sshd accepts connections: the MPI operator publishes their DNS names (which the launcher's mpirun dials)
# only while they are Ready. With PATH empty (readinessProbe disabled) worker 0 is Ready on sshd too.
set -uo pipefail
path=${1:-}

# http_ok PORT PATH: the server on this pod answers PATH with a 2xx status.
http_ok() {
  exec 3<>"/dev/tcp/127.0.0.1/$1" 2>/dev/null || return 1
  printf 'GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n' "$2" >&3
  local status
  IFS= read -r -t 5 status <&3 || return 1
  [[ "$status" =~ ^HTTP/1\.[01]\ 2[0-9][0-9] ]]
}

if [[ -n "$path" && "${NIM_NODE_RANK:-}" == 0 ]]; then
  port=${NIM_SERVER_PORT:-8000}
  [[ "$port" =~ ^[0-9]{1,9}$ ]] || exit 1
  http_ok "$port" "$path"
  exit
fi
port=${NIM_MPI_SSH_PORT:-2222}
[[ "$port" =~ ^[0-9]{1,9}$ ]] || exit 1
(exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null
