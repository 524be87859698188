/**
 * Offline checks of rendered objects: Kubernetes' own API models, CRD schemas, object metadata, pod specs and
 * manifest text.
 */
package dev.nimchart.checks;
