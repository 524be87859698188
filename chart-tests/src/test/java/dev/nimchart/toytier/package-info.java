/**
 * A tier of a downstream user's own, written outside the library with its public API only: {@code ToyTierTest} shows
 * a new tier is three places (its TierCheck, its Tier, its registration on the door) and runs it through the door.
 */
package dev.nimchart.toytier;
