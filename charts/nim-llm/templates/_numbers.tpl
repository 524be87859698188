{{/* ---------------------------------------------------------------------------
Numbers: every helper that reads or prints a count, a size or a quantity the
way Kubernetes does. Helm hands the chart YAML numbers as float64, so 1e+06 and
octal surprises are handled here, once.
--------------------------------------------------------------------------- */}}

{{/* A count as Kubernetes reads it: a string in base 10 ("010" is 10, where Sprig's int would read octal 8), a
number as a whole number. */}}
{{- define "nim-llm.wholeNumber" -}}
{{- if kindIs "string" . -}}{{- atoi . -}}{{- else -}}{{- int64 . -}}{{- end -}}
{{- end -}}

{{/* An int-or-string value (count or percentage) as Kubernetes reads it: a whole number printed as an integer (never
1e+06), a string quoted. */}}
{{- define "nim-llm.intOrString" -}}
{{- if kindIs "string" . -}}{{- . | quote -}}{{- else -}}{{- . | int64 -}}{{- end -}}
{{- end -}}

{{/* A size (shm.sizeLimit, persistence.size) as the string Kubernetes reads: a YAML number printed as written (an
integer, never 6.26209778e+08; a fraction, reachable only with --skip-schema-validation, with up to nine decimals). */}}
{{- define "nim-llm.size" -}}
{{- if and (kindIs "float64" .) (eq (float64 (int64 .)) .) -}}
{{- int64 . | toString -}}
{{- else if kindIs "float64" . -}}
{{- regexReplaceAll "\\.?0+$" (printf "%.9f" .) "" -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/* Resources with every number as Kubernetes reads it: a whole number as an integer (never 1e+06), a fraction as a
decimal string ("1.5", never "5.5e+08"; nine decimals, the nano unit). Custom resources (LeaderWorkerSet, MPIJob)
take a quantity only as an integer or a string. */}}
{{- define "nim-llm.quantities" -}}
{{- $out := dict -}}
{{- range $section, $values := . -}}
{{- $converted := dict -}}
{{- range $name, $q := $values -}}
{{- if and (kindIs "float64" $q) (eq (float64 (int64 $q)) $q) -}}
{{- $_ := set $converted $name (int64 $q) -}}
{{- else if kindIs "float64" $q -}}
{{- $_ := set $converted $name (include "nim-llm.size" $q) -}}
{{- else -}}
{{- $_ := set $converted $name $q -}}
{{- end -}}
{{- end -}}
{{- $_ := set $out $section $converted -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{- /* The value of a Kubernetes quantity (a number or a string such as 500m, 16Gi, 1.5e3), as a float, for comparisons
only; 0 when it cannot be read (the schema refuses such quantities). */ -}}
{{- define "nim-llm.quantityValue" -}}
{{- if not (kindIs "string" .) -}}
{{- float64 . -}}
{{- else -}}
{{- $number := regexFind "^[+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)" . -}}
{{- $suffix := trimPrefix $number . -}}
{{- $factor := dict "" 1.0 "m" 0.001
  "k" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 "P" 1000000000000000.0 "E" 1000000000000000000.0
  "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "Pi" 1125899906842624.0 "Ei" 1152921504606846976.0 -}}
{{- if hasKey $factor $suffix -}}
{{- mulf (float64 (trimPrefix "+" $number)) (index $factor $suffix) -}}
{{- else if regexMatch "^[eE][+-]?[0-9]+$" $suffix -}}
{{- float64 (trimPrefix "+" .) -}}
{{- else -}}
0
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* "true" when an int-or-percent count is zero (0, "0", "0%", ""). */ -}}
{{- define "nim-llm.isZeroCount" -}}
{{- if regexMatch "^0*%?$" (toString .) -}}true{{- end -}}
{{- end -}}

{{- /* A Prometheus duration (30s, 1m30s, 500ms, 2h) in milliseconds, for comparisons. */ -}}
{{- define "nim-llm.durationMillis" -}}
{{- $total := 0 -}}
{{- range $part := regexFindAll "[0-9]+(ms|s|m|h)" (toString .) -1 -}}
{{- $number := regexFind "^[0-9]+" $part | atoi -}}
{{- $unit := trimPrefix (regexFind "^[0-9]+" $part) $part -}}
{{- $total = add $total (mul $number (get (dict "ms" 1 "s" 1000 "m" 60000 "h" 3600000) $unit)) -}}
{{- end -}}
{{- $total -}}
{{- end -}}
