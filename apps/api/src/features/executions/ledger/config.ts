import type {
  ChannelRef,
  FlowFuelSource,
  LedgerChannelRow,
  LedgerConfig,
  LedgerConfigRows,
  LedgerFlow,
} from './types';

/** The measurement fields the ledger reads, by name. */
export const LEDGER_FIELDS = {
  latitude: 'LATITUDE',
  longitude: 'LONGITUDE',
  speed: 'SHIP_SPEED',
  fuelFlow: 'FUEL_FLOW',
  scrubberFuel: 'SCRUBBER_FUEL',
} as const;

const refOf = (c: LedgerChannelRow): ChannelRef => ({
  id: c.id,
  dataSourceId: c.data_source_id,
  source: c.source,
  name: c.name,
});

/** A flow's fuel type source from its channel's mapping. */
export function fuelSourceOf(
  c: LedgerChannelRow,
  byId: ReadonlyMap<string, LedgerChannelRow>,
): FlowFuelSource {
  const typeChannel = c.fuel_type_channel_id ? byId.get(c.fuel_type_channel_id) : undefined;
  return c.fuel_type_source === 'fixed' && c.fuel_type
    ? { kind: 'fixed', fuelType: c.fuel_type }
    : c.fuel_type_source === 'channel' && typeChannel
      ? { kind: 'channel', channel: refOf(typeChannel) }
      : c.fuel_type_source === 'change-overs'
        ? { kind: 'change-overs' }
        : { kind: 'unknown' };
}

/**
 * Sub-step "ledger configuration" (pure): the fields the ledger reads and its fuel flows. The flows are the ship's
 * fuel flow channels with their consumer and fuel type from the channel mapping, each read through its raw field
 * (an approved calculation reading that one channel) when there is one; a ship whose mapping names no consumer has
 * its FUEL_FLOW field as the main engines' fuel, of unknown type (the ledger does not guess a fuel type:
 * FUEL_SULFUR says nothing certain about it).
 */
export function ledgerConfigOf(rows: LedgerConfigRows): LedgerConfig {
  const idOf = new Map(rows.fields.map((f) => [f.name.toUpperCase(), f.id]));
  const calculated = new Set(rows.calculations.map((c) => c.measurement_field_id));
  const field = (name: string) => {
    const id = idOf.get(name);
    return id && calculated.has(id) ? id : undefined;
  };
  const primary = rows.primaryDataSourceId;
  const channelNamed = (name: string) =>
    rows.channels
      .filter((c) => c.name.toUpperCase() === name)
      .sort((a, b) => Number(b.data_source_id === primary) - Number(a.data_source_id === primary))[0];
  // A raw field: an approved calculation that reads that one channel (FUEL_FLOW's reads the FUEL_FLOW channel).
  const rawFieldOf = new Map<string, string>();
  for (const calc of rows.calculations) {
    const inputs = calc.input_ids ?? [];
    if (inputs.length === 1 && !rawFieldOf.has(inputs[0]!))
      rawFieldOf.set(inputs[0]!, calc.measurement_field_id);
  }
  const speedFieldId = field(LEDGER_FIELDS.speed);
  const speedChannel = channelNamed(LEDGER_FIELDS.speed);
  const fuelFlowFieldId = field(LEDGER_FIELDS.fuelFlow);
  const byId = new Map(rows.channels.map((c) => [c.id, c]));
  const mapped = rows.channels.filter((c) => c.consumer !== null);
  const flows: LedgerFlow[] = mapped.length
    ? mapped.map((c) => {
        const fieldId = rawFieldOf.get(c.id);
        return {
          id: c.id,
          name: c.name,
          consumer: c.consumer!,
          read:
            fieldId && calculated.has(fieldId)
              ? { kind: 'field', fieldId }
              : { kind: 'channel', channel: refOf(c) },
          fuel: fuelSourceOf(c, byId),
        };
      })
    : fuelFlowFieldId
      ? [
          {
            id: fuelFlowFieldId,
            name: LEDGER_FIELDS.fuelFlow,
            consumer: 'MAIN_ENGINE',
            read: { kind: 'field', fieldId: fuelFlowFieldId },
            fuel: { kind: 'unknown' },
          },
        ]
      : [];
  const config: LedgerConfig = {
    facilityId: rows.facilityId,
    organizationId: rows.organizationId,
    dataFrom: rows.dataFrom,
    dataTo: rows.dataTo,
    latitudeFieldId: field(LEDGER_FIELDS.latitude),
    longitudeFieldId: field(LEDGER_FIELDS.longitude),
    speed: speedFieldId
      ? { kind: 'field', fieldId: speedFieldId }
      : speedChannel
        ? { kind: 'channel', channel: refOf(speedChannel) }
        : null,
    flows,
    scrubberFuelFieldId: field(LEDGER_FIELDS.scrubberFuel),
    inputFieldIds: new Set(),
  };
  for (const id of [
    config.latitudeFieldId,
    config.longitudeFieldId,
    speedFieldId,
    config.scrubberFuelFieldId,
    ...flows.map((f) => (f.read.kind === 'field' ? f.read.fieldId : undefined)),
  ])
    if (id) config.inputFieldIds.add(id);
  return config;
}
