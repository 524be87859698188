#!/usr/bin/env bash
# Installs the Node.js tools this repository's own tooling runs, from npm, each into a directory of its own outside the
# repository (never global, never the user's npm prefix):
#
#   readme-generator  @bitnami/readme-generator-for-helm: the parameters tables of README.md and charts/nim-llm/README.md
#                     from the ## @param comments of values.yaml, and (through its own parser, metadata.js) the
#                     descriptions of values.schema.json (ci/readme-parameters.sh; ReadmeParametersTest,
#                     SchemaDescriptionsTest)
#
#   ci/install-node-tools.sh [--print-path] [TOOL...]     default: all tools
#
# Each tool's packages are pinned, dependencies included, by ci/tools/<tool>/package-lock.json (`npm ci`). Output,
# cached outside the repo and keyed by the hash of the tool's files:
#   ${NIM_TOOLS_DIR:-$HOME/.cache/nim-llm-chart/tools}/<tool>-npm-<hash>/
# A cached install is reused as is (no network). With --print-path only the directories go to stdout. Runs at the same
# time wait for each other on a lock per tool; an install is built in a directory of the run's own and renamed into place.
#
# Needs node and npm (Node.js 18 or newer). Cost: readme-generator ~5 s, 2 MB.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${NIM_TOOLS_DIR:-${HOME}/.cache/nim-llm-chart/tools}"

die() {
  echo "install-node-tools: ERROR: $*" >&2
  exit 1
}
# shellcheck source=lib/steps.sh
source "${script_dir}/lib/steps.sh"
parse_tool_args readme-generator -- "$@"

command -v npm >/dev/null 2>&1 || die "npm is not on PATH (Debian: apt-get install nodejs npm)"

for tool in "${tools[@]}"; do
  src="${script_dir}/tools/${tool}"
  [[ -f "${src}/package-lock.json" ]] || die "unknown tool '${tool}': no ${src}/package-lock.json"
  hash="$(cat "${src}"/* | sha256sum | cut -c1-12)"
  dest="${cache}/${tool}-npm-${hash}"
  # An install is only ever renamed into place complete, so its node_modules is the cache check. One install of a tool
  # at a time on a machine (forked test JVMs ask together): the second finds the first's result.
  [[ -d "${dest}/node_modules" ]] || hold_lock "${cache}/.install-${tool}-npm.lock"
  if [[ -d "${dest}/node_modules" ]]; then
    log "${tool} cached at ${dest}"
  else
    log "installing ${tool} from npm (pinned in ${src}/package-lock.json) ..."
    started="${SECONDS}"
    partial="$(private_partial "${dest}")"
    cp "${src}"/* "${partial}/"
    (cd "${partial}" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2 ||
      { rm -rf "${partial}"; die "npm ci could not install ${src}/package-lock.json in ${partial} (npm's output is above)"; }
    publish_partial "${partial}" "${dest}"
    log "installed ${tool} in $((SECONDS - started))s: ${dest}"
  fi
  if ${print_path}; then echo "${dest}"; fi
done
