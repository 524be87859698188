/**
 * Documents made from the code: the package tables of docs/layout.md.
 */
package dev.nimchart.tools.docs;
