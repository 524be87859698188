/**
 * The controller tier's pieces: real controllers and a scheduler on fake GPU nodes, one class per process, and the
 * one install of a release ({@code Release}, {@code InstalledRelease}).
 */
package dev.nimchart.controllers;
