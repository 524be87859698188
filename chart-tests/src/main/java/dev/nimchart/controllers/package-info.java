/**
 * The controller tier's pieces: real controllers and a scheduler on fake GPU nodes, one class per process, and the
 * one install of a release ({@code InstalledRelease}, the handle of an installed {@code Release}).
 */
package dev.nimchart.controllers;
