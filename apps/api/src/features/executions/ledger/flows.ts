import type { FlowChannel, FuelTypeSource } from '@portal/contracts/rules/carbon';
import { channelOnTargets, onTargets, type RawRead } from './on-targets';
import type { FieldRead } from './readers';
import type { FlowFuelSource, LedgerConfig, LedgerFlow } from './types';
import type { LedgerWindow } from './window';

/**
 * Sub-step "fuel flows": the ship's fuel flows over the window on the positions' `targets` (a field's values at
 * them, a raw channel held onto them), each with its fuel type source; and the scrubber's fuel (SCRUBBER_FUEL),
 * whose power comes from the generators: its fuel type is the auxiliary engines' (else the main engines').
 */
export async function flowChannels(
  config: Pick<LedgerConfig, 'flows' | 'scrubberFuelFieldId'>,
  window: LedgerWindow,
  targets: Float64Array,
  io: { read: FieldRead; readRaw: RawRead; fuelType: (source: FlowFuelSource) => Promise<FuelTypeSource> },
): Promise<{ channels: FlowChannel[]; scrubber: FlowChannel | null }> {
  const { from, to } = window;
  const flowSeries = async (flow: LedgerFlow): Promise<Float64Array> =>
    flow.read.kind === 'field'
      ? onTargets(targets, await io.read(flow.read.fieldId, from, to))
      : channelOnTargets(io.readRaw, flow.read.channel, targets);
  const channels = await Promise.all(
    config.flows.map(
      async (flow) =>
        ({
          id: flow.id,
          consumer: flow.consumer,
          fuel: await io.fuelType(flow.fuel),
          series: { timestamps: targets, values: await flowSeries(flow) },
        }) satisfies FlowChannel,
    ),
  );
  const generators =
    config.flows.find((f) => f.consumer === 'AUX_ENGINE') ??
    config.flows.find((f) => f.consumer === 'MAIN_ENGINE');
  const scrubber = config.scrubberFuelFieldId
    ? ({
        id: config.scrubberFuelFieldId,
        consumer: 'AUX_ENGINE',
        fuel: await io.fuelType(generators?.fuel ?? { kind: 'unknown' }),
        series: {
          timestamps: targets,
          values: onTargets(targets, await io.read(config.scrubberFuelFieldId, from, to)),
        },
      } satisfies FlowChannel)
    : null;
  return { channels, scrubber };
}
