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
# A cached install is reused as is (no network). With --print-path only the directories go to stdout.
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
  if [[ -d "${dest}/node_modules" ]]; then
    log "${tool} cached at ${dest}"
  else
    mkdir -p "${cache}"
    log "installing ${tool} from npm (pinned in ${src}/package-lock.json) ..."
    started="${SECONDS}"
    rm -rf "${dest}.partial"
    mkdir -p "${dest}.partial"
    cp "${src}"/* "${dest}.partial/"
    (cd "${dest}.partial" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >&2 ||
      { rm -rf "${dest}.partial"; die "npm could not install ${src}/package-lock.json"; }
    rm -rf "${dest}"
    mv "${dest}.partial" "${dest}"
    log "installed ${tool} in $((SECONDS - started))s: ${dest}"
  fi
  if ${print_path}; then echo "${dest}"; fi
done
