-- Argo CD health check for every cdn-operator kind (one argocd-cm key per CRD in crds/).
-- Single source: deploy/argocd/health.lua. The chart ships a copy and a ready-made argocd-cm
-- snippet (deploy/argocd/argocd-cm.yaml); `make sync-chart-crds` keeps them in step.
--
--   Healthy      Ready=True for the current generation and no terminal sync error; a custom
--                hostname whose certificate is pending (CertificatesReady=False: its DNS does
--                not point at the zone yet) is named in the message and does not hold it,
--                since the zone serves meanwhile and the record that lets the certificate be
--                issued often comes in a later sync wave (docs/install.md, Argo CD)
--   Progressing  not yet reconciled, generation not yet observed, creating, deleting,
--                waiting for a referenced object, or retrying a transient API error (the
--                error is in the message)
--   Degraded     a terminal error: invalid spec, rejected credentials, missing external
--                resource, or any other Synced=False reason that a retry cannot fix; a
--                transient error that has lasted longer than `persistentAfter`; the outputs
--                or password Secret refused (OutputsReady=False)
--                ; a CdnPolicy that refuses part of its targets (Accepted=False)
--   Suspended    reconciliation paused (cdn.operator.io/paused) or dry-run mode
--
-- Runs without Lua's string library (Argo CD's default): only base functions, table and the
-- os.time/os.date that Argo CD offers through require("os").
local hs = {}

-- Seconds a retried failure may last before it is reported as Degraded.
local persistentAfter = 300

-- Synced=False reasons the operator retries on its own (transient): not Degraded.
local retryable = {
  ApiUnavailable = true,
  RateLimited = true,
  ExternalConflict = true,
  ReconcileError = true,
  Conflict = true,
  Waiting = true,
}

local function condition(conditions, kind)
  if conditions == nil then
    return nil
  end
  for _, c in ipairs(conditions) do
    if c.type == kind then
      return c
    end
  end
  return nil
end

-- The RFC 3339 UTC time `persistentAfter` ago, comparable as a string with condition times
-- (second precision, as Kubernetes writes them). nil when no clock is available. The UTC
-- fields of now are shifted as local time so both conversions use the same zone.
local function cutoff()
  local ok, clock = pcall(require, "os")
  if not ok or type(clock) ~= "table" or clock.time == nil or clock.date == nil then
    return nil
  end
  local now = clock.date("!*t")
  return clock.date("%Y-%m-%dT%H:%M:%SZ", clock.time(now) - persistentAfter)
end

-- True when condition c has held its status for longer than `persistentAfter`.
local function persistent(c)
  local before = cutoff()
  return before ~= nil and type(c.lastTransitionTime) == "string" and c.lastTransitionTime < before
end

local function describe(c)
  if c.message ~= nil and c.message ~= "" then
    return c.reason .. ": " .. c.message
  end
  return c.reason or ""
end

local function observedGeneration(status, c)
  if c ~= nil and c.observedGeneration ~= nil then
    return c.observedGeneration
  end
  return status.observedGeneration
end

local function evaluate(o)
  local generation = o.metadata.generation
  local annotations = o.metadata.annotations or {}
  if annotations["cdn.operator.io/paused"] == "true" then
    return "Suspended", "Reconciliation is paused by the cdn.operator.io/paused annotation"
  end
  if o.metadata.deletionTimestamp ~= nil then
    return "Progressing", "Deleting the external resource"
  end
  local status = o.status
  if status == nil or status.conditions == nil then
    return "Progressing", "Waiting for the operator to reconcile"
  end
  local ready = condition(status.conditions, "Ready")
  local synced = condition(status.conditions, "Synced")
  if generation ~= nil and status.observedGeneration ~= generation then
    return "Progressing", "Waiting for the operator to observe generation " .. tostring(generation)
  end
  if synced ~= nil and synced.reason == "DryRun" then
    return "Suspended", "Dry-run mode: " .. (synced.message or "")
  end
  if synced ~= nil and synced.reason == "ReconcilePaused" then
    return "Suspended", describe(synced)
  end
  if synced ~= nil and synced.status == "False" and not retryable[synced.reason] then
    return "Degraded", describe(synced)
  end
  if synced ~= nil and synced.status == "False" and persistent(synced) then
    return "Degraded", "Failing since " .. synced.lastTransitionTime .. ": " .. describe(synced)
  end
  local outputs = condition(status.conditions, "OutputsReady")
  if outputs ~= nil and outputs.status == "False" and (outputs.reason ~= "WriteFailed" or persistent(outputs)) then
    return "Degraded", describe(outputs)
  end
  -- CdnPolicy (docs/routes.md): a refusal (a hostname outside its zones, a conflict, ...) lasts
  -- until the spec or the routes change; Ready=True only once every generated object is Ready.
  local accepted = condition(status.conditions, "Accepted")
  if accepted ~= nil and accepted.status == "False" then
    return "Degraded", describe(accepted)
  end
  if ready ~= nil and ready.status == "True" then
    if generation == nil or observedGeneration(status, ready) == generation then
      local certificates = condition(status.conditions, "CertificatesReady")
      if certificates ~= nil and certificates.status == "False" then
        return "Healthy", "Ready; " .. describe(certificates)
      end
      return "Healthy", "Ready"
    end
    if synced ~= nil and synced.status == "False" then
      return "Progressing", "Retrying: " .. describe(synced)
    end
    return "Progressing", "Waiting for the operator to observe generation " .. tostring(generation)
  end
  if synced ~= nil and synced.status == "False" then
    return "Progressing", "Retrying: " .. describe(synced)
  end
  if ready ~= nil then
    return "Progressing", describe(ready)
  end
  return "Progressing", "Waiting for the Ready condition"
end

hs.status, hs.message = evaluate(obj)
return hs
