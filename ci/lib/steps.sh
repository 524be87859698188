# Shared by the ci/ build and install scripts (sourced): progress lines on stderr, long steps that show they are alive,
# and the machine-wide lock that keeps two of them (forked test JVMs ask together) from building or installing the same
# thing at once. Expects `die` to be defined by the caller (its message prefix names the script).

# hold_lock FILE: waits for, then holds until the script ends (or the next hold_lock), an exclusive lock on FILE,
# created if missing, on file descriptor 9. Without flock(1) it does nothing. The caller looks again for what it was
# about to build or install once it holds the lock: whoever held it before may have made it.
hold_lock() {
  command -v flock >/dev/null 2>&1 || return 0
  mkdir -p "$(dirname "$1")"
  exec 9>"$1"
  flock 9
}

# private_partial DEST: creates and prints a new, empty directory beside DEST that no other run uses
# (DEST.partial.XXXXXX, mode 755), for building what goes to DEST; the caller renames it to DEST once complete
# (publish_partial), so DEST is either absent or whole. Partial directories left by an interrupted run of DEST are
# removed first: call it only while holding the lock for DEST, so none of them is another run's work in progress.
private_partial() {
  local dest="$1" dir
  mkdir -p "$(dirname "${dest}")"
  rm -rf "${dest}".partial.*
  dir="$(mktemp -d "${dest}.partial.XXXXXX")" || die "cannot create a directory beside ${dest}"
  chmod 755 "${dir}"
  printf '%s' "${dir}"
}

# publish_partial PARTIAL DEST: replaces DEST (if any) by the complete directory PARTIAL, with a rename.
publish_partial() {
  rm -rf "$2"
  mv -T "$1" "$2" || die "cannot rename $1 to $2"
}

# apt_install NAME PACKAGES...: installs Debian packages with apt-get, as root, without starting any service their
# maintainer scripts would start (a temporary policy-rc.d refusing every start, removed afterwards, also on failure);
# exits naming NAME and the packages when not root or without apt-get. Call it holding the machine's install lock
# (${TMPDIR:-/tmp}/nim-llm-chart-install.lock): apt-get does not wait for another.
apt_install() {
  local name="$1"; shift
  [[ "$(id -u)" == 0 ]] || { echo "${name}: missing $* and not root: run this script as root" >&2; exit 1; }
  command -v apt-get >/dev/null 2>&1 || { echo "${name}: no apt-get here; install $* yourself" >&2; exit 1; }
  local policy=/usr/sbin/policy-rc.d made="" rc=0
  if [[ ! -e "${policy}" ]]; then
    printf '#!/bin/sh\nexit 101\n' > "${policy}"
    chmod 755 "${policy}"
    made=1
  fi
  echo "${name}: installing $*"
  { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"; } || rc=$?
  [[ -z "${made}" ]] || rm -f "${policy}"
  return "${rc}"
}

# venv_build PYTHON DEST PIP_ARGS...: a Python virtual environment for DEST made by PYTHON, with `pip install PIP_ARGS`
# in it, built in a private partial directory (private_partial) whose path goes to the variable venv_partial; the
# caller adds what else it needs and renames it to DEST (publish_partial). A venv's scripts name its interpreter by
# absolute path, so the partial path is rewritten to DEST in bin/ and pyvenv.cfg here. Call it holding the lock for
# DEST. On failure dies with the cause (venv's or pip's own output), removing the partial directory.
venv_build() {
  local python="$1" dest="$2" out
  shift 2
  venv_partial="$(private_partial "${dest}")"
  if ! out="$("${python}" -m venv --prompt "$(basename "${dest}")" "${venv_partial}" 2>&1)"; then
    rm -rf "${venv_partial}"
    if grep -q "ensurepip is not available" <<<"${out}" || ! "${python}" -c 'import venv, ensurepip' >/dev/null 2>&1; then
      die "${python} -m venv failed: ${python} has no usable venv/ensurepip module (Debian/Ubuntu: apt-get install python3-venv). Its output:
${out}"
    fi
    die "${python} -m venv ${venv_partial} failed (${python} has its venv and ensurepip modules, so python3-venv is not what is missing). Its output:
${out}"
  fi
  if ! "${venv_partial}/bin/pip" install --quiet --disable-pip-version-check --no-input --require-virtualenv "$@" >&2; then
    rm -rf "${venv_partial}"
    die "pip could not install $* (pip's output is above)"
  fi
  { grep -rlIF --exclude-dir=lib "${venv_partial}" "${venv_partial}/bin" "${venv_partial}/pyvenv.cfg" || true; } |
    while read -r f; do
      sed -i "s#${venv_partial}#${dest}#g" "${f}"
    done
}

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

# kube_ldflags TAG BUILD_DATE: the -ldflags of a Kubernetes binary, stamped as upstream's hack/lib/version.sh stamps
# it, so that `kube-apiserver --version` prints "Kubernetes v1.34.10" (without the stamps it prints v0.0.0-master and
# clients see a bogus server version). BUILD_DATE is the module's publication time (reproducible builds).
kube_ldflags() {
  local tag="$1" date="${2:-1970-01-01T00:00:00Z}" flags="-s -w" pkg
  [[ "${tag}" =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || die "unexpected Kubernetes version ${tag}"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X ${pkg}.gitVersion=${tag} -X ${pkg}.gitMajor=${BASH_REMATCH[1]} -X ${pkg}.gitMinor=${BASH_REMATCH[2]}"
    flags+=" -X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=${date}"
  done
  printf '%s' "${flags}"
}

# go_mod_download_json OUT_FILE MODULE@VERSION...: `go mod download -json` of the modules into OUT_FILE, run outside
# any module (so neither ci/go.mod nor a go.work is touched or consulted) and with -mod=mod (so the user's GOFLAGS,
# e.g. -mod=vendor, cannot get in the way); one call, so the zips are fetched in parallel on a cold cache. On failure
# prints Go's errors and dies.
go_mod_download_json() {
  local out="$1" dir
  shift
  dir="$(mktemp -d)"
  if ! (cd "${dir}" && GOFLAGS=-mod=mod GOWORK=off GO111MODULE=on go mod download -json "$@") >"${out}" 2>"${out}.err"; then
    cat "${out}.err" >&2
    grep '"Error"' "${out}" >&2 || true
    rmdir "${dir}"
    die "go mod download failed for: $* (GOPROXY=$(go env GOPROXY))"
  fi
  rmdir "${dir}"
}

# parse_tool_args DEFAULT_TOOLS... -- ARGS...: the arguments of the tool installers (build-tools.sh,
# install-python-tools.sh, install-node-tools.sh): "[--print-path] [TOOL...]". Sets print_path (true|false) and the
# array tools (the TOOLs given, else the defaults).
parse_tool_args() {
  local defaults=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do defaults+=("$1"); shift; done
  shift
  print_path=false
  if [[ "${1:-}" == "--print-path" ]]; then
    print_path=true
    shift
  fi
  tools=("$@")
  ((${#tools[@]} > 0)) || tools=("${defaults[@]}")
}
