#!/usr/bin/env bash
# Refuses a change under charts/ that does not bump the chart's version and add a CHANGELOG.md entry for it, as
# chart-testing (`ct lint --check-version-increment`) does:
#
#   ci/check-chart-version.sh [BASE_REF]
#
# Compares the working tree of the git repository it is run in (the current directory's) with BASE_REF, by default
# the merge-base of HEAD with origin/main when that exists, else with main, else HEAD~1. For every chart
# charts/<name>/ with a changed file: Chart.yaml's version must be greater (semver) than at BASE_REF, and
# charts/<name>/CHANGELOG.md must have a "## [<version>]" entry. A chart that did not exist at BASE_REF needs only the
# entry. Exit status 1 with one line per problem; 0 when every changed chart passes (or nothing under charts/ changed).
set -euo pipefail

die() {
  echo "check-chart-version: ERROR: $*" >&2
  exit 2
}

root="$(git rev-parse --show-toplevel 2>/dev/null)" || die "not inside a git repository: run it from the repository"
cd "${root}"

base="${1:-}"
if [[ -z "${base}" ]]; then
  for candidate in origin/main main; do
    if git rev-parse --verify -q "${candidate}^{commit}" >/dev/null; then
      base="$(git merge-base HEAD "${candidate}")" && break
    fi
  done
  [[ -n "${base}" ]] || base="HEAD~1"
fi
git rev-parse --verify -q "${base}^{commit}" >/dev/null || die "base ref '${base}' is not a commit of this repository"

# version: the top-level `version:` line of a Chart.yaml (quotes removed).
chart_version() {
  sed -nE 's/^version:[[:space:]]*["'\'']?([^"'\''[:space:]#]+)["'\'']?.*$/\1/p' | sed -n 1p
}

# semver_gt A B: A > B by major.minor.patch, then a release above its pre-releases (pre-releases compared as text).
semver_gt() {
  local a="$1" b="$2" a_core="${1%%-*}" b_core="${2%%-*}"
  [[ "${a}" != "${b}" ]] || return 1
  if [[ "${a_core}" != "${b_core}" ]]; then
    [[ "$(printf '%s\n%s\n' "${a_core}" "${b_core}" | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)" == "${a_core}" ]]
    return
  fi
  [[ "${a}" == "${a_core}" ]] && return 0  # a release after its own pre-release
  [[ "${b}" == "${b_core}" ]] && return 1
  [[ "$(printf '%s\n%s\n' "${a}" "${b}" | sort | tail -n 1)" == "${a}" ]]
}

mapfile -t changed < <({ git diff --name-only "${base}" -- charts/; git ls-files --others --exclude-standard -- charts/; } | sort -u)
if ((${#changed[@]} == 0)); then
  echo "check-chart-version: nothing under charts/ changed since ${base}"
  exit 0
fi

problems=0
mapfile -t charts < <(printf '%s\n' "${changed[@]}" | awk -F/ 'NF > 2 { print $1 "/" $2 }' | sort -u)
for chart in "${charts[@]}"; do
  files="$(printf '%s\n' "${changed[@]}" | grep -c "^${chart}/")"
  if [[ ! -f "${chart}/Chart.yaml" ]]; then
    echo "check-chart-version: ${chart} was removed"
    continue
  fi
  new="$(chart_version <"${chart}/Chart.yaml")"
  [[ -n "${new}" ]] || { echo "${chart}/Chart.yaml: no version: line" >&2; problems=$((problems + 1)); continue; }
  old="$(git show "${base}:${chart}/Chart.yaml" 2>/dev/null | chart_version || true)"
  if [[ -n "${old}" ]] && ! semver_gt "${new}" "${old}"; then
    echo "${chart}: ${files} file(s) changed since ${base} but Chart.yaml version ${new} is not above ${old}: bump it (semver: patch for fixes, minor for new keys or behaviour, major for breaking changes) and add a '## [<version>]' entry to ${chart}/CHANGELOG.md." >&2
    problems=$((problems + 1))
    continue
  fi
  if ! grep -qE "^## \[${new//./\\.}\]" "${chart}/CHANGELOG.md" 2>/dev/null; then
    echo "${chart}: Chart.yaml version ${new} has no entry in ${chart}/CHANGELOG.md: add a '## [${new}] - <date>' section saying what changed." >&2
    problems=$((problems + 1))
    continue
  fi
  echo "check-chart-version: ${chart} ${old:-(new chart)} -> ${new}, CHANGELOG entry present (${files} file(s) changed since ${base})"
done
((problems == 0)) || exit 1
