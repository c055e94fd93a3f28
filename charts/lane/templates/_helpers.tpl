{{- define "lane.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 52 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "lane.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "lane.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "lane.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "lane.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "lane.mintNamespace" -}}
{{- default .Release.Namespace .Values.backend.mintNamespace -}}
{{- end -}}

{{/* The labels a selector matches on (no version: selectors are immutable). */}}
{{- define "lane.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "lane.serveName" -}}
{{- printf "%s-serve" (include "lane.fullname" .) -}}
{{- end -}}

{{/* Refusals no schema can say: what the chart would install. */}}
{{- define "lane.validate" -}}
{{- if not (or .Values.cronjob.enabled .Values.serve.enabled) -}}
{{- fail "cronjob.enabled and serve.enabled are both false: the chart would install nothing that mints" -}}
{{- end -}}
{{- if .Values.serve.enabled -}}
{{- $_ := required "serve.enabled needs serve.webhookSecret.existingSecret: the name of a Secret holding the GitHub webhook secret (the chart never takes the value itself)" .Values.serve.webhookSecret.existingSecret -}}
{{- if .Values.serve.ingress.enabled -}}
{{- $_ := required "serve.ingress.enabled needs serve.ingress.host: the host GitHub delivers the webhook to" .Values.serve.ingress.host -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The ConfigMap's hash, as a pod annotation: a lane-file or backend change restarts the pods. */}}
{{- define "lane.configChecksum" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- end -}}

{{/* GITHUB_TOKEN from secrets.github, by reference. */}}
{{- define "lane.githubEnv" -}}
{{- with .Values.secrets.github.existingSecret }}
- name: GITHUB_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ . | quote }}
      key: {{ $.Values.secrets.github.key | quote }}
{{- end }}
{{- end -}}

{{/* backend.storeEnv as env: lane reads the result bundles from the store
and presigns the wheel, with the same store settings as the mint pods. */}}
{{- define "lane.storeEnv" -}}
{{- range $k, $v := .Values.backend.storeEnv }}
- name: {{ $k | quote }}
  value: {{ $v | quote }}
{{- end }}
{{- end -}}

{{/* The store credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_SESSION_TOKEN) as the mint pods get them; empty without secrets.store. */}}
{{- define "lane.storeEnvFrom" -}}
{{- with .Values.secrets.store.existingSecret }}
envFrom:
  - secretRef:
      name: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* The backend config at /etc/lane/kube.yaml and the lane file at
/etc/lane/lanes/<version>.yaml, read-only, from the chart's ConfigMap. */}}
{{- define "lane.configVolumeMounts" -}}
- name: config
  mountPath: /etc/lane/kube.yaml
  subPath: kube.yaml
  readOnly: true
- name: lanes
  mountPath: /etc/lane/lanes
  readOnly: true
{{- end -}}

{{- define "lane.configVolumes" -}}
- name: config
  configMap:
    name: {{ include "lane.fullname" . }}
    items:
      - key: kube.yaml
        path: kube.yaml
- name: lanes
  configMap:
    name: {{ include "lane.fullname" . }}
    items:
      - key: {{ printf "%s.yaml" .Values.lane.version | quote }}
        path: {{ printf "%s.yaml" .Values.lane.version | quote }}
{{- end -}}

{{/* imagePullSecrets and placement, the same for every lane pod. */}}
{{- define "lane.podPlacement" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
