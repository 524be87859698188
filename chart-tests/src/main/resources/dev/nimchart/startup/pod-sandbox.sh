#!/bin/bash
# Runs one pod's main container process the way a container runtime would, inside the network namespace that
# `ip netns exec` entered and a UTS namespace of its own: the pod's host name, /etc as an overlay whose upper layer holds
# the pod's hosts, resolv.conf, passwd and group files, a private /tmp (unless a volume is mounted there) and /dev/shm,
# /opt from the pod directory (the image's files: the NIM stand-in), the pod's volumes bound at their mount paths
# (read-only ones read-only), / and /etc and /opt read-only when the container asks for a read-only root filesystem
# (POD_DIR/read-only-root exists), then the command as the pod's user with exactly the pod's environment. Nothing here
# reaches the host's mounts (ip netns exec made the mount namespace private; a bind remount changes this namespace's
# mount only).
# Usage: pod-sandbox.sh POD_DIR HOSTNAME UID GID -- COMMAND [ARG...]   (environment: POD_DIR/env, NUL-separated)
set -euo pipefail
pod=$1 host=$2 uid=$3 gid=$4
shift 4
[[ "${1:-}" == -- ]] && shift
hostname "$host"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=${pod}/etc-upper,workdir=${pod}/etc-work" /etc
mount -t tmpfs -o mode=755 tmpfs /opt
cp -a "${pod}/opt/." /opt/
# One volume mount (source, target, rw|ro).
bind() {
  local source=$1 target=$2 mode=$3
  if [[ -d "$source" ]]; then mkdir -p "$target"; else mkdir -p "$(dirname "$target")"; touch "$target"; fi
  mount --bind "$source" "$target"
  [[ "$mode" == ro ]] && mount -o remount,bind,ro "$target"
  return 0
}
tmp_volume=""
deferred=()
while IFS=$'\t' read -r source target mode; do
  [[ -z "$source" ]] && continue
  # Mounts on /tmp (and below it) wait until the end: the pod directory and the volumes' sources may themselves be
  # under /tmp (a checkout there), and a volume on /tmp would hide them.
  if [[ "${target%/}" == /tmp || "$target" == /tmp/* ]]; then
    # Staged outside /tmp now (a bind keeps its source), bound on its target once /tmp is covered.
    stage="/opt/.pod-mounts/${#deferred[@]}"
    bind "$source" "$stage" rw
    deferred+=("$stage" "$target" "${mode:-rw}")
    [[ "${target%/}" == /tmp ]] && tmp_volume=1
    continue
  fi
  bind "$source" "$target" "${mode:-rw}"
done < "${pod}/mounts"
# The pod's own /dev/shm (a container runtime gives every pod one; Ray's object store lives there).
mount -t tmpfs -o mode=1777,size=512m tmpfs /dev/shm
env_args=()
while IFS= read -r -d '' kv; do env_args+=("$kv"); done < "${pod}/env"
# The private /tmp comes last, for the same reason; the mounts made above keep their sources once /tmp is covered.
if [[ -z "$tmp_volume" ]]; then
  mount -t tmpfs -o mode=1777 tmpfs /tmp
fi
for ((i = 0; i < ${#deferred[@]}; i += 3)); do
  bind "${deferred[i]}" "${deferred[i+1]}" "${deferred[i+2]}"
done
if [[ -e "${pod}/read-only-root" ]]; then
  # The image's root filesystem: the host's / stands for it, with /etc and /opt (the image's files) on top; /tmp too
  # when no volume is mounted there (it is then part of the root filesystem).
  for target in / /etc /opt; do mount -o remount,bind,ro "$target"; done
  [[ -z "$tmp_volume" ]] && mount -o remount,ro /tmp
fi
cd /
exec setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all -- env -i "${env_args[@]}" "$@"
