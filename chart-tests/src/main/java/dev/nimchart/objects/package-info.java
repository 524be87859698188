/**
 * Kubernetes objects as read from a rendered manifest: {@code KubeObject}, {@code PodTemplate}, {@code
 * RenderedManifest}, strict YAML, key paths and name rules.
 */
package dev.nimchart.objects;
