/**
 * The one judge of a values file ({@code ValuesJudge}) and the one {@code expect-error} rule every tier applies
 * ({@code RefusalRule}).
 */
package dev.nimchart.judge;
