{{/* Chart name, truncated to 63 characters. */}}
{{- define "cdn-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name: release name, plus the chart name unless the release name contains it. */}}
{{- define "cdn-operator.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels on every object. */}}
{{- define "cdn-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "cdn-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: cdn-operator
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels that select the operator pods. */}}
{{- define "cdn-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cdn-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* ServiceAccount name. */}}
{{- define "cdn-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "cdn-operator.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Operator image reference: digest wins over tag; tag defaults to appVersion. */}}
{{- define "cdn-operator.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}


{{/*
The kinds the chart ships a CRD for (crds/*.yaml), read from the CRDs themselves so that a new
kind needs no edit here: YAML mapping each API group to the plurals of its kinds of scope
"scope" (Namespaced: the reconciled kinds; Cluster: the kinds the operator reads), in file
order. Called with a dict: "ctx" (the root context) and "scope".
*/}}
{{- define "cdn-operator.crdPlurals" -}}
{{- $groups := dict -}}
{{- range $path, $_ := .ctx.Files.Glob "crds/*.yaml" -}}
{{- $crd := $.ctx.Files.Get $path | fromYaml -}}
{{- if eq $crd.spec.scope $.scope -}}
{{- $plurals := get $groups $crd.spec.group | default list -}}
{{- $discard := set $groups $crd.spec.group (append $plurals $crd.spec.names.plural) -}}
{{- end -}}
{{- end -}}
{{- toYaml $groups -}}
{{- end -}}

{{/* Each plural of the list "plurals" with "/<sub>" appended (status, finalizers). */}}
{{- define "cdn-operator.subresources" -}}
{{- $out := list -}}
{{- range .plurals }}{{ $out = append $out (printf "%s/%s" . $.sub) }}{{ end -}}
{{- toJson $out -}}
{{- end -}}

{{/*
Rules on the kinds of scope "scope" (see crdPlurals), as a YAML list: "verbs" on the objects,
and "statusVerbs" / "finalizerVerbs" on their subresources when given. Called with a dict:
"ctx", "scope", "verbs", and optionally "statusVerbs" and "finalizerVerbs".
*/}}
{{- define "cdn-operator.kindRules" -}}
{{- $rules := list -}}
{{- $groups := include "cdn-operator.crdPlurals" (dict "ctx" .ctx "scope" .scope) | fromYaml -}}
{{- range $group, $plurals := $groups -}}
{{- $rules = append $rules (dict "apiGroups" (list $group) "resources" $plurals "verbs" $.verbs) -}}
{{- if $.statusVerbs -}}
{{- $status := include "cdn-operator.subresources" (dict "plurals" $plurals "sub" "status") | fromJsonArray -}}
{{- $rules = append $rules (dict "apiGroups" (list $group) "resources" $status "verbs" $.statusVerbs) -}}
{{- end -}}
{{- if $.finalizerVerbs -}}
{{- $finalizers := include "cdn-operator.subresources" (dict "plurals" $plurals "sub" "finalizers") | fromJsonArray -}}
{{- $rules = append $rules (dict "apiGroups" (list $group) "resources" $finalizers "verbs" $.finalizerVerbs) -}}
{{- end -}}
{{- end -}}
{{- with $rules }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/*
RBAC rules on the namespaced resources the operator reconciles (every namespaced CRD in crds/).
Called with a dict: "ctx" (the root context) and "secrets" (true: also read Secrets/ConfigMaps,
and write Secrets with outputs.enabled). Used by the ClusterRole, by the Role of each watched
namespace, and (with only the Secret part) by the Roles of secretAccess.namespaces.
*/}}
{{- define "cdn-operator.rules" -}}
{{ include "cdn-operator.kindRules" (dict "ctx" .ctx "scope" "Namespaced" "verbs" (list "get" "list" "watch" "patch") "statusVerbs" (list "patch") "finalizerVerbs" (list "update")) }}
{{- if .secrets }}
{{ include "cdn-operator.secretRules" .ctx }}
{{- end }}
- apiGroups: ["events.k8s.io"]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end -}}

{{/*
Read Secrets and ConfigMaps; write Secrets only with outputs.enabled.
*/}}
{{- define "cdn-operator.secretRules" -}}
- apiGroups: [""]
  resources: ["secrets", "configmaps"]
  verbs: ["get", "list", "watch"]
{{- if .Values.outputs.enabled }}
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["create", "patch"]
{{- end }}
{{- end -}}

{{/*
Accounts: watch the cluster-scoped kinds (CdnAccount; every cluster-scoped CRD in crds/) and write
their Ready condition, and watch Namespaces (labels for namespaceSelector); both are served to every
pass from the operator's watch caches.
*/}}
{{- define "cdn-operator.accountRules" -}}
{{ include "cdn-operator.kindRules" (dict "ctx" . "scope" "Cluster" "verbs" (list "get" "list" "watch") "statusVerbs" (list "patch")) }}
- apiGroups: [""]
  resources: ["namespaces"]
  verbs: ["get", "list", "watch"]
{{- end -}}

{{/* DNS-01 solver: the base name of its objects (Service, certificates, RBAC). */}}
{{- define "cdn-operator.solverName" -}}
{{- printf "%s-dns01-solver" (include "cdn-operator.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* DNS-01 solver: the Secret of its serving certificate, mounted at the solver's tls dir. */}}
{{- define "cdn-operator.solverTlsSecret" -}}
{{- printf "%s-tls" (include "cdn-operator.solverName" .) -}}
{{- end -}}
