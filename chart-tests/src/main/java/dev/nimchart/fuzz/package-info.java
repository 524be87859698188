/**
 * Schema-driven values documents: valid and near-valid, seeded and reproducible, with scenarios a chart's rules
 * may add.
 */
package dev.nimchart.fuzz;
