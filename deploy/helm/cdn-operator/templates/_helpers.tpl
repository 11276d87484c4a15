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
RBAC rules on the namespaced resources the operator reconciles. Called with a dict: "ctx" (the
root context) and "secrets" (true: also read Secrets/ConfigMaps, and write Secrets with
outputs.enabled). Used by the ClusterRole, by the Role of each watched namespace, and (with
only the Secret part) by the Roles of secretAccess.namespaces.
*/}}
{{- define "cdn-operator.rules" -}}
- apiGroups: ["cdn.operator.io"]
  resources: ["pullzoneconfigs", "containerapps", "shieldpolicies", "storagezones"]
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["cdn.operator.io"]
  resources: ["pullzoneconfigs/status", "containerapps/status", "shieldpolicies/status", "storagezones/status"]
  verbs: ["patch"]
- apiGroups: ["cdn.operator.io"]
  resources: ["pullzoneconfigs/finalizers", "containerapps/finalizers", "shieldpolicies/finalizers", "storagezones/finalizers"]
  verbs: ["update"]
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
Accounts: watch CdnAccounts (and write their Ready condition), and Namespaces (labels for
namespaceSelector); both are served to every pass from the operator's watch caches.
*/}}
{{- define "cdn-operator.accountRules" -}}
- apiGroups: ["cdn.operator.io"]
  resources: ["cdnaccounts"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["cdn.operator.io"]
  resources: ["cdnaccounts/status"]
  verbs: ["patch"]
- apiGroups: [""]
  resources: ["namespaces"]
  verbs: ["get", "list", "watch"]
{{- end -}}
