// The data health feature's public entry: the ship list shows each ship's badge, the organization screen its thresholds.
export { HealthBadge } from './HealthBadge';
export { useDataHealthSummaries } from './data-health-api';
export { DataHealthThresholdsCard } from './DataHealthThresholdsCard';
