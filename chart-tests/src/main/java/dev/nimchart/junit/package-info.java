/**
 * JUnit 5 adapters of the cluster tiers: one environment per tier per test JVM, handed to tests as a parameter.
 */
package dev.nimchart.junit;
