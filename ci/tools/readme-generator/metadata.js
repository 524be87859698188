// Prints, as JSON, what readme-generator-for-helm reads from the ## comments of a values.yaml: every @param and
// @extra with its section, description and modifiers, in file order, after the generator's own consistency check
// (a key without metadata, or metadata for no key, fails as the generator fails). ci/readme-parameters.sh and the
// chart-tools tests take the descriptions of values.schema.json from it.
//
//   node metadata.js values.yaml
'use strict';
const path = require('path');
const generator = path.join(__dirname, 'node_modules', '@bitnami', 'readme-generator-for-helm');
const { createValuesObject, parseMetadataComments } = require(path.join(generator, 'lib', 'parser'));
const { checkKeys } = require(path.join(generator, 'lib', 'checker'));
const config = require(path.join(generator, 'config.json'));

const values = process.argv[2];
if (!values) {
  console.error('usage: node metadata.js values.yaml');
  process.exit(2);
}
const metadata = parseMetadataComments(values, config);
const log = console.log;
console.log = console.error; // the checker's progress lines go to stderr; stdout holds only the JSON
try {
  checkKeys(createValuesObject(values), metadata.parameters);
} catch (e) {
  console.error(e.message);
  process.exit(1);
} finally {
  console.log = log;
}
process.stdout.write(JSON.stringify(metadata.parameters.map((p) => ({
  name: p.name, section: p.section, description: p.description, extra: Boolean(p.extra), modifiers: p.modifiers,
}))));
