{{/* The web pods' labels: the selector label, then the global labels every pod of the release carries. */}}
{{- define "web-cache.podLabels" -}}
app: {{ .Release.Name }}-web
{{- with .Values.global.podLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}
