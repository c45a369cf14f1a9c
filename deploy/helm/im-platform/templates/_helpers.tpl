{{/* The chart's names and labels. */}}
{{- define "im.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "im.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "im.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "im.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: im-platform
{{- end }}

{{/* Selector labels of one component (gateway, services-core, ...): call with (list $ "gateway"). */}}
{{- define "im.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "im.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "im.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Calls are on only with the operator's LiveKit. */}}
{{- define "im.voice" -}}
{{- if .Values.livekit.url }}on{{ else }}off{{ end }}
{{- end }}

{{/* The services a group runs: the call service only with calls on. Call with (list $ group). */}}
{{- define "im.groupServices" -}}
{{- $root := index . 0 }}
{{- $group := index . 1 }}
{{- $names := list }}
{{- range $group.services }}
{{- if or (ne . "call") $root.Values.livekit.url }}
{{- $names = append $names . }}
{{- end }}
{{- end }}
{{- join "," $names }}
{{- end }}

{{/* Seconds Kubernetes waits after SIGTERM: the preStop pause, the drain (SHUTDOWN_TIMEOUT_MS) and a margin. */}}
{{- define "im.terminationGracePeriodSeconds" -}}
{{- add (int .Values.preStopSeconds) (div (add (int .Values.shutdownTimeoutMs) 999) 1000) 10 }}
{{- end }}

{{/* An env entry read from the existing Secret. Call with (list $ "NAME" key). */}}
{{- define "im.secretEnv" -}}
{{- $root := index . 0 -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ required "existingSecret.name: name the Secret that holds SECRET and the other keys" $root.Values.existingSecret.name }}
      key: {{ index . 2 }}
{{- end }}

{{/* A URL from the Secret when its key is set, else the plain value. Call with (list $ "NAME" secretKey value). */}}
{{- define "im.urlEnv" -}}
{{- if index . 2 -}}
{{- include "im.secretEnv" (list (index . 0) (index . 1) (index . 2)) -}}
{{- else -}}
- name: {{ index . 1 }}
  value: {{ index . 3 | quote }}
{{- end -}}
{{- end }}

{{/* The environment every node shares; SERVICES is added per Deployment. */}}
{{- define "im.commonEnv" -}}
{{- $keys := .Values.existingSecret.keys -}}
- name: NODE_ENV
  value: production
- name: NODE_ID
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: NAMESPACE
  value: {{ .Values.brokerNamespace | quote }}
- name: LOG_FORMAT
  value: json
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ .Values.shutdownTimeoutMs | int | toString | quote }}
{{ include "im.secretEnv" (list . "SECRET" (required "existingSecret.keys.secret is required" $keys.secret)) }}
{{- range $pair := list (list "nats" $keys.natsUrl .Values.nats.url) (list "redis" $keys.redisUrl .Values.redis.url) (list "mongo" $keys.mongoUrl .Values.mongo.url) }}
{{- if not (or (index $pair 1) (index $pair 2)) }}
{{- fail (printf "%s.url (or existingSecret.keys.%sUrl) is required: a cluster needs NATS, Redis and MongoDB" (index $pair 0) (index $pair 0)) }}
{{- end }}
{{- end }}
{{ include "im.urlEnv" (list . "TRANSPORTER" $keys.natsUrl .Values.nats.url) }}
{{ include "im.urlEnv" (list . "REDIS_URL" $keys.redisUrl .Values.redis.url) }}
{{ include "im.urlEnv" (list . "MONGO_URL" $keys.mongoUrl .Values.mongo.url) }}
{{- with .Values.redis.sentinels }}
# Redis through Sentinel: REDIS_URL then gives only the master's password, database and TLS.
- name: REDIS_SENTINELS
  value: {{ join "," . | quote }}
- name: REDIS_SENTINEL_NAME
  value: {{ $.Values.redis.sentinelName | quote }}
{{- end }}
{{- if .Values.s3.endpoint }}
{{ include "im.secretEnv" (list . "S3_ACCESS_KEY" (required "existingSecret.keys.s3AccessKey is required with s3.endpoint" $keys.s3AccessKey)) }}
{{ include "im.secretEnv" (list . "S3_SECRET_KEY" (required "existingSecret.keys.s3SecretKey is required with s3.endpoint" $keys.s3SecretKey)) }}
{{- $endpoint := urlParse .Values.s3.endpoint }}
# Kubernetes puts the two keys above into the URL ($(NAME) refers to an earlier variable).
- name: MINIO_URL
  value: {{ printf "%s://$(S3_ACCESS_KEY):$(S3_SECRET_KEY)@%s" $endpoint.scheme $endpoint.host | quote }}
- name: STORAGE
  value: s3
- name: S3_BUCKET
  value: {{ .Values.s3.bucket | quote }}
- name: S3_REGION
  value: {{ .Values.s3.region | quote }}
{{- end }}
- name: VOICE
  value: {{ include "im.voice" . | quote }}
{{- if .Values.livekit.url }}
- name: LIVEKIT_URL
  value: {{ .Values.livekit.url | quote }}
- name: LIVEKIT_PUBLIC_URL
  value: {{ default .Values.livekit.url .Values.livekit.publicUrl | quote }}
- name: LIVEKIT_API_KEY
  value: {{ required "livekit.apiKey is required with livekit.url" .Values.livekit.apiKey | quote }}
{{ include "im.secretEnv" (list . "LIVEKIT_API_SECRET" (required "existingSecret.keys.livekitApiSecret is required with livekit.url" $keys.livekitApiSecret)) }}
{{- end }}
{{- if $keys.metricsToken }}
{{ include "im.secretEnv" (list . "METRICS_TOKEN" $keys.metricsToken) }}
{{- end }}
{{- $publicUrl := .Values.publicUrl }}
{{- if and (not $publicUrl) .Values.ingress.enabled }}
{{- $publicUrl = printf "%s://%s" (ternary "https" "http" (not (empty .Values.ingress.tlsSecretName))) .Values.ingress.host }}
{{- end }}
{{- if $publicUrl }}
- name: PUBLIC_URL
  value: {{ $publicUrl | quote }}
{{- end }}
{{- range $name, $value := .Values.extraEnv }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}

{{/* Writable places under a read-only root: scratch space and DATA_DIR (./data in the image's /app). */}}
{{- define "im.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /app/data
{{- end }}

{{- define "im.volumes" -}}
- name: tmp
  emptyDir: {}
- name: data
  emptyDir: {}
{{- end }}
