{{/* The name of every object of the release. */}}
{{- define "schema-web.fullname" -}}
{{- printf "%s-web" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Service port's nodePort field, from service.nodePort: refused unless the Service is a NodePort one. */}}
{{- define "schema-web.nodePort" -}}
{{- with .Values.service.nodePort -}}
{{- if ne $.Values.service.type "NodePort" -}}
{{- fail (printf "service.nodePort is %d, but service.type is %s: set service.type to NodePort, or remove service.nodePort" (int .) $.Values.service.type) -}}
{{- end -}}
nodePort: {{ int . }}
{{- end -}}
{{- end -}}
