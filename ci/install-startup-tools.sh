#!/bin/bash
# Installs what the start-up tier runs: OpenSSH's sshd and client, Open MPI's mpirun, and iproute2 (ip netns),
# from the distribution's packages (Debian: openssh-server, openssh-client, openmpi-bin, iproute2).
# Idempotent: does nothing when every binary is there. Needs root (apt-get). Never starts a service: packages'
# maintainer scripts are kept from starting sshd on this machine with a temporary policy-rc.d.
set -euo pipefail
# One install at a time on a machine (apt-get and pip do not wait for each other): the second finds the first's result.
# shellcheck source=lib/steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/steps.sh"
hold_lock "${TMPDIR:-/tmp}/nim-llm-chart-install.lock"

need=()
command -v /usr/sbin/sshd >/dev/null 2>&1 || need+=(openssh-server)
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
command -v ssh-keygen >/dev/null 2>&1 || need+=(openssh-client)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
if (( ${#need[@]} == 0 )); then
  echo "install-startup-tools: sshd, ssh, mpirun and ip are installed"
  exit 0
fi
mapfile -t pkgs < <(printf '%s\n' "${need[@]}" | sort -u)
apt_install install-startup-tools "${pkgs[@]}"
/usr/sbin/sshd -V 2>&1 | sed -n 1p || true
mpirun --version | sed -n 1p
