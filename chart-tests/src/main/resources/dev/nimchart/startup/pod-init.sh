#!/bin/bash
# Runs a pod's init containers, then its main container, as the kubelet does: each init container to completion, one
# at a time and in order (each in its own sandbox: pod-sandbox.sh with the container's directory POD_DIR/init-NAME,
# whose argv file holds its command line, NUL-separated; its output in POD_DIR/init-NAME/log); the main container only
# after all of them succeeded, as this process (exec), so its output stays this process's. An init container that fails
# keeps the main container from starting: POD_DIR/init-status then says which and its exit code, and this process exits
# with that code (the kubelet would restart the init container with back-off: the pod stays in Init:Error /
# Init:CrashLoopBackOff, never started). POD_DIR/init-status says "running NAME" while one runs, "started" after.
# Usage: pod-init.sh POD_DIR INIT_DIR... -- MAIN_COMMAND [ARG...]   (run inside the pod's network namespace)
set -uo pipefail
pod=$1
shift
inits=()
while (( $# > 0 )) && [[ "$1" != -- ]]; do inits+=("$1"); shift; done
shift
for dir in "${inits[@]}"; do
  name=$(basename "$dir")
  name=${name#init-}
  mapfile -d '' argv < "${dir}/argv"
  echo "running ${name}" > "${pod}/init-status"
  "${argv[@]}" > "${dir}/log" 2>&1 < /dev/null
  rc=$?
  if (( rc != 0 )); then
    echo "Init:Error: init container ${name} exited with ${rc}" > "${pod}/init-status"
    exit "$rc"
  fi
done
echo started > "${pod}/init-status"
exec "$@"
