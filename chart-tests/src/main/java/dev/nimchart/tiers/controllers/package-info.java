/**
 * The controller tier as a {@code TierCheck}: installed onto real controllers and fake GPU nodes, desired state, uninstall.
 */
package dev.nimchart.tiers.controllers;
