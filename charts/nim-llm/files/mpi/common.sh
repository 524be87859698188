#!/bin/bash
# Shared by leader.sh, worker.sh and launcher.sh (nim-llm chart, MPI start-up over SSH).

log() { echo "nim-llm[$(date -u +%H:%M:%S)] $*" >&2; }

# mpirun forwards none of the launching container's variables (no -x): a rank started on another pod gets that pod's
# own environment (worker.sh hands it to sshd's sessions), a rank on the leader's pod the leader's. So every rank sees
# its own pod's NIM_NODE_RANK, NIM_LEADER_ROLE, GPU and network variables, never the leader's or the launcher's.

# require_count NAME...: each variable holds a whole number. These reach bash arithmetic, which evaluates any
# other text as an expression (a[$(cmd)] would run cmd): refuse them before any arithmetic.
require_count() {
  local name
  for name in "$@"; do
    if [[ ! "${!name:-}" =~ ^[0-9]{1,9}$ ]]; then
      log "FAILED: ${name} must be a whole number, not '${!name:-}'"
      exit 2
    fi
  done
}

# require_port: NIM_MPI_SSH_PORT, when set, is a whole number (it goes into sshd_config and ssh options).
require_port() {
  if [[ -n "${NIM_MPI_SSH_PORT:-}" ]]; then
    require_count NIM_MPI_SSH_PORT
  fi
}

# require_hosts HOST...: each is a host name or address (letters, digits, '.', '-', ':'), nothing a shell or a
# hostfile line could read otherwise.
require_hosts() {
  local host
  for host in "$@"; do
    if [[ ! "$host" =~ ^[A-Za-z0-9][-A-Za-z0-9.:]*$ ]]; then
      log "FAILED: '${host}' is not a host name"
      exit 2
    fi
  done
}

# The workers the LeaderWorkerSet leader dials, one address per line: NIM_MPI_WORKER_HOSTS (space
# separated) when set, else the LeaderWorkerSet naming: the leader <lws>-<group> (LWS_LEADER_ADDRESS
# <lws>-<group>.<service>.<namespace>) has workers <lws>-<group>-<i> under the same headless Service.
worker_hosts() {
  local leader_host=${LWS_LEADER_ADDRESS%%.*} domain=${LWS_LEADER_ADDRESS#*.} i
  local -a hosts
  if [[ -n "${NIM_MPI_WORKER_HOSTS:-}" ]]; then
    read -r -a hosts <<< "${NIM_MPI_WORKER_HOSTS}"
    printf '%s\n' "${hosts[@]}"
  else
    require_count NIM_NUM_COMPUTE_NODES
    for (( i = 1; i < NIM_NUM_COMPUTE_NODES; i++ )); do
      echo "${leader_host}-${i}.${domain}"
    done
  fi
}

# serving_host HOST: the name the launcher dials for MPIJob worker 0, from the operator's hostfile entry
# <job>-worker-0.<job>.<namespace>.svc[.<domain>]: the chart's headless Service <job>-worker-0 in the same namespace,
# <job>-worker-0.<namespace>.svc[.<domain>], which publishes the pod before it is Ready.
serving_host() {
  local host=${1%%.*} rest=${1#*.}
  if [[ "$rest" == "$1" || "$rest" != *.* ]]; then
    echo "$1"
  else
    echo "${host}.${rest#*.}"
  fi
}

# ssh options mpirun uses to reach the workers' sshd.
ssh_args() {
  echo "-p ${NIM_MPI_SSH_PORT:-2222} -i ${NIM_MPI_SSH_KEY} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectionAttempts=10"
}

# wait_for_ssh DEADLINE_EPOCH HOST...: returns once every host accepts TCP on the sshd port,
# or exits 1 with a clear line when the deadline passes first. No pipeline, no subshell loop:
# the exit really ends the script.
wait_for_ssh() {
  local deadline=$1; shift
  local port=${NIM_MPI_SSH_PORT:-2222} host
  for host in "$@"; do
    log "waiting for worker ${host}:${port}"
    # host and port are arguments of the inner bash, never part of its script text.
    until timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$host" "$port" 2>/dev/null; do
      if (( $(date +%s) >= deadline )); then
        log "FAILED: worker ${host} did not accept SSH on port ${port} within CLUSTER_START_TIMEOUT=${CLUSTER_START_TIMEOUT}s; giving up"
        exit 1
      fi
      sleep 2
    done
    log "worker ${host} is reachable"
  done
}

# sshd_setenv_line: one sshd_config "SetEnv" line carrying every variable of this container (sshd honours only the
# first SetEnv line of a config, and one line may hold many NAME=value pairs). Each pair is double-quoted, with '\'
# and '"' escaped as sshd's argument splitting reads them. Shell bookkeeping is left out, and values spanning lines
# (sshd_config has no way to write them) are left out with a log line. HOME goes along: sshd would otherwise give a rank
# the home of the uid's passwd entry, a directory of the read-only image, instead of the pod's writable home.
sshd_setenv_line() {
  local name value
  local -a pairs=()
  while IFS= read -r name; do
    case "$name" in
      HOSTNAME|PWD|OLDPWD|SHLVL|_|TERM) continue ;;
    esac
    value=${!name}
    if [[ "$value" == *[$'\n\r']* ]]; then
      log "not handed to MPI ranks: ${name} spans lines"
      continue
    fi
    value=${value//\\/\\\\}
    value=${value//\"/\\\"}
    pairs+=("\"${name}=${value}\"")
  done < <(compgen -e)
  (( ${#pairs[@]} > 0 )) && echo "SetEnv ${pairs[*]}"
  return 0
}

# hostfile_hosts FILE: the host names of an MPI hostfile (first word of each line that is not a comment).
hostfile_hosts() {
  local host rest
  while read -r host rest; do
    [[ -z "$host" || "$host" == \#* ]] && continue
    echo "$host"
  done < "$1"
}
