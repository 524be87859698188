/**
 * Where the library says what it is doing: one {@code Progress} interface, given by the caller (the console by default).
 */
package dev.nimchart.progress;
