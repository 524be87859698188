#!/usr/bin/env bash
# Regenerates the parameters tables of docs/parameters.md and charts/nim-llm/README.md (what `helm show readme` and Artifact Hub
# show) with readme-generator-for-helm (npm, pinned in ci/tools/readme-generator, installed by ci/install-node-tools.sh)
# from the ## @section/@param/@extra comments of charts/nim-llm/values.yaml, and the description of every key of
# charts/nim-llm/values.schema.json from what the generator's parser reads there. Run it after any change to
# values.yaml or to the schema's keys. The test suite (ReadmeParametersTest, SchemaDescriptionsTest) fails while one of
# them is stale.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec mvn -q -B -Dstyle.color=never -f "$root/pom.xml" -pl chart-tools -am compile exec:exec@readme-parameters
