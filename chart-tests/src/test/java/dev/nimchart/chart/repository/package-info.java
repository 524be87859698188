/**
 * What the suite's packages share: the examples, nim-llm's chart rules, the Pod Security and security exceptions.
 */
package dev.nimchart.chart.repository;
