/**
 * Documents made from the code: the package and ci/ script tables of docs/layout.md.
 */
package dev.nimchart.tools.docs;
