#!/usr/bin/env bash
# The README's two commands as a fresh machine runs them: a fresh clone of this repository, then `ci/show-example.sh`
# and `mvn -B verify` (CI=true) in it, with every cache the build fills empty. Writes into DIR (which must not exist):
#   repo/             the clone
#   head.txt          its commit
#   times.tsv         one line per command: name (show-example, verify), wall milliseconds, exit code
#   show-example.log, verify.log   each command's output
# ci/benchmark.sh --cold runs it and records the figures; --cold-results DIR records a run made before.
#
#   ci/cold-run.sh [--machine-caches] DIR
#
# --machine-caches: no isolation; the commands fill the machine's own caches (for a machine that is itself fresh, so
# the caches it builds stay for later work). Refused when any of those caches already exists: the run would not be cold.
#
# As root with unshare(1): the commands run in a mount namespace of their own where the home directory is an empty
# directory (Maven's ~/.m2, Go's module and build caches, ~/.cache/nim-llm-chart with the control plane, controllers,
# tools, the endpoint picker, KEDA's webhooks and the policy enforcer, npm's and pip's caches) and so is
# /usr/local/lib/nim-llm-chart (Ray); only the machine's own set-up in the home directory is bound back (.pyenv,
# .cargo, .rustup, Go's env file, .npmrc, .gitconfig, shell profiles). Nothing outside DIR changes, and other work on
# the machine keeps its caches. Otherwise: HOME, MAVEN_OPTS' local repository and every NIM_*_DIR point into DIR
# (Ray's directory stays the machine's: it needs root to move). Packages the ci/ scripts install with apt-get
# (sshd, mpirun, python3-venv) stay installed either way.
# Cost: the whole suite with every build from source; about an hour on 2 cores (docs/benchmarks.md gives the figure).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "cold-run: $*" >&2; exit 2; }
machine_caches=false
if [[ ${1:-} == --machine-caches ]]; then machine_caches=true; shift; fi
[[ $# -eq 1 ]] || die "usage: ci/cold-run.sh [--machine-caches] DIR (a directory that does not exist yet)"
if $machine_caches; then
  # Go's caches where go itself puts them (GOMODCACHE, GOCACHE may be set elsewhere than under HOME)
  for c in "$HOME/.m2" "$(go env GOMODCACHE)" "$(go env GOCACHE)" "$HOME/.cache/nim-llm-chart" /usr/local/lib/nim-llm-chart; do
    [[ ! -e "$c" ]] || die "--machine-caches: $c exists, so the run would not be cold; run without --machine-caches"
  done
fi
[[ ! -e "$1" ]] || die "$1 exists; give a new directory"
mkdir -p "$1"
dir=$(cd "$1" && pwd)
git clone -q "$repo" "$dir/repo"
git -C "$dir/repo" log --oneline -1 >"$dir/head.txt"
: >"$dir/times.tsv"

# The two commands, timed, in the clone; runs inside whatever isolation the caller set up.
commands() {
  cd "$dir/repo"
  export CI=true
  local name start rc
  for name in show-example verify; do
    start=$(date +%s%N)
    rc=0
    case "$name" in
      show-example) ci/show-example.sh >"$dir/show-example.log" 2>&1 || rc=$? ;;
      verify) mvn -B verify >"$dir/verify.log" 2>&1 || rc=$? ;;
    esac
    printf '%s\t%s\t%s\n' "$name" $((($(date +%s%N) - start) / 1000000)) "$rc" >>"$dir/times.tsv"
    echo "cold-run: $name exited $rc" >&2
    [[ $rc == 0 ]] || return "$rc"
  done
}

if $machine_caches; then
  commands
  exit
fi
if [[ $(id -u) == 0 ]] && command -v unshare >/dev/null 2>&1; then
  mkdir -p "$dir/home" "$dir/machine-home" "$dir/usr-local-lib"
  export dir
  exec unshare -m --propagation private bash -c "$(declare -f commands)"'
    set -euo pipefail
    home=$HOME
    mount --bind "$home" "$dir/machine-home"
    for f in .bashrc .profile .gitconfig .npmrc .config/go; do
      if [[ -e "$dir/machine-home/$f" ]]; then
        mkdir -p "$dir/home/$(dirname "$f")"
        cp -a "$dir/machine-home/$f" "$dir/home/$f"
      fi
    done
    mount --bind "$dir/home" "$home"
    for d in .pyenv .cargo .rustup; do
      if [[ -d "$dir/machine-home/$d" ]]; then
        mkdir -p "$home/$d"
        mount --bind "$dir/machine-home/$d" "$home/$d"
      fi
    done
    if [[ -d /usr/local/lib/nim-llm-chart ]]; then
      mount --bind "$dir/usr-local-lib" /usr/local/lib/nim-llm-chart
    fi
    commands'
fi
export HOME="$dir/home" MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$dir/home/.m2/repository"
export GOMODCACHE="$dir/home/go/pkg/mod" GOCACHE="$dir/home/.cache/go-build"
for v in CONTROL_PLANE TOOLS CONTROLLERS EPP KEDA NETPOL; do
  export "NIM_${v}_DIR=$dir/home/.cache/nim-llm-chart/$(tr 'A-Z_' 'a-z-' <<<"$v")"
done
mkdir -p "$HOME"
commands
