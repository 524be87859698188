{{/* ---------------------------------------------------------------------------
Names and labels. Every object name and label set comes from here.
--------------------------------------------------------------------------- */}}

{{/* Chart name, or nameOverride. */}}
{{- define "nim-llm.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Object name prefix: fullnameOverride, else <release>-<name> (the release alone when it already holds the name).
Kept to 52 characters so suffixed names (-headless, -ssh, ...) and pod names stay within 63. */}}
{{- define "nim-llm.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- regexReplaceAll "-+$" (.Values.fullnameOverride | trunc 52) "" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- regexReplaceAll "-+$" (.Release.Name | trunc 52) "" -}}
{{- else -}}
{{- regexReplaceAll "-+$" (printf "%s-%s" .Release.Name $name | trunc 52) "" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* helm.sh/chart label value. */}}
{{- define "nim-llm.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels: minimal and immutable, shared by every workload selector. */}}
{{- define "nim-llm.selectorLabels" -}}
app.kubernetes.io/name: {{ include "nim-llm.name" . | quote }}
app.kubernetes.io/instance: {{ .Release.Name | quote }}
{{- end -}}

{{/* Labels of every pod template: the selector labels and the chart's fixed ones, never the chart version
(helm.sh/chart) nor app.kubernetes.io/version. A pod template that changed with every chart release would make every
chart upgrade replace every model server (a full model reload), the MPIJobs' names (a hash of their spec) included. */}}
{{- define "nim-llm.podLabels" -}}
{{ include "nim-llm.selectorLabels" . }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: nim-llm
{{- end -}}

{{/* Standard labels of every object other than a pod template. */}}
{{- define "nim-llm.labels" -}}
helm.sh/chart: {{ include "nim-llm.chart" . }}
{{ include "nim-llm.selectorLabels" . }}
app.kubernetes.io/version: {{ regexReplaceAll "^[^A-Za-z0-9]+|[^A-Za-z0-9]+$" (.Values.image.tag | default .Chart.AppVersion | toString | trunc 63) "" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: nim-llm
{{- end -}}

{{/* Name of the LeaderWorkerSet. Never the inference Service's name: the LWS controller creates the group's headless
Service under the LWS name (the pods' subdomain, so every leader and worker gets a DNS name) only when no Service of
that name exists. */}}
{{- define "nim-llm.lwsName" -}}
{{- printf "%s-lws" (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Name of the release's workload (what the autoscaler scales): the LeaderWorkerSet, else the StatefulSet or Deployment. */}}
{{- define "nim-llm.workloadName" -}}
{{- if eq (include "nim-llm.mode" .) "leaderworkerset" -}}
{{- include "nim-llm.lwsName" . -}}
{{- else -}}
{{- include "nim-llm.fullname" . -}}
{{- end -}}
{{- end -}}

{{/* Names of the Services the release's controllers create (list), which service.name must not take: the
LeaderWorkerSet's headless Service, the StatefulSet's headless Service, each MPIJob's headless Service and the chart's
Service naming its worker 0 (service-headless.yaml). */}}
{{- define "nim-llm.controllerServiceNames" -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $names := list -}}
{{- if eq $mode "leaderworkerset" -}}
{{- $names = append $names (include "nim-llm.lwsName" .) -}}
{{- else if eq $mode "statefulset" -}}
{{- $names = append $names (printf "%s-headless" (include "nim-llm.fullname" .)) -}}
{{- else if eq $mode "mpijob" -}}
{{- range $i := until (int .Values.replicaCount) -}}
{{- $names = append $names (include "nim-llm.mpiJobName" (list $ $i)) -}}
{{- $names = append $names (printf "%s-worker-0" (include "nim-llm.mpiJobName" (list $ $i))) -}}
{{- end -}}
{{- end -}}
{{- toYaml $names -}}
{{- end -}}

{{/* Name of the inference Service. */}}
{{- define "nim-llm.serviceName" -}}
{{- .Values.service.name | default (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Name of the ServiceAccount the pods run as. */}}
{{- define "nim-llm.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "nim-llm.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* Container image reference, as Kubernetes takes one: <repository>:<tag>, <repository>@<digest> or
<repository>:<tag>@<digest> (the digest picks the image; the tag is then only a label for people). Without a digest an
empty image.tag means the chart's appVersion; with a digest an empty tag is left out. */}}
{{- define "nim-llm.image" -}}
{{- $image := .Values.image -}}
{{- $tag := toString ($image.tag | default "") -}}
{{- $digest := toString ($image.digest | default "") -}}
{{- $ref := $image.repository -}}
{{- if $tag -}}
{{- $ref = printf "%s:%s" $ref $tag -}}
{{- else if not $digest -}}
{{- $ref = printf "%s:%s" $ref .Chart.AppVersion -}}
{{- end -}}
{{- if $digest -}}
{{- $ref = printf "%s@%s" $ref $digest -}}
{{- end -}}
{{- $ref -}}
{{- end -}}

{{/* Name of the pull secret the chart creates from model.ngcAPIKey. */}}
{{- define "nim-llm.generatedPullSecretName" -}}
{{- printf "%s-ngc-pull" (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Name of the SSH Secret of MPI start-up. */}}
{{- define "nim-llm.sshSecretName" -}}
{{- .Values.multiNode.existingSSHSecret | default (printf "%s-ssh" (include "nim-llm.fullname" .)) -}}
{{- end -}}

{{/* Name of the model cache claim shared by all pods (Deployment, multi-node, or existingClaim). */}}
{{- define "nim-llm.sharedClaimName" -}}
{{- .Values.persistence.existingClaim | default (printf "%s-cache" (include "nim-llm.fullname" .)) -}}
{{- end -}}

{{/* Labels that identify the inference Service itself (not the headless one), for the ServiceMonitor. */}}
{{- define "nim-llm.serviceSelectorLabels" -}}
{{ include "nim-llm.selectorLabels" . }}
nim-llm/service: inference
{{- end -}}

{{/* The OpenSSH public key (an authorized_keys line) of the chart's generated MPI SSH key, given as the base64 of its
PEM. Sprig's genPrivateKey "ecdsa" makes a P-256 key in SEC1 form (x509.MarshalECPrivateKey, "EC PRIVATE KEY"): 121
bytes of DER whose last 65 are the public point (0x04 || X || Y). The public key is that point in the wire format of
RFC 5656 section 3.1: string "ecdsa-sha2-nistp256", string "nistp256", string Q, each with a 4-byte length. */}}
{{- define "nim-llm.sshPublicKey" -}}
{{- $pem := b64dec . -}}
{{- $der := regexReplaceAll "-----[^-]+-----|\\s" $pem "" | b64dec -}}
{{- if or (ne (len $der) 121) (not (hasPrefix "\x30\x77\x02\x01\x01\x04\x20" $der)) -}}
{{- $message := print
  "the Secret <fullname>-ssh holds an MPI SSH key that is not a P-256 key in SEC1 form, so its public key cannot be "
  "derived: delete it (the chart generates a new one), or set multiNode.existingSSHSecret to a Secret with "
  "private.key and public.key." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- $blob := printf "\x00\x00\x00\x13ecdsa-sha2-nistp256\x00\x00\x00\x08nistp256\x00\x00\x00\x41%s" (substr 56 121 $der) -}}
{{- printf "ecdsa-sha2-nistp256 %s nim-llm\n" (b64enc $blob) -}}
{{- end -}}
