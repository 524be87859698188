#!/bin/bash
# Worker in MPI launch mode: runs sshd (as the pod's user, on NIM_MPI_SSH_PORT) accepting the group's key, so the
# leader's (or launcher's) mpirun can start ranks here. sshd hands this container's own environment (this pod's
# NIM_NODE_RANK, NIM_LEADER_ROLE, device and network variables) to every session, so to every rank started here,
# with ONE SetEnv line (sshd honours only the first SetEnv line of a config).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
: "${NIM_MPI_SSH_KEY:?}"
require_port

dir=$(mktemp -d /tmp/nim-sshd.XXXXXX)
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
ssh-keygen -y -f "$NIM_MPI_SSH_KEY" > "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
{
  echo "Port ${NIM_MPI_SSH_PORT:-2222}"
  echo "HostKey $dir/host_key"
  echo "AuthorizedKeysFile $dir/authorized_keys"
  echo "PidFile $dir/sshd.pid"
  echo "PasswordAuthentication no"
  echo "KbdInteractiveAuthentication no"
  echo "StrictModes no"
  echo "UsePAM no"
  sshd_setenv_line
} > "$dir/sshd_config"
log "sshd listening on port ${NIM_MPI_SSH_PORT:-2222}"
exec /usr/sbin/sshd -D -e -f "$dir/sshd_config"
