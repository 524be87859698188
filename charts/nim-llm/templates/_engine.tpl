{{/* ---------------------------------------------------------------------------
NIM 3.0 Dynamo mode and the engine settings the chart takes as values (model.dynamo, model.engine).
Their rules: _preflight_engine.tpl.
Sources: NIM LLM 3.0.0 docs, deployment/dynamo-deployment (the selectors, "the frontend owns DYN_HTTP_PORT",
the fallback log line), troubleshooting/dynamo-mode (the worker's system port is NIM_HEALTH_PORT, default 9090;
the entrypoint derives DYN_SYSTEM_PORT from it), reference/dynamo-mode-migration-guide (the profile rule);
Dynamo's health-check reference (frontend /live and /health on DYN_HTTP_PORT, default 8000); NIM 2.x docs,
reference/environment-variables (NIM_PASSTHROUGH_ARGS, NIM_MAX_MODEL_LEN, NIM_DISABLE_CUDA_GRAPH,
NIM_SERVED_MODEL_NAME, NIM_DRAFT_MODEL_PATH by 2.0.10).
--------------------------------------------------------------------------- */}}

{{/* "true" when the NIM container runs in NIM 3.0's Dynamo single-container mode (model.dynamo.mode single). */}}
{{- define "nim-llm.dynamo.single" -}}
{{- if eq (toString .Values.model.dynamo.mode) "single" -}}true{{- end -}}
{{- end -}}

{{/* The NIM version of image.tag (appVersion when empty) as <major>.<minor>.<patch>, read by a regular expression
only; empty when the tag does not start with three numbers (latest, a branch name). */}}
{{- define "nim-llm.nimVersion" -}}
{{- $tag := toString (.Values.image.tag | default .Chart.AppVersion) -}}
{{- if regexMatch "^v?[0-9]{1,6}\\.[0-9]{1,6}\\.[0-9]{1,6}" $tag -}}
{{- regexReplaceAll "^v?([0-9]+\\.[0-9]+\\.[0-9]+).*$" $tag "${1}" -}}
{{- end -}}
{{- end -}}

{{/* NIM_PASSTHROUGH_ARGS from model.engine.args: every item one argument, quoted as a POSIX shell word (a word of
safe characters as it is, any other in single quotes, a ' as '"'"'), so that a shell-style split (Python's
shlex.split) gives back exactly the items. No shell ever runs it. */}}
{{- define "nim-llm.engine.passthroughArgs" -}}
{{- $words := list -}}
{{- range $a := .Values.model.engine.args | default list -}}
{{- $s := toString $a -}}
{{- if regexMatch "^[A-Za-z0-9_@%+=:,./-]+$" $s -}}
{{- $words = append $words $s -}}
{{- else -}}
{{- $words = append $words (printf "'%s'" (replace "'" "'\"'\"'" $s)) -}}
{{- end -}}
{{- end -}}
{{- join " " $words -}}
{{- end -}}

{{/* The variables of Dynamo mode and of model.engine, as a YAML list of EnvVar (empty when none is set). The Dynamo
frontend listens on DYN_HTTP_PORT: model.openaiPort, the container port http-openai that the Service, the probes,
the NetworkPolicy and helm test already use, so all of them follow it. */}}
{{- define "nim-llm.engine.env" -}}
{{- $V := .Values -}}
{{- $E := $V.model.engine -}}
{{- if include "nim-llm.dynamo.single" . }}
- name: NIM_DYNAMO_SINGLE
  value: "1"
- name: DYN_HTTP_PORT
  value: {{ $V.model.openaiPort | int64 | toString | quote }}
{{- end }}
{{- with $E.args }}
- name: NIM_PASSTHROUGH_ARGS
  value: {{ include "nim-llm.engine.passthroughArgs" $ | quote }}
{{- end }}
{{- if gt (int64 $E.maxModelLen) 0 }}
- name: NIM_MAX_MODEL_LEN
  value: {{ $E.maxModelLen | int64 | toString | quote }}
{{- end }}
{{- if $E.disableCudaGraph }}
- name: NIM_DISABLE_CUDA_GRAPH
  value: "1"
{{- end }}
{{- with $E.servedModelName }}
- name: NIM_SERVED_MODEL_NAME
  value: {{ . | quote }}
{{- end }}
{{- with $E.draftModelPath }}
- name: NIM_DRAFT_MODEL_PATH
  value: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* The model name /v1/models lists, as helm test asks for it: model.engine.servedModelName, else model.name. */}}
{{- define "nim-llm.servedModelName" -}}
{{- .Values.model.engine.servedModelName | default .Values.model.name -}}
{{- end -}}

{{/* Owners of the variables of this file: env entries naming them are refused (_preflight_engine.tpl). A dict of
variable -> the value that sets it. */}}
{{- define "nim-llm.engine.owners" -}}
NIM_DYNAMO_SINGLE: model.dynamo.mode
NIM_DYNAMO_WORKER: model.dynamo.mode
NIM_DYNAMO_FRONTEND: model.dynamo.mode
DYN_HTTP_PORT: model.openaiPort
DYN_SYSTEM_PORT: model.healthPort
NIM_PASSTHROUGH_ARGS: model.engine.args
NIM_MAX_MODEL_LEN: model.engine.maxModelLen
NIM_DISABLE_CUDA_GRAPH: model.engine.disableCudaGraph
NIM_SERVED_MODEL_NAME: model.engine.servedModelName
NIM_DRAFT_MODEL_PATH: model.engine.draftModelPath
{{- end -}}
