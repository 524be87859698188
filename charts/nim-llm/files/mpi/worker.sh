#!/bin/bash
# Worker in MPI launch mode: runs sshd (as the pod's user, on NIM_MPI_SSH_PORT) accepting the group's public key
# (NIM_MPI_SSH_AUTHORIZED_KEYS), so the leader's (or launcher's) mpirun can start ranks here.
# sshd hands this container's own environment (this pod's NIM_NODE_RANK, NIM_LEADER_ROLE, device and network
# variables) to every session, so to every rank started here, with ONE SetEnv line (sshd honours only the first SetEnv line of a config).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
: "${NIM_MPI_SSH_AUTHORIZED_KEYS:?}" "${NIM_MPI_SSHD_DIR:?NIM_MPI_SSHD_DIR is not set: the sshd files (its config carries the environment of this container) go to a memory-backed directory only}"
require_port

# Least privilege: this pod holds the group's public key only (the leader or launcher holds the private key), and
# every file of sshd, the config whose SetEnv line carries this container's environment (secrets included) among
# them, lives in NIM_MPI_SSHD_DIR, a memory-backed emptyDir: nothing of it is written to the node's disk.
dir=$(mktemp -d "${NIM_MPI_SSHD_DIR}/sshd.XXXXXX")
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
cp "$NIM_MPI_SSH_AUTHORIZED_KEYS" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
(
  umask 077
  {
    echo "Port ${NIM_MPI_SSH_PORT:-2222}"
    echo "HostKey $dir/host_key"
    echo "AuthorizedKeysFile $dir/authorized_keys"
    echo "PidFile $dir/sshd.pid"
    echo "PasswordAuthentication no"
    echo "KbdInteractiveAuthentication no"
    echo "StrictModes no"
    echo "UsePAM no"
    # mpirun needs command execution only: no forwarding of any kind, no tunnels, no X11, no terminals.
    echo "AllowTcpForwarding no"
    echo "AllowStreamLocalForwarding no"
    echo "AllowAgentForwarding no"
    echo "GatewayPorts no"
    echo "PermitTunnel no"
    echo "X11Forwarding no"
    echo "PermitTTY no"
    echo "PermitUserRC no"
    sshd_setenv_line
  } > "$dir/sshd_config"
)
log "sshd listening on port ${NIM_MPI_SSH_PORT:-2222}"
exec "${NIM_SSHD:-/usr/sbin/sshd}" -D -e -f "$dir/sshd_config"
