#!/bin/bash
# Runs one pod's main container process the way a container runtime would, inside the network namespace that
# `ip netns exec` entered and a UTS namespace of its own: the pod's host name, /etc as an overlay whose upper layer holds
# the pod's hosts, resolv.conf, passwd and group files, a private /tmp (unless a volume is mounted there) and /dev/shm,
# /opt from the pod directory (the image's files: the NIM stand-in), the pod's volumes bound at their mount paths
# (read-only ones read-only; an emptyDir is the pod's tmpfs at POD/empty-dir/NAME, which the executor mounted once for the
# pod before its first container: every container binds the same one and a restarted container finds its files), /home with the image's home directories
# (POD_DIR/image-homes: path, uid, gid), / and /etc, /opt and /home read-only when the container asks for a read-only root
# filesystem (POD_DIR/read-only-root exists), then the command as the pod's user, with its supplementary groups (fsGroup,
# supplementalGroups) and exactly the pod's environment, every capability dropped and no_new_privs set, as runc starts
# a container whose securityContext drops ALL and sets allowPrivilegeEscalation: false. Nothing here reaches the host's
# mounts (ip netns exec made the mount namespace private; a bind remount changes this namespace's mount only).
# Usage: pod-sandbox.sh POD_DIR HOSTNAME UID GID GROUPS -- COMMAND [ARG...]   (GROUPS: comma-separated, or - for none;
# environment: POD_DIR/env, NUL-separated)
set -euo pipefail
pod=$1 host=$2 uid=$3 gid=$4 groups=$5
shift 5
# The pod's settings, read now: the pod directory may lie under /tmp (a checkout there), which the pod's own /tmp covers
# before the process starts.
read_only_root=""; [[ -e "${pod}/read-only-root" ]] && read_only_root=1
no_new_privs=""; [[ -e "${pod}/no-new-privs" ]] && no_new_privs=1
bounding_set=""; [[ -s "${pod}/bounding-set" ]] && bounding_set=$(< "${pod}/bounding-set")
[[ "${1:-}" == -- ]] && shift
hostname "$host"
if ! overlay_error=$(mount -t overlay overlay -o "lowerdir=/etc,upperdir=${pod}/etc-upper,workdir=${pod}/etc-work" /etc 2>&1); then
  # A kernel (or a sandboxing runtime) without overlayfs: the same view of /etc from a copy, the pod's files over it.
  echo "pod-sandbox: no overlayfs here (${overlay_error}): /etc is a copy of the host's with the pod's files on top" >&2
  mkdir -p "${pod}/etc-copy"
  mount -t tmpfs -o mode=755 tmpfs "${pod}/etc-copy"
  cp -a /etc/. "${pod}/etc-copy/" 2>/dev/null || true
  cp -a "${pod}/etc-upper/." "${pod}/etc-copy/"
  mount --bind "${pod}/etc-copy" /etc
fi
# The image's own files outside /opt that the pod's /opt, /home and /tmp would hide (POD_DIR/image-binds, one host path a
# line: the GPU engine's Python and the libraries it links, wherever the host keeps them), staged before they are covered
# and bound read-only at their own paths below, as a container sees its image's files.
image_binds=()
if [[ -s "${pod}/image-binds" ]]; then
  while IFS= read -r path; do
    [[ -z "$path" ]] && continue
    stage="${pod}/image-stage/${#image_binds[@]}"
    mkdir -p "$stage" && mount --bind "$path" "$stage"
    image_binds+=("$path")
  done < "${pod}/image-binds"
fi
mount -t tmpfs -o mode=755 tmpfs /opt
cp -a "${pod}/opt/." /opt/
for ((i = 0; i < ${#image_binds[@]}; i++)); do
  mkdir -p "/opt/.image-stage/${i}" && mount --bind "${pod}/image-stage/${i}" "/opt/.image-stage/${i}"
done
# The image's home directories under /home, each owned by its user (the image's files: read-only with the root).
mount -t tmpfs -o mode=755 tmpfs /home
while IFS=$'\t' read -r home huid hgid; do
  [[ -z "$home" ]] && continue
  mkdir -p "$home" && chown "$huid:$hgid" "$home" && chmod 750 "$home"
done < "${pod}/image-homes"
# One volume mount (source, target, rw|ro): the source (a directory or a file; an emptyDir's tmpfs) bound at the target.
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
# The pod's own /dev/shm (a container runtime gives every pod one; Ray's object store lives there): its memory-backed
# emptyDir when it mounts one there (POD_DIR/shm: the volume's source, bound there), else a tmpfs of 512 MiB (a
# runtime's default is 64 MiB; the Ray stand-in's object store takes 80 MiB).
if [[ -s "${pod}/shm" ]]; then
  mount --bind "$(< "${pod}/shm")" /dev/shm
else
  mount -t tmpfs -o "mode=1777,size=512m" tmpfs /dev/shm
fi
env_args=()
while IFS= read -r -d '' kv; do env_args+=("$kv"); done < "${pod}/env"
# The private /tmp comes last, for the same reason; the mounts made above keep their sources once /tmp is covered.
if [[ -z "$tmp_volume" ]]; then
  mount -t tmpfs -o mode=1777 tmpfs /tmp
fi
for ((i = 0; i < ${#deferred[@]}; i += 3)); do
  bind "${deferred[i]}" "${deferred[i+1]}" "${deferred[i+2]}"
done
for ((i = 0; i < ${#image_binds[@]}; i++)); do
  mkdir -p "${image_binds[i]}" && mount --bind "/opt/.image-stage/${i}" "${image_binds[i]}"
  mount -o remount,bind,ro "${image_binds[i]}"
done
if [[ -n "$read_only_root" ]]; then
  # The image's root filesystem: the host's / stands for it, with /etc and /opt (the image's files) on top; /tmp too
  # when no volume is mounted there (it is then part of the root filesystem).
  for target in / /etc /opt /home; do mount -o remount,bind,ro "$target"; done
  [[ -z "$tmp_volume" ]] && mount -o remount,ro /tmp
fi
cd /
if [[ "$groups" == - ]]; then group_args=(--clear-groups); else group_args=("--groups=$groups"); fi
# The capability bounding set (POD_DIR/bounding-set, e.g. -all,+ipc_lock when the container drops ALL and adds IPC_LOCK)
# and no_new_privs (POD_DIR/no-new-privs, for allowPrivilegeEscalation: false), as runc applies them.
priv_args=()
[[ -n "$bounding_set" ]] && priv_args+=("--bounding-set=$bounding_set")
[[ -n "$no_new_privs" ]] && priv_args+=(--no-new-privs)
exec setpriv --reuid="$uid" --regid="$gid" "${group_args[@]}" --inh-caps=-all "${priv_args[@]}" -- env -i "${env_args[@]}" "$@"
