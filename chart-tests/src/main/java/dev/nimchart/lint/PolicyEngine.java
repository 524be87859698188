package dev.nimchart.lint;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A policy engine run as a process over manifests written as files, one file per values file. */
interface PolicyEngine {

    /** The engine's name, as findings and exceptions name it. */
    String name();

    /**
     * Judges the manifests (subject, its file name, to the manifest file) at once and returns every finding.
     * {@code objects} gives each subject's objects by "Kind/name", so findings can carry labels.
     */
    List<Finding> judge(Map<String, Path> manifests, Map<String, Map<String, Map<String, Object>>> labels);
}
