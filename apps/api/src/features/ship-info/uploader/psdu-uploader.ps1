# Onboard uploader of the scrubber fleet monitoring portal (Automate file upload), PowerShell variant.
# Watches a folder and uploads every new logger file to the ship's data source. Needs PowerShell 7 or newer.
# Usage: pwsh ./psdu-uploader.ps1 [-Config config.json] [-Once]
param(
  [string]$Config = (Join-Path $PSScriptRoot 'config.json'),
  [switch]$Once
)
$ErrorActionPreference = 'Stop'
$configPath = (Resolve-Path $Config).Path
$configDir = Split-Path $configPath -Parent
$cfg = Get-Content $configPath -Raw | ConvertFrom-Json
$token = if ($env:PSDU_TOKEN) { $env:PSDU_TOKEN } else { $cfg.token }
if (-not $token) { Write-Error 'No upload token: put it in config.json ("token") or in the PSDU_TOKEN environment variable.'; exit 2 }
$serverUrl = $cfg.serverUrl.TrimEnd('/')
$watchFolder = [IO.Path]::GetFullPath((Join-Path $configDir ($(if ($cfg.watchFolder) { $cfg.watchFolder } else { 'outbox' }))))
$stateFile = [IO.Path]::GetFullPath((Join-Path $configDir ($(if ($cfg.stateFile) { $cfg.stateFile } else { 'psdu-state.json' }))))
$pollSeconds = if ($cfg.pollSeconds) { [int]$cfg.pollSeconds } else { 30 }
$settleSeconds = if ($null -ne $cfg.settleSeconds) { [int]$cfg.settleSeconds } else { 5 }
New-Item -ItemType Directory -Force -Path $watchFolder | Out-Null

function Get-State {
  if (Test-Path $stateFile) { return Get-Content $stateFile -Raw | ConvertFrom-Json -AsHashtable }
  return @{ sent = @{} }
}
function Save-State($state) { $state | ConvertTo-Json -Depth 5 | Set-Content -Path $stateFile -Encoding utf8 }

function Get-Candidates {
  $list = @()
  foreach ($f in Get-ChildItem -Path $watchFolder -File | Where-Object { -not $_.Name.StartsWith('.') -and $_.FullName -ne $stateFile }) {
    $list += [pscustomobject]@{ File = $f; Key = $f.Name; DataSourceId = $cfg.dataSourceId }
  }
  foreach ($ds in $cfg.dataSources) {
    $folder = Join-Path $watchFolder $ds.name
    if (Test-Path $folder) {
      foreach ($f in Get-ChildItem -Path $folder -File | Where-Object { -not $_.Name.StartsWith('.') }) {
        $list += [pscustomobject]@{ File = $f; Key = "$($ds.name)/$($f.Name)"; DataSourceId = $ds.id }
      }
    }
  }
  return $list | Where-Object { $_.DataSourceId }
}

function Invoke-Cycle {
  $state = Get-State
  $failed = 0
  foreach ($c in Get-Candidates) {
    $mtime = [long]($c.File.LastWriteTimeUtc - [datetime]'1970-01-01').TotalMilliseconds
    $previous = $state.sent[$c.Key]
    if ($previous -and $previous.size -eq $c.File.Length -and $previous.mtimeMs -eq $mtime) { continue }
    if (((Get-Date).ToUniversalTime() - $c.File.LastWriteTimeUtc).TotalSeconds -lt $settleSeconds) { continue }
    try {
      $uri = "$serverUrl/api/algorithm/facilitydatasource/$($c.DataSourceId)/file"
      Invoke-RestMethod -Method Post -Uri $uri -Headers @{ Authorization = "Bearer $token" } -Form @{ file = $c.File } | Out-Null
      $state.sent[$c.Key] = @{ size = $c.File.Length; mtimeMs = $mtime; sentOn = (Get-Date).ToUniversalTime().ToString('o') }
      Save-State $state
      Write-Host "uploaded $($c.Key)"
    } catch {
      $status = $_.Exception.Response.StatusCode.value__
      if ($status -eq 409) {
        $state.sent[$c.Key] = @{ size = $c.File.Length; mtimeMs = $mtime; sentOn = (Get-Date).ToUniversalTime().ToString('o') }
        Save-State $state
      } else {
        $failed++
        Write-Warning "upload failed $($c.Key): $($_.Exception.Message)"
      }
    }
  }
  return $failed
}

if ($Once) { $failed = Invoke-Cycle; exit ([int]($failed -gt 0)) }
Write-Host "watching $watchFolder for $($cfg.shipName); uploading to $serverUrl"
while ($true) { Invoke-Cycle | Out-Null; Start-Sleep -Seconds $pollSeconds }
