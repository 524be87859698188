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
tmp_volume=""
while IFS=$'\t' read -r source target mode; do
  [[ -z "$source" ]] && continue
  if [[ -d "$source" ]]; then mkdir -p "$target"; else mkdir -p "$(dirname "$target")"; touch "$target"; fi
  mount --bind "$source" "$target"
  [[ "$mode" == ro ]] && mount -o remount,bind,ro "$target"
  [[ "${target%/}" == /tmp ]] && tmp_volume=1
done < "${pod}/mounts"
# The pod's own /dev/shm (a container runtime gives every pod one; Ray's object store lives there).
mount -t tmpfs -o mode=1777,size=512m tmpfs /dev/shm
env_args=()
while IFS= read -r -d '' kv; do env_args+=("$kv"); done < "${pod}/env"
# The private /tmp comes last: the pod directory may itself be under /tmp (a checkout there), and everything above
# reads from it; the mounts made above keep their sources once /tmp is covered.
if [[ -z "$tmp_volume" ]]; then
  mount -t tmpfs -o mode=1777 tmpfs /tmp
fi
if [[ -e "${pod}/read-only-root" ]]; then
  # The image's root filesystem: the host's / stands for it, with /etc and /opt (the image's files) on top; /tmp too
  # when no volume is mounted there (it is then part of the root filesystem).
  for target in / /etc /opt; do mount -o remount,bind,ro "$target"; done
  [[ -z "$tmp_volume" ]] && mount -o remount,ro /tmp
fi
cd /
exec setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all -- env -i "${env_args[@]}" "$@"
