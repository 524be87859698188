# Shared by the ci/build-*.sh scripts (sourced): progress lines on stderr, and long steps that show they are alive.
# Expects `die` to be defined by the caller (its message prefix names the script).

# log MESSAGE...: "[  42s] message", seconds since the script started.
log() { printf '[%4ss] %s\n' "${SECONDS}" "$*" >&2; }

# run_step WHAT CMD...: runs CMD in the background, prints a line every 30 s while it runs, and its output only when
# it fails (then returns its exit code).
run_step() {
  local what="$1" started="${SECONDS}" next_beat=$((SECONDS + 30)) pid rc=0 out
  shift
  out="$(mktemp)"
  log "${what} ..."
  "$@" >"${out}" 2>&1 &
  pid=$!
  while kill -0 "${pid}" 2>/dev/null; do
    sleep 1
    if ((SECONDS >= next_beat)); then
      log "  still ${what} ($((SECONDS - started))s)"
      next_beat=$((next_beat + 30))
    fi
  done
  wait "${pid}" || rc=$?
  if ((rc != 0)); then
    cat "${out}" >&2
    rm -f "${out}"
    return "${rc}"
  fi
  rm -f "${out}"
  log "  done: ${what} in $((SECONDS - started))s"
}
