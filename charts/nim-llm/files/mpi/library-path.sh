#!/bin/bash
# Prepends the networking provider's NCCL plugin directories to the image's LD_LIBRARY_PATH, then runs the pod's
# command in place of this script. A pod spec can only replace an image variable (the kubelet's $(VAR) sees the pod's
# variables, not the image's), so the prepending happens here, at process start.
# Usage: library-path.sh DIRS -- COMMAND [ARG...]   (DIRS: colon-separated; empty leaves LD_LIBRARY_PATH alone)
# Everything started from COMMAND inherits the result: the LWS leader's mpirun and the ranks on its pod, and the
# workers' sshd, whose single SetEnv line hands it to every rank started there (see common.sh).
set -euo pipefail
dirs=${1-}
shift || true
[[ "${1:-}" == -- ]] && shift
(( $# > 0 )) || { echo "library-path.sh: no command given" >&2; exit 2; }
if [[ -n "$dirs" ]]; then
  export LD_LIBRARY_PATH="${dirs}${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
fi
exec "$@"
