import type { DataSourceChannel, RawChannel } from '@portal/contracts/datasources';

/**
 * The second line of a channel in the data source's tree: the raw channel's data type and unit, or what a channel
 * without a sample column is, then its mapping's ISO 19848 local id when it has one (the id its gateway streams
 * under, docs/decisions/0120-live-sparkplug-host.md).
 */
export function channelSecondaryText(
  raw: Pick<RawChannel, 'dataType' | 'unit'> | undefined,
  mapping: Pick<DataSourceChannel, 'isCustom' | 'localId'> | undefined,
): string {
  const kind = raw
    ? `${raw.dataType}${raw.unit ? `, ${raw.unit}` : ''}`
    : mapping?.isCustom
      ? 'Custom channel'
      : 'Not in the sample file';
  return mapping?.localId ? `${kind} · ${mapping.localId}` : kind;
}
