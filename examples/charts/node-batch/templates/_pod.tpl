{{/* The securityContext every pod of the chart runs with (restricted Pod Security). */}}
{{- define "node-batch.podSecurity" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 1000
  seccompProfile:
    type: RuntimeDefault
{{- end }}

{{/* The securityContext of every container. */}}
{{- define "node-batch.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  capabilities:
    drop: ["ALL"]
{{- end }}
