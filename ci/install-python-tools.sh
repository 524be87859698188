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
# A cached environment is reused as is (no network). With --print-path only the tools' paths go to stdout.
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
  if [[ -x "${bin}" ]]; then
    log "${tool} cached at ${bin}"
  else
    mkdir -p "${cache}"
    tmp="$(mktemp -d "${cache}/.tmp-${tool}.XXXXXX")"
    trap 'rm -rf "${tmp}"' EXIT
    log "installing ${tool} from PyPI (pinned in ${requirements}) ..."
    started="${SECONDS}"
    # The environment is built in place at its final path (a venv's scripts name their interpreter by absolute path),
    # under a name that only a complete install gets.
    rm -rf "${dest}.partial"
    python3 -m venv "${dest}.partial" >&2 || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "${dest}.partial/bin/pip" install --quiet --disable-pip-version-check --no-input --require-virtualenv \
      -r "${requirements}" >&2 || { rm -rf "${dest}.partial"; die "pip could not install ${requirements}"; }
    rm -rf "${tmp}"
    trap - EXIT
    # Rename: fix the scripts' shebangs, which name the interpreter of the .partial path.
    grep -rlI --exclude-dir=lib "${dest}.partial" "${dest}.partial/bin" | while read -r f; do
      sed -i "s#${dest}.partial#${dest}#g" "${f}"
    done
    rm -rf "${dest}"
    mv "${dest}.partial" "${dest}"
    [[ -x "${bin}" ]] || die "${tool} installed but ${bin} is missing"
    log "installed ${tool} in $((SECONDS - started))s: ${bin}"
  fi
  if ${print_path}; then echo "${bin}"; fi
done
