#!/bin/bash
# Installs Ray, pinned, from PyPI into a virtual environment of its own, for the start-up tier's Ray groups: the
# stand-in for a NIM 2.x/3.x image's `nim-serve-ray` runs the real `ray` (a real head, real workers joining it).
# The environment is made with the distribution's /usr/bin/python3 (not a python under /root), in a directory every
# user can read, because the pods' processes run as their own non-root uid. Idempotent: does nothing when the
# directory already holds this version. Needs root when python3-venv is missing (apt-get). Runs at the same time wait
# for each other (the machine-wide install lock); the environment is built beside DIR and renamed into place.
# Usage: ci/install-ray.sh [DIR]   (default /usr/local/lib/nim-llm-chart/ray)
set -euo pipefail
RAY_VERSION=2.60.0
dir=${1:-/usr/local/lib/nim-llm-chart/ray}
# One install at a time on a machine (apt-get and pip do not wait for each other): the second finds the first's result.
# shellcheck source=lib/steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/steps.sh"
hold_lock "${TMPDIR:-/tmp}/nim-llm-chart-install.lock"

if [[ -x "$dir/bin/ray" && "$(cat "$dir/.version" 2>/dev/null)" == "$RAY_VERSION" ]]; then
  echo "install-ray: ray $RAY_VERSION is installed in $dir"
  exit 0
fi
if ! /usr/bin/python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  echo "install-ray: /usr/bin/python3 has no venv module (Debian's python3-venv)"
  apt_install install-ray python3-venv
fi
started=$(date +%s)
die() {
  echo "install-ray: ERROR: $*" >&2
  exit 1
}
# Built in a directory of this run's own beside $dir and renamed into place complete (.version last inside it), so
# $dir is either the old install, the new one whole, or absent: never a half-made one a pod could start from.
venv_build /usr/bin/python3 "$dir" "ray==$RAY_VERSION"
[[ -x "$venv_partial/bin/ray" ]] || die "pip installed ray==$RAY_VERSION but $venv_partial/bin/ray is missing"
chmod -R a+rX "$venv_partial"
echo "$RAY_VERSION" > "$venv_partial/.version"
publish_partial "$venv_partial" "$dir"
echo "install-ray: ray $("$dir/bin/ray" --version 2>/dev/null | tail -1) installed in $dir in $(( $(date +%s) - started ))s ($(du -sh "$dir" | cut -f1))"
