// The data health feature's public entry: the ship list shows each ship's badge.
export { HealthBadge } from './HealthBadge';
export { useDataHealthSummaries } from './data-health-api';
