/**
 * What the library's door returns to be run, in no test framework's types: a {@link dev.nimchart.result.Check} tree
 * (named tests with the file they check, and groups of them) and {@link dev.nimchart.result.CheckSkipped}, a check that
 * does not apply here.
 */
package dev.nimchart.result;
