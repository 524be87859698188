/**
 * The benchmark behind ci/benchmark.sh and the README's figures: the harness against the usual pipeline, the
 * cluster tiers, the endpoint picker.
 */
package dev.nimchart.tools.bench;
