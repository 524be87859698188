{{- /* ---------------------------------------------------------------------------
Upgrades against what runs. Kubernetes refuses some changes of a live object (a StatefulSet's claim templates and
selector, a Deployment's selector, a claim's class and access modes, a LeaderWorkerSet's subgroups), and Helm applies
every other object first, so such an upgrade fails half applied with Kubernetes' raw message. Other changes would
leave the release's model cache unused, so the pods would start empty and download the model again. Both are found
here, from the release's live objects (Helm marks every object it manages with the annotation
meta.helm.sh/release-name), before anything changes.
The rules below run on install and upgrade; lookup finds nothing under helm template.
--------------------------------------------------------------------------- */ -}}

{{- /* What to do when an upgrade would leave the live model cache unused (for the messages below). */ -}}
{{- define "nim-llm.preflight.keepCacheHelp" -}}
{{- print
  "the pods would start with an empty model cache and download the model again. Keep "
  "statefulSet.enabled, multiNode.enabled, nameOverride, fullnameOverride, persistence.enabled and "
  "persistence.existingClaim as they are; or, to go ahead, set persistence.abandonLiveCache: true for "
  "this upgrade" -}}
{{- end -}}

{{- /* StatefulSets of the release: claim templates and selector are immutable; their per-pod claims are the cache. */ -}}
{{- define "nim-llm.preflight.liveStatefulSets" -}}
{{- $V := .Values -}}
{{- $ns := .Release.Namespace -}}
{{- $release := .Release.Name -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- $claim := include "nim-llm.claimSpec" . | fromYaml -}}
{{- $selector := include "nim-llm.selectorLabels" . | fromYaml -}}
{{- $orphanHelp := include "nim-llm.preflight.keepCacheHelp" . -}}
{{- range $sts := (lookup "apps/v1" "StatefulSet" $ns "").items | default list -}}
{{- if eq (get ($sts.metadata.annotations | default dict) "meta.helm.sh/release-name") $release -}}
{{- $name := $sts.metadata.name -}}
{{- $liveTemplate := dict -}}
{{- range $t := $sts.spec.volumeClaimTemplates | default list -}}
{{- if eq $t.metadata.name "model-store" -}}{{- $liveTemplate = $t -}}{{- end -}}
{{- end -}}
{{- $kept := and (eq $mode "statefulset") (eq $name $fullname) -}}
{{- if $kept -}}
{{- if ne (toYaml $sts.spec.selector.matchLabels) (toYaml $selector) -}}
{{- $message := print
  "nameOverride changes the selector of the live StatefulSet %s (app.kubernetes.io/name %v to %v), "
  "which Kubernetes does not allow to change: keep nameOverride as it was (%v), or install the new "
  "name as a new release." -}}
{{- include "nim-llm.fail" (printf $message $name (get $sts.spec.selector.matchLabels "app.kubernetes.io/name")
  (get $selector "app.kubernetes.io/name") (get $sts.spec.selector.matchLabels "app.kubernetes.io/name")) -}}
{{- end -}}
{{- $orphanWay := printf (print
  "delete the StatefulSet but not its pods and claims (kubectl delete statefulset %s --cascade=orphan "
  "-n %s) and upgrade again: the new StatefulSet takes over the running pods and the existing claims "
  "model-store-%s-<n>, which keep what they have; only claims of new pods follow the new values")
  $name $ns $name -}}
{{- if and $liveTemplate (ne $backend "pvc-template") -}}
{{- $message := print
  "the live StatefulSet %s keeps its model cache in per-pod claims (model-store-%s-<n>), but these "
  "values give it %s: Kubernetes does not allow removing a StatefulSet's claim template, and the pods "
  "would lose their cache. Keep persistence.enabled: true without persistence.existingClaim; or set "
  "persistence.abandonLiveCache: true and %s (the old claims then stay unused until you delete them)." -}}
{{- include "nim-llm.fail" (printf $message $name $name (include "nim-llm.preflight.cacheText" $) $orphanWay) -}}
{{- end -}}
{{- if and (not $liveTemplate) (eq $backend "pvc-template") -}}
{{- $message := print
  "persistence.enabled is true, but the live StatefulSet %s has no claim template (it was installed "
  "without persistence or with persistence.existingClaim), and Kubernetes does not allow adding one to "
  "a StatefulSet: %s; or install under a new release name." -}}
{{- include "nim-llm.fail" (printf $message $name
  (printf "%s (the pods are then replaced with ones that have claims)" $orphanWay)) -}}
{{- end -}}
{{- if and $liveTemplate (eq $backend "pvc-template") -}}
{{- $live := $liveTemplate.spec -}}
{{- $liveSize := $live.resources.requests.storage -}}
{{- $growWay := printf (print
  "to resize the cache, resize each claim itself where its StorageClass allows volume expansion "
  "(kubectl patch pvc model-store-%s-<n> -n %s -p "
  "'{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"%s\"}}}}'), then %s")
  $name $ns (include "nim-llm.size" $V.persistence.size) $orphanWay -}}
{{- if ne (include "nim-llm.quantityValue" (toString $liveSize))
  (include "nim-llm.quantityValue" (include "nim-llm.size" $V.persistence.size)) -}}
{{- $message := print
  "persistence.size is %s, but the claim template of the live StatefulSet %s asks %s, and Kubernetes "
  "does not allow changing a StatefulSet's claim templates: set persistence.size: %s; %s; or install "
  "under a new release name (a new, empty cache)." -}}
{{- include "nim-llm.fail" (printf $message (include "nim-llm.size" $V.persistence.size) $name $liveSize $liveSize
  $growWay) -}}
{{- end -}}
{{- if ne (toYaml $live.accessModes) (toYaml $claim.accessModes) -}}
{{- $message := print
  "persistence.accessMode is %s, but the live StatefulSet %s makes its claims %s, and Kubernetes "
  "changes neither a StatefulSet's claim templates nor the access modes of existing claims: set "
  "persistence.accessMode: %s; or install under a new release name (a new, empty cache); or %s." -}}
{{- include "nim-llm.fail" (printf $message $V.persistence.accessMode $name (join ", " $live.accessModes)
  (first $live.accessModes) $orphanWay) -}}
{{- end -}}
{{- $liveClass := ternary
  (ternary "-" (toString (get $live "storageClassName")) (eq (toString (get $live "storageClassName")) "")) ""
  (hasKey $live "storageClassName") -}}
{{- if ne $liveClass (toString ($V.persistence.storageClass | default "")) -}}
{{- $message := print
  "persistence.storageClass is %q, but the live StatefulSet %s makes its claims with storage class %q, "
  "and Kubernetes changes neither a StatefulSet's claim templates nor the class of existing claims: "
  "set persistence.storageClass: %q; or install under a new release name (a new, empty cache); or %s." -}}
{{- include "nim-llm.fail" (printf $message (toString $V.persistence.storageClass) $name $liveClass $liveClass
  $orphanWay) -}}
{{- end -}}
{{- $liveAnnotations := $liveTemplate.metadata.annotations | default dict -}}
{{- if ne (toYaml $liveAnnotations) (toYaml ($V.persistence.annotations | default dict)) -}}
{{- $message := print
  "persistence.annotations differ from the claim template of the live StatefulSet %s (%s), and "
  "Kubernetes does not allow changing a StatefulSet's claim templates: set persistence.annotations "
  "back to %s (annotate the claims themselves with kubectl annotate pvc); or %s." -}}
{{- include "nim-llm.fail" (printf $message $name (toJson $liveAnnotations) (toJson $liveAnnotations) $orphanWay) -}}
{{- end -}}
{{- if ne (toYaml ($liveTemplate.metadata.labels | default dict)) (toYaml $selector) -}}
{{- $message := print
  "nameOverride changes the labels of the claim template of the live StatefulSet %s, and Kubernetes "
  "does not allow changing a StatefulSet's claim templates: keep nameOverride as it was (%v); or %s." -}}
{{- include "nim-llm.fail" (printf $message $name
  (get ($liveTemplate.metadata.labels | default dict) "app.kubernetes.io/name") $orphanWay) -}}
{{- end -}}
{{- end -}}
{{- else if and $liveTemplate $.Release.IsUpgrade (not $V.persistence.abandonLiveCache) -}}
{{- $message := print
  "this upgrade replaces the live StatefulSet %s, whose model cache is in the per-pod claims "
  "model-store-%s-<n>, with %s, so %s (the old claims then stay unused until you delete them)." -}}
{{- include "nim-llm.fail" (printf $message $name $name (include "nim-llm.preflight.cacheText" $) $orphanHelp) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The shared claims the chart made for the release: their class and access modes are immutable, a size only
grows (and only where the class allows it, which the chart cannot see without cluster-wide rights), and Helm deletes
one the upgrade no longer renders. */ -}}
{{- define "nim-llm.preflight.liveClaims" -}}
{{- $V := .Values -}}
{{- $ns := .Release.Namespace -}}
{{- $release := .Release.Name -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- $claim := include "nim-llm.claimSpec" . | fromYaml -}}
{{- $orphanHelp := include "nim-llm.preflight.keepCacheHelp" . -}}
{{- range $pvc := (lookup "v1" "PersistentVolumeClaim" $ns "").items | default list -}}
{{- if eq (get ($pvc.metadata.annotations | default dict) "meta.helm.sh/release-name") $release -}}
{{- $name := $pvc.metadata.name -}}
{{- $keep := eq (get ($pvc.metadata.annotations | default dict) "helm.sh/resource-policy") "keep" -}}
{{- if and (eq $backend "pvc-shared") (eq $name (include "nim-llm.sharedClaimName" $)) -}}
{{- $live := $pvc.spec -}}
{{- $liveSize := $live.resources.requests.storage -}}
{{- if ne (include "nim-llm.quantityValue" (toString $liveSize))
  (include "nim-llm.quantityValue" (include "nim-llm.size" $V.persistence.size)) -}}
{{- if lt (include "nim-llm.quantityValue" (include "nim-llm.size" $V.persistence.size) | float64)
  (include "nim-llm.quantityValue" (toString $liveSize) | float64) -}}
{{- $message := print
  "persistence.size is %s, but the live model cache claim %s has %s, and Kubernetes never shrinks a "
  "claim: set persistence.size: %s." -}}
{{- include "nim-llm.fail" (printf $message (include "nim-llm.size" $V.persistence.size) $name $liveSize $liveSize) -}}
{{- end -}}
{{- $message := print
  "persistence.size is %s, but the live model cache claim %s has %s: the chart does not resize a live "
  "claim (Kubernetes grows one only where its StorageClass allows volume expansion, which the chart "
  "cannot see). Set persistence.size: %s; to grow the cache, resize the claim itself (kubectl patch "
  "pvc %s -n %s -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"%s\"}}}}'), then set "
  "persistence.size to the new size." -}}
{{- include "nim-llm.fail" (printf $message (include "nim-llm.size" $V.persistence.size) $name $liveSize $liveSize $name
  $ns (include "nim-llm.size" $V.persistence.size)) -}}
{{- end -}}
{{- if ne (toYaml $live.accessModes) (toYaml $claim.accessModes) -}}
{{- $message := print
  "persistence.accessMode is %s, but the live model cache claim %s is %s, and Kubernetes does not "
  "allow changing a claim's access modes: set persistence.accessMode: %s; or copy the cache to a claim "
  "of your own with the new access mode and use it as persistence.existingClaim (with "
  "persistence.abandonLiveCache: true)." -}}
{{- include "nim-llm.fail" (printf $message $V.persistence.accessMode $name (join ", " $live.accessModes)
  (first $live.accessModes)) -}}
{{- end -}}
{{- if and (hasKey $claim "storageClassName")
  (ne (toString (get $live "storageClassName")) (toString $claim.storageClassName)) -}}
{{- $message := print
  "persistence.storageClass is %q, but the live model cache claim %s has storage class %q, and "
  "Kubernetes does not allow changing a claim's class: set persistence.storageClass: %q (or empty, for "
  "the class it has); or copy the cache to a claim of your own in the new class and use it as "
  "persistence.existingClaim (with persistence.abandonLiveCache: true)." -}}
{{- include "nim-llm.fail" (printf $message (toString $V.persistence.storageClass) $name
  (toString (get $live "storageClassName")) (toString (get $live "storageClassName"))) -}}
{{- end -}}
{{- else if and (eq $backend "pvc-existing") (eq $name $V.persistence.existingClaim) -}}
{{- if not $keep -}}
{{- $message := print
  "persistence.existingClaim is %s, the claim this release made itself: the upgrade no longer renders "
  "it, so Helm would delete it (and the cache) while the pods mount it. First mark it to be kept: "
  "kubectl annotate pvc %s -n %s helm.sh/resource-policy=keep, then upgrade again." -}}
{{- include "nim-llm.fail" (printf $message $name $name $ns) -}}
{{- end -}}
{{- else if and $.Release.IsUpgrade (not $V.persistence.abandonLiveCache) -}}
{{- $message := print
  "this upgrade no longer uses the live model cache claim %s of the release (it gives the pods %s), so "
  "%s (%s)." -}}
{{- include "nim-llm.fail" (printf $message $name (include "nim-llm.preflight.cacheText" $) $orphanHelp
  (ternary "the claim stays, as it is annotated helm.sh/resource-policy: keep: delete it when no longer needed"
    "Helm then deletes the claim and its data; annotate it helm.sh/resource-policy=keep first to keep it" $keep)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Deployment selector: immutable. */ -}}
{{- define "nim-llm.preflight.liveDeploymentSelector" -}}
{{- $ns := .Release.Namespace -}}
{{- $release := .Release.Name -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- $selector := include "nim-llm.selectorLabels" . | fromYaml -}}
{{- if eq $mode "deployment" -}}
{{- $deployment := lookup "apps/v1" "Deployment" $ns $fullname -}}
{{- if and $deployment (eq (get ($deployment.metadata.annotations | default dict) "meta.helm.sh/release-name") $release)
  (ne (toYaml $deployment.spec.selector.matchLabels) (toYaml $selector)) -}}
{{- $message := print
  "nameOverride changes the selector of the live Deployment %s (app.kubernetes.io/name %v to %v), "
  "which Kubernetes does not allow to change: keep nameOverride as it was (%v), or install the new "
  "name as a new release." -}}
{{- include "nim-llm.fail" (printf $message $fullname
  (get $deployment.spec.selector.matchLabels "app.kubernetes.io/name") (get $selector "app.kubernetes.io/name")
  (get $deployment.spec.selector.matchLabels "app.kubernetes.io/name")) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* LeaderWorkerSet subgroups: its webhook refuses adding, removing or changing them. */ -}}
{{- define "nim-llm.preflight.liveSubGroups" -}}
{{- $V := .Values -}}
{{- $ns := .Release.Namespace -}}
{{- $release := .Release.Name -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- if and (eq $mode "leaderworkerset") (.Capabilities.APIVersions.Has "leaderworkerset.x-k8s.io/v1/LeaderWorkerSet") -}}
{{- $lws := lookup "leaderworkerset.x-k8s.io/v1" "LeaderWorkerSet" $ns (include "nim-llm.lwsName" .) -}}
{{- if and $lws (eq (get ($lws.metadata.annotations | default dict) "meta.helm.sh/release-name") $release) -}}
{{- $live := int
  (((($lws.spec.leaderWorkerTemplate | default dict).subGroupPolicy) | default dict).subGroupSize | default 0) -}}
{{- if ne $live (int $V.multiNode.leaderWorkerSet.subGroupSize) -}}
{{- $message := print
  "multiNode.leaderWorkerSet.subGroupSize is %d, but the live LeaderWorkerSet %s has %d, and "
  "LeaderWorkerSet does not allow adding, removing or changing subgroups: set "
  "multiNode.leaderWorkerSet.subGroupSize: %d; or delete the LeaderWorkerSet (kubectl delete "
  "leaderworkerset %s -n %s: its pods stop) and upgrade again." -}}
{{- include "nim-llm.fail" (printf $message (int $V.multiNode.leaderWorkerSet.subGroupSize)
  (include "nim-llm.lwsName" .) $live $live (include "nim-llm.lwsName" .) $ns) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* What model cache these values give the pods, in words (for the messages above). */ -}}
{{- define "nim-llm.preflight.cacheText" -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- $workload := get
  (dict "statefulset" "a StatefulSet" "deployment" "a Deployment" "leaderworkerset" "a LeaderWorkerSet" "mpijob"
    "MPIJobs") (include "nim-llm.mode" .) -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- if eq $backend "pvc-template" -}}{{- printf "%s named %s with new per-pod claims model-store-%s-<n>" $workload $fullname $fullname -}}
{{- else if eq $backend "pvc-shared" -}}{{- printf "%s with the claim %s" $workload (include "nim-llm.sharedClaimName" .) -}}
{{- else if eq $backend "pvc-existing" -}}{{- printf "%s with the existing claim %s" $workload .Values.persistence.existingClaim -}}
{{- else if eq $backend "hostPath" -}}{{- printf "%s with the node directory %s (hostPath)" $workload .Values.hostPath.path -}}
{{- else if eq $backend "nfs" -}}{{- printf "%s with the NFS export %s:%s" $workload .Values.nfs.server .Values.nfs.path -}}
{{- else -}}{{- printf "%s with an emptyDir (no persistence)" $workload -}}
{{- end -}}
{{- end -}}

{{- /* multiNode.existingSSHSecret must hold the key the pods mount (private.key); a Secret without it leaves every pod of
the group waiting to start. Checked when the Secret can be read (install and upgrade; not under helm template). */ -}}
{{- define "nim-llm.preflight.liveSshSecretHasKey" -}}
{{- $name := .Values.multiNode.existingSSHSecret -}}
{{- if and $name (include "nim-llm.usesMPI" .) (eq (include "nim-llm.mode" .) "leaderworkerset") -}}
{{- $secret := lookup "v1" "Secret" .Release.Namespace $name -}}
{{- $data := $secret.data | default dict -}}
{{- if and $secret (not (and (hasKey $data "private.key") (hasKey $data "public.key"))) -}}
{{- $message := print
  "multiNode.existingSSHSecret is %s, but that Secret does not hold both private.key and public.key (it has: %s): "
  "the leader mounts the private key, each worker only the public key (least privilege). Add both "
  "(ssh-keygen -y -f <key file> > public.key; kubectl create secret generic %s --from-file=private.key=<key file> "
  "--from-file=public.key), or leave multiNode.existingSSHSecret empty for a generated key." -}}
{{- include "nim-llm.fail" (printf $message $name (join ", " (keys $data | sortAlpha) | default "none") $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
