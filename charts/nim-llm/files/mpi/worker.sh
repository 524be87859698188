#!/bin/bash
# Worker in MPI launch mode: runs sshd (as the pod's user, on NIM_MPI_SSH_PORT) accepting the
# group's key, so the leader's (or launcher's) mpirun can start ranks here. The container's own
# environment (device and NCCL variables of this pod) is handed to those ranks with SetEnv.
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
  while IFS= read -r name; do
    case "$name" in
      HOSTNAME|HOME|PWD|OLDPWD|SHLVL|_|TERM) continue ;;
    esac
    value=${!name}
    [[ "$value" == *$'\n'* || "$value" == *'"'* ]] && continue
    echo "SetEnv \"${name}=${value}\""
  done < <(compgen -e)
} > "$dir/sshd_config"
log "sshd listening on port ${NIM_MPI_SSH_PORT:-2222}"
exec /usr/sbin/sshd -D -e -f "$dir/sshd_config"
