import { SENSOR_FAULT_CHANNELS } from '@portal/contracts/events';
import type { FieldSeries } from '../../../storage';
import type { ExecutionPlan } from '../plan';
import type { DataHealthPort, FaultChannel } from '../ports';
import type { ChannelFault } from './sensor-faults';

/**
 * Sub-step "flag the compliance channels": data health's flags (through its port) on the compliance channels the
 * ship computes, with the engine load and fuel flow (none of them: the scrubber) as the health view reads them;
 * stale up to the last target.
 */
export async function flaggedChannels(
  plan: Pick<ExecutionPlan, 'measurementCalcsByField' | 'events'>,
  idOf: ReadonlyMap<string, string>,
  read: (fieldId: string | undefined) => Promise<FieldSeries>,
  targets: Float64Array,
  dataHealth: Pick<DataHealthPort, 'sensorFaults'>,
): Promise<ChannelFault[]> {
  const present = async (name: string) => {
    const series = await read(idOf.get(name));
    return series.timestamps.length ? series : null;
  };
  const engineLoad = await present('ENGINE_LOAD');
  const fuelFlow = await present('FUEL_FLOW');
  const channels: FaultChannel[] = [];
  for (const channel of SENSOR_FAULT_CHANNELS) {
    const fieldId = idOf.get(channel);
    if (!fieldId || !plan.measurementCalcsByField.has(fieldId)) continue;
    channels.push({ channel, series: await read(fieldId), threshold: plan.events.thresholdOf(channel) });
  }
  return dataHealth.sensorFaults({
    channels,
    engineLoad,
    fuelFlow,
    from: targets[0],
    until: targets.length ? targets[targets.length - 1] : undefined,
  });
}
