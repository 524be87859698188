/**
 * Kubernetes object schemas and enum values from the API server's own OpenAPI documents, as JSON Schema definitions for
 * a values schema's {@code $defs}.
 */
package dev.nimchart.kubeschema;
