#!/usr/bin/env bash
# Regenerates the parameters table of README.md from the @param comments of charts/nim-llm/values.yaml.
# The test suite (ReadmeParametersTest) fails while the README is stale.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec mvn -q -B -Dstyle.color=never -f "$root/chart-tests/pom.xml" compile exec:exec@readme-parameters
