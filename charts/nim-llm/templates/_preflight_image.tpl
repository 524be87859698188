{{/* ---------------------------------------------------------------------------
Preflight rules of the image reference (image.*): a quoted tag, no digest or tag inside image.repository, a
reference a container runtime pulls, a version-like tag the chart can compare. Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* Helm has read the values file before the chart sees it: a tag written as a YAML number has lost its
text (1.10 arrives as 1.1, 0755 as 493), so only a quoted tag is taken. */ -}}
{{- define "nim-llm.preflight.imageTagQuoted" -}}
{{- $V := .Values -}}
{{- if not (kindIs "string" $V.image.tag) -}}
{{- $message := print
  "image.tag is the number %v: YAML read the tag as a number and lost its text (1.10 becomes 1.1, 0755 "
  "becomes 493, 1.8 stays 1.8 only by chance): quote it, e.g. image.tag: \"1.10\"." -}}
{{- include "nim-llm.fail" (printf $message $V.image.tag) -}}
{{- end -}}
{{- end -}}

{{- /* The image reference is <repository>:<tag>: a digest or a tag inside image.repository makes it invalid. */ -}}
{{- define "nim-llm.preflight.imageReference" -}}
{{- $V := .Values -}}
{{- if contains "@" $V.image.repository -}}
{{- $message := print
  "image.repository is %q, which holds a digest, but the chart appends :<image.tag> to it (an invalid "
  "reference): set image.repository to the repository alone (%s) and the digest in image.digest: %q." -}}
{{- include "nim-llm.fail" (printf $message $V.image.repository (splitList "@" $V.image.repository | first)
  (splitList "@" $V.image.repository | last)) -}}
{{- end -}}
{{- if contains ":" (splitList "/" $V.image.repository | last) -}}
{{- $parts := splitList ":" (splitList "/" $V.image.repository | last) -}}
{{- $message := print
  "image.repository is %q, which ends in a tag (:%s), but the chart appends :<image.tag> to it: remove "
  ":%s from image.repository and set image.tag: %q." -}}
{{- include "nim-llm.fail" (printf $message $V.image.repository (last $parts) (last $parts) (last $parts)) -}}
{{- end -}}
{{- end -}}

{{- /* image.repository is a reference the container runtime can pull: no scheme (https://) and, past the registry host,
lower case only (a runtime refuses "NVIDIA/llama"; the pod then waits in InvalidImageName). */ -}}
{{- define "nim-llm.preflight.imageRepositoryForm" -}}
{{- $repository := toString .Values.image.repository -}}
{{- if regexMatch "^[A-Za-z][A-Za-z0-9+.-]*://" $repository -}}
{{- $message := print
  "image.repository is %q, which starts with a scheme (%s), but an image reference has none: set "
  "image.repository: %s." -}}
{{- $bare := regexReplaceAll "^[A-Za-z][A-Za-z0-9+.-]*://" $repository "" -}}
{{- include "nim-llm.fail" (printf $message $repository (regexFind "^[A-Za-z][A-Za-z0-9+.-]*://" $repository) $bare) -}}
{{- end -}}
{{- $parts := splitList "/" $repository -}}
{{- $path := $repository -}}
{{- if and (gt (len $parts) 1) (regexMatch "[.:]|^localhost$" (first $parts)) -}}
{{- $path = join "/" (rest $parts) -}}
{{- end -}}
{{- if not (regexMatch "^[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*)*$" $path) -}}
{{- $message := print
  "image.repository is %q, which is no image reference a container runtime pulls (after the registry host, only "
  "lower-case letters, digits and the separators . _ __ - between path components): write it in lower case, "
  "e.g. image.repository: %s." -}}
{{- include "nim-llm.fail" (printf $message $repository (lower $repository)) -}}
{{- end -}}
{{- end -}}

{{- /* A tag that starts like a version is compared with the NIM versions whose start-up differs (multi-node); a part of
ten digits or more overflows that comparison. */ -}}
{{- define "nim-llm.preflight.imageTagComparable" -}}
{{- $tag := toString .Values.image.tag -}}
{{- $version := regexFind "^v?[0-9]+\\.[0-9]+\\.[0-9]+" $tag -}}
{{- if and $version (regexMatch "(^v?|\\.)[0-9]{10,}(\\.|$)" $version) -}}
{{- $message := print
  "image.tag is %q, which starts like a version but has a part of ten digits or more, so it cannot be compared "
  "with NIM versions (the multi-node start-up depends on the version): set image.tag to the NIM version you "
  "run, e.g. image.tag: \"1.8.4\"." -}}
{{- include "nim-llm.fail" (printf $message $tag) -}}
{{- end -}}
{{- end -}}
