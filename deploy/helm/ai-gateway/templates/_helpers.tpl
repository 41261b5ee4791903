{{/* Names: <release>-ai-gateway unless the release is already called that. */}}
{{- define "ai-gateway.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "ai-gateway.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (gateway or worker): pass (list . "gateway"). */}}
{{- define "ai-gateway.selectorLabels" -}}
{{- $ := index . 0 -}}
app.kubernetes.io/name: {{ $.Chart.Name }}
app.kubernetes.io/instance: {{ $.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "ai-gateway.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "ai-gateway.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "ai-gateway.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "ai-gateway.embedded" -}}
{{- if eq .Values.database.mode "embedded" -}}true{{- end -}}
{{- end -}}

{{/* The role of the gateway pods: api when workers run the jobs, else all. */}}
{{- define "ai-gateway.gatewayRole" -}}
{{- if and .Values.worker.enabled (not (include "ai-gateway.embedded" .)) -}}api{{- else -}}all{{- end -}}
{{- end -}}

{{/*
An env entry from a secrets.<name> reference: pass (list . "encryptionKey" "GATEWAY_ENCRYPTION_KEY"), with a fourth
element true when the pod may start without it (the embedded default generates what is missing).
*/}}
{{- define "ai-gateway.secretEnv" -}}
{{- $ := index . 0 -}}
{{- $ref := index $.Values.secrets (index . 1) -}}
- name: {{ index . 2 }}
  valueFrom:
    secretKeyRef:
      name: {{ default $.Values.secrets.existingSecret $ref.secretName }}
      key: {{ $ref.key }}
      {{- if gt (len .) 3 }}
      optional: true
      {{- end }}
{{- end -}}

{{/* Whether secrets.<name> names a Secret and a key. */}}
{{- define "ai-gateway.hasSecret" -}}
{{- $ := index . 0 -}}
{{- $ref := index $.Values.secrets (index . 1) | default dict -}}
{{- if and (default $.Values.secrets.existingSecret $ref.secretName) $ref.key -}}true{{- end -}}
{{- end -}}

{{/*
The environment both Deployments share: run mode, database, queue, key, config file. Pass (list . "api"|"all"|"worker").
*/}}
{{- define "ai-gateway.env" -}}
{{- $ := index . 0 -}}
{{- $role := index . 1 -}}
- name: GATEWAY_ROLE
  value: {{ $role }}
- name: GATEWAY_CONFIG
  value: /etc/ai-gateway/config.yaml
{{- if include "ai-gateway.embedded" $ }}
{{- if include "ai-gateway.hasSecret" (list $ "encryptionKey") }}
{{ include "ai-gateway.secretEnv" (list $ "encryptionKey" "GATEWAY_ENCRYPTION_KEY" true) }}
{{- end }}
{{- else }}
{{ include "ai-gateway.secretEnv" (list $ "encryptionKey" "GATEWAY_ENCRYPTION_KEY") }}
{{- if $.Values.database.url }}
- name: DATABASE_URL
  value: {{ $.Values.database.url | quote }}
{{- else }}
{{ include "ai-gateway.secretEnv" (list $ "databaseUrl" "DATABASE_URL") }}
{{- end }}
{{- if $.Values.redis.url }}
- name: REDIS_URL
  value: {{ $.Values.redis.url | quote }}
{{- else }}
{{ include "ai-gateway.secretEnv" (list $ "redisUrl" "REDIS_URL") }}
{{- end }}
{{- end }}
{{- range $.Values.secrets.env }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ default $.Values.secrets.existingSecret .secretName }}
      key: {{ .key }}
{{- end }}
{{- end -}}

{{/* The volumes and mounts of both pods: config file, /tmp, the app dir. */}}
{{- define "ai-gateway.volumeMounts" -}}
- name: config
  mountPath: /etc/ai-gateway
  readOnly: true
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /var/lib/gateway
{{- end -}}

{{/*
Refusals at template time, one message naming the value. Included by the gateway Deployment, so `helm template`,
`helm lint` and `helm install` all stop on them.
*/}}
{{- define "ai-gateway.validate" -}}
{{- $v := .Values -}}
{{- if not (has $v.database.mode (list "external" "embedded")) -}}
{{- fail (printf "database.mode must be external or embedded (got %q)" $v.database.mode) -}}
{{- end -}}
{{- if include "ai-gateway.embedded" . -}}
{{- if gt (int $v.gateway.replicas) 1 -}}
{{- fail (printf "gateway.replicas is %d but database.mode is embedded: the embedded database belongs to one process, so it runs 1 replica; set database.mode=external (Postgres and Redis) to scale out" (int $v.gateway.replicas)) -}}
{{- end -}}
{{- if $v.autoscaling.enabled -}}
{{- fail "autoscaling.enabled is true but database.mode is embedded: the embedded database runs 1 replica; set database.mode=external (Postgres and Redis) to scale out" -}}
{{- end -}}
{{- else -}}
{{- if not (include "ai-gateway.hasSecret" (list . "encryptionKey")) -}}
{{- fail "secrets.encryptionKey is required with database.mode external: name the Secret (secrets.existingSecret or secrets.encryptionKey.secretName) and its key (secrets.encryptionKey.key) holding GATEWAY_ENCRYPTION_KEY, shared by every replica" -}}
{{- end -}}
{{- if and (not $v.database.url) (not (include "ai-gateway.hasSecret" (list . "databaseUrl"))) -}}
{{- fail "database.url or secrets.databaseUrl is required with database.mode external: the Postgres URL, as a value or a Secret key" -}}
{{- end -}}
{{- if and (not $v.redis.url) (not (include "ai-gateway.hasSecret" (list . "redisUrl"))) -}}
{{- fail "redis.url or secrets.redisUrl is required with database.mode external: the Redis URL, as a value or a Secret key" -}}
{{- end -}}
{{- if $v.config.auth_config.is_enabled -}}
{{- range $name := list "adminUsername" "adminPassword" -}}
{{- if not (include "ai-gateway.hasSecret" (list $ $name)) -}}
{{- fail (printf "secrets.%s is required when config.auth_config.is_enabled is true: name the Secret and key holding it" $name) -}}
{{- end -}}
{{- end -}}
{{- else if not (include "ai-gateway.hasSecret" (list . "setupToken")) -}}
{{- fail "secrets.setupToken is required with database.mode external while dashboard auth is off (config.auth_config.is_enabled): without it /api/* stays locked" -}}
{{- end -}}
{{- end -}}
{{- if and $v.database.url (not (regexMatch "^postgres(ql)?://[^/?#\\s]+(/[^\\s]*)?$" $v.database.url)) -}}
{{- fail (printf "database.url must be a postgres:// or postgresql:// URL with a host (got %q)" $v.database.url) -}}
{{- end -}}
{{- if and $v.redis.url (not (regexMatch "^rediss?://[^/?#\\s]+(/[^\\s]*)?$" $v.redis.url)) -}}
{{- fail (printf "redis.url must be a redis:// or rediss:// URL with a host (got %q)" $v.redis.url) -}}
{{- end -}}
{{- range $key := list "public_base_url" -}}
{{- $url := index $v.config $key | default "" -}}
{{- if and $url (not (regexMatch "^https?://[^/?#\\s]+(/[^\\s]*)?$" $url)) -}}
{{- fail (printf "config.%s must be an http(s):// URL (got %q)" $key $url) -}}
{{- end -}}
{{- end -}}
{{- if and $v.config.otel $v.config.otel.endpoint (not (regexMatch "^https?://[^/?#\\s]+(/[^\\s]*)?$" $v.config.otel.endpoint)) -}}
{{- fail (printf "config.otel.endpoint must be an http(s):// URL (got %q)" $v.config.otel.endpoint) -}}
{{- end -}}
{{- if and $v.ingress.enabled (not (hasPrefix "/" $v.ingress.path)) -}}
{{- fail (printf "ingress.path must start with / (got %q)" $v.ingress.path) -}}
{{- end -}}
{{- end -}}
