/**
 * This repository's chart suite, one package per concern, through the library's door and its tiers.
 */
package dev.nimchart.chart;
