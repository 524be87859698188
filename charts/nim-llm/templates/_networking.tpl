{{/* ---------------------------------------------------------------------------
Per-cloud multi-node networking, rendered into every GPU pod of a multi-node
deployment (never the MPIJob launcher). At most one provider is enabled (preflight).
Each helper returns YAML for the enabled provider, or an empty value.
--------------------------------------------------------------------------- */}}

{{/* Extended-resource device requests of each GPU container (map). */}}
{{- define "nim-llm.networking.devices" -}}
{{- end -}}

{{/* Environment variables (YAML list entries, appended to the derived env). */}}
{{- define "nim-llm.networking.env" -}}
{{- end -}}

{{/* Pod annotations (map). */}}
{{- define "nim-llm.networking.podAnnotations" -}}
{{- end -}}

{{/* Capabilities added to the NIM container (list). */}}
{{- define "nim-llm.networking.capabilities" -}}
[]
{{- end -}}

{{/* Sidecar (native, restartPolicy Always) init containers (list). */}}
{{- define "nim-llm.networking.sidecars" -}}
[]
{{- end -}}

{{/* Pod volumes (list). */}}
{{- define "nim-llm.networking.volumes" -}}
[]
{{- end -}}

{{/* NIM container mounts (list). */}}
{{- define "nim-llm.networking.volumeMounts" -}}
[]
{{- end -}}

{{/* NOTES.txt lines about networking. */}}
{{- define "nim-llm.networking.notes" -}}
{{- end -}}
