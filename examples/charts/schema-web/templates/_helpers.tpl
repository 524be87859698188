{{/* The name of every object of the release. */}}
{{- define "schema-web.fullname" -}}
{{- printf "%s-web" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
