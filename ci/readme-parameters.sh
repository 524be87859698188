#!/usr/bin/env bash
# Regenerates, from the @param/@extra comments of charts/nim-llm/values.yaml, the parameters tables of README.md and
# charts/nim-llm/README.md (what `helm show readme` and Artifact Hub show) and the description of every key of
# charts/nim-llm/values.schema.json. Run it after any change to values.yaml or to the schema's keys.
# The test suite (ReadmeParametersTest, SchemaDescriptionsTest) fails while one of them is stale.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec mvn -q -B -Dstyle.color=never -f "$root/pom.xml" -pl chart-tools -am compile exec:exec@readme-parameters
