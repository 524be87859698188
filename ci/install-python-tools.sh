#!/usr/bin/env bash
# Installs the Python command-line tools the offline tier runs, from PyPI, each into a virtual environment of its own
# that this project owns (never the system's Python, never the user's site-packages):
#
#   checkov   a policy engine platform teams run on rendered manifests; the offline tier runs it on every pod
#             template the chart renders, unwrapped into a Pod (dev.nimchart.lint)
#   yamllint  the YAML linter `ct lint` runs on values files; ExampleYamlLintTest runs it with chart-testing's rules
#   yamale    the schema validator `ct lint` runs on Chart.yaml (ChartTestingLintTest runs `ct lint` with it on PATH)
#
#   ci/install-python-tools.sh [--print-path] [TOOL...]     default: all tools
#
# Each tool's packages are pinned, dependencies included, in ci/tools/<tool>/requirements.txt (pip freeze of a fresh
# install; to move a pin, install the new version into an empty venv and freeze it again). Output, cached outside the
# repo and keyed by the hash of that file:
#   ${NIM_TOOLS_DIR:-$HOME/.cache/nim-llm-chart/tools}/<tool>-py-<hash>/bin/<tool>
# A cached environment is reused as is (no network). With --print-path only the tools' paths go to stdout. Runs at the
# same time (forked test JVMs) wait for each other on a lock per tool; the environment is built in a directory of the
# run's own and renamed into place complete, so a run never sees, or removes, another's half-built environment.
#
# Needs python3 (3.9 or newer) with the venv module (Debian: python3-venv).
# Cost (2 cores, empty pip cache): checkov 50-160 s (machine load), 290 MB; yamllint ~10 s; yamale ~10 s.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${NIM_TOOLS_DIR:-${HOME}/.cache/nim-llm-chart/tools}"

die() {
  echo "install-python-tools: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"
parse_tool_args checkov yamllint yamale -- "$@"

command -v python3 >/dev/null 2>&1 || die "python3 is not on PATH (Debian: apt-get install python3 python3-venv)"

for tool in "${tools[@]}"; do
  requirements="${script_dir}/tools/${tool}/requirements.txt"
  [[ -f "${requirements}" ]] || die "unknown tool '${tool}': no ${requirements}"
  hash="$(sha256sum "${requirements}" | cut -c1-12)"
  dest="${cache}/${tool}-py-${hash}"
  bin="${dest}/bin/${tool}"
  # An environment is only ever renamed into place complete (publish_partial), so its program is the cache check. One
  # install of a tool at a time on a machine (forked test JVMs ask together): the second finds the first's result.
  [[ -x "${bin}" ]] || hold_lock "${cache}/.install-${tool}-py.lock"
  if [[ -x "${bin}" ]]; then
    log "${tool} cached at ${bin}"
  else
    log "installing ${tool} from PyPI (pinned in ${requirements}) ..."
    started="${SECONDS}"
    venv_build python3 "${dest}" -r "${requirements}"
    [[ -x "${venv_partial}/bin/${tool}" ]] || die "${tool} installed but ${venv_partial}/bin/${tool} is missing"
    publish_partial "${venv_partial}" "${dest}"
    log "installed ${tool} in $((SECONDS - started))s: ${bin}"
  fi
  if ${print_path}; then echo "${bin}"; fi
done
