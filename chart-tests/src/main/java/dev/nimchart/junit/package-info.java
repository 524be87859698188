/**
 * The tiers' environments and their owners: JUnit 5 adapters keeping one environment per tier per test JVM in JUnit's launcher-session store, and owned sessions a ChartCheck or the command line closes.
 */
package dev.nimchart.junit;
