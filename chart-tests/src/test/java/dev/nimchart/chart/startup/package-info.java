/**
 * The pods' own processes run: sshd and mpirun, Ray, the serving pod on the runtime model.
 */
package dev.nimchart.chart.startup;
