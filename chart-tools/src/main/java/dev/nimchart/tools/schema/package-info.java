/**
 * What generates parts of values.schema.json and the parameters tables: descriptions from values.yaml's comments,
 * the embedded Kubernetes definitions.
 */
package dev.nimchart.tools.schema;
