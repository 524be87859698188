/**
 * What a release would create for a values file, printed for a person (the README's first command).
 */
package dev.nimchart.report;
