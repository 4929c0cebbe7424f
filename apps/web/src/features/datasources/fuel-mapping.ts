import type { DataSourceChannel } from '@portal/contracts/datasources';
import {
  fuelChannelProblems,
  isFuelFlowChannel,
  NO_FUEL_ATTRIBUTES,
  type ChannelConsumer,
  type ChannelFuelType,
  type ChannelLngEngine,
  type FuelChannelAttributes,
  type FuelTypeSource,
} from '@portal/contracts/fuel-channels';

/**
 * The mapping panel's fuel fields (the carbon ledger's inputs, packages/contracts/src/fuel-channels.ts): a fuel flow
 * channel's consumer, where its fuel type comes from, and an LNG consumer's engine kind. Pure rules over the form and
 * the ship's other channels; the API checks the same (`fuelChannelProblems`) and its messages are the same.
 */

export interface FuelForm {
  consumer: ChannelConsumer | '';
  fuelTypeSource: FuelTypeSource | '';
  fuelType: ChannelFuelType | '';
  fuelTypeChannelId: string;
  lngEngine: ChannelLngEngine | '';
}
export type FuelField = keyof FuelForm;

export const fuelFormOf = (mapping: Partial<FuelChannelAttributes> | undefined): FuelForm => ({
  consumer: mapping?.consumer ?? '',
  fuelTypeSource: mapping?.fuelTypeSource ?? '',
  fuelType: mapping?.fuelType ?? '',
  fuelTypeChannelId: mapping?.fuelTypeChannelId ?? '',
  lngEngine: mapping?.lngEngine ?? '',
});

/**
 * The attributes the form sends: none without a consumer (a channel that feeds nothing has no fuel type), and of the
 * rest only what its fuel type source uses, so that a change of source does not leave the other's choice behind.
 */
export function fuelAttributesOf(form: FuelForm): FuelChannelAttributes {
  if (!form.consumer) return NO_FUEL_ATTRIBUTES;
  const source = form.fuelTypeSource || null;
  return {
    consumer: form.consumer,
    fuelTypeSource: source,
    fuelType: source === 'fixed' ? form.fuelType || null : null,
    fuelTypeChannelId: source === 'channel' ? form.fuelTypeChannelId || null : null,
    lngEngine: showsLngEngine(form) ? form.lngEngine || null : null,
  };
}

/** The fuel fields show for a number channel in kg/h, and for a channel that has a consumer already (to clear it). */
export const showsFuelFields = (
  channel: { unit: string | null | undefined; dataType: string },
  form: Pick<FuelForm, 'consumer'>,
) => isFuelFlowChannel(channel) || form.consumer !== '';

/** The LNG engine kind matters when the consumer may burn LNG: a fixed LNG, or a fuel type that changes. */
export const showsLngEngine = (form: Pick<FuelForm, 'consumer' | 'fuelTypeSource' | 'fuelType'>) =>
  form.consumer !== '' &&
  (form.fuelTypeSource === 'channel' ||
    form.fuelTypeSource === 'change-overs' ||
    (form.fuelTypeSource === 'fixed' && form.fuelType === 'LNG'));

/** The channels that may log this one's fuel type: the ship's other number channels that are no fuel flow. */
export function fuelTypeChannelChoices(
  channels: readonly DataSourceChannel[],
  self: string | undefined,
): DataSourceChannel[] {
  return channels
    .filter(
      (c) => c.id !== self && c.consumer === null && (c.dataType === 'Integer' || c.dataType === 'Double'),
    )
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
}

/**
 * What the API would refuse in the fuel fields of this mapping, by field, against the ship's channels as they are
 * (the rule the API runs: FUEL_CHANNEL_MESSAGES); empty when nothing.
 */
export function fuelFieldErrors(
  channel: { id?: string; name: string; unit: string; dataType: string },
  form: FuelForm,
  shipChannels: readonly DataSourceChannel[],
): Partial<Record<FuelField, string>> {
  const others = shipChannels
    .filter((c) => c.id !== channel.id)
    .map((c) => ({
      key: c.id,
      id: c.id,
      name: c.name,
      unit: c.unit,
      dataType: c.dataType,
      editable: false,
      consumer: c.consumer,
      fuelTypeSource: c.fuelTypeSource,
      fuelType: c.fuelType,
      fuelTypeChannelId: c.fuelTypeChannelId,
      lngEngine: c.lngEngine,
    }));
  const problems = fuelChannelProblems([
    ...others,
    {
      key: 'this',
      ...(channel.id ? { id: channel.id } : {}),
      name: channel.name,
      unit: channel.unit.trim() || null,
      dataType: channel.dataType,
      editable: true,
      ...fuelAttributesOf(form),
    },
  ]);
  const errors: Partial<Record<FuelField, string>> = {};
  for (const p of problems) {
    if (p.key !== 'this') continue;
    const field: FuelField =
      p.field === 'unit' || p.field === 'dataType' || p.field === 'id' ? 'consumer' : p.field;
    errors[field] ??= p.message;
  }
  return errors;
}
