/**
 * What a release would create or what a cluster made of it, described for a person to read.
 */
package dev.nimchart.report;
