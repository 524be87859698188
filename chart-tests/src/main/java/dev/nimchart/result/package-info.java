/**
 * What the library's door returns to be run, in no test framework's types: a {@code Check} tree
 * (named tests with the file they check, and groups of them) and {@code CheckSkipped}, a check that
 * does not apply here.
 */
package dev.nimchart.result;
