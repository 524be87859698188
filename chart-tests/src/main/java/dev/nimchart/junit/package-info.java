/**
 * The JUnit 5 adapters of the library, the only package that knows JUnit: the tiers' extensions ({@code ClusterTier},
 * {@code ControllerTier}, {@code SharedTier}) keeping one environment per tier per test JVM in JUnit's launcher-session store,
 * {@code ChartTiers} handing the door those sessions, {@code DynamicChecks} turning the door's checks into dynamic tests,
 * and {@code RunSettings}, the run's settings built once from the test JVM's properties.
 */
package dev.nimchart.junit;
