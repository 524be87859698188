#!/bin/bash
# Installs what the start-up tier's proxy check (ModelProxyStartupIT) runs: a real forward proxy, Debian's tinyproxy
# pinned to one version, and openssl (the test makes its CA and the model hub's certificate with it).
# Idempotent: does nothing when the pinned tinyproxy and openssl are there. Needs root (apt-get). Never starts a
# service: the package's maintainer scripts are kept from starting tinyproxy on this machine with a temporary
# policy-rc.d (the test starts its own, inside a network namespace it made, with its own configuration).
# Usage: ci/install-model-proxy.sh   (prints the path of tinyproxy on its last line)
set -euo pipefail
TINYPROXY_VERSION="1.11.1-2.1+deb12u1"
# One install at a time on a machine (apt-get does not wait for another): the second finds the first's result.
# shellcheck source=lib/steps.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/steps.sh"
hold_lock "${TMPDIR:-/tmp}/nim-llm-chart-install.lock"

installed() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
need=()
[[ "$(installed tinyproxy-bin)" == "$TINYPROXY_VERSION" && -x /usr/bin/tinyproxy ]] || need+=("tinyproxy-bin=$TINYPROXY_VERSION")
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if (( ${#need[@]} == 0 )); then
  echo "install-model-proxy: tinyproxy $TINYPROXY_VERSION and openssl are installed"
  echo /usr/bin/tinyproxy
  exit 0
fi
apt_install install-model-proxy "${need[@]}"
[[ "$(installed tinyproxy-bin)" == "$TINYPROXY_VERSION" ]] || { echo "install-model-proxy: tinyproxy-bin is $(installed tinyproxy-bin), not $TINYPROXY_VERSION" >&2; exit 1; }
echo /usr/bin/tinyproxy
