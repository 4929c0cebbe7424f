import { formatDateTime } from '@portal/contracts/rules';
import type { Channel, ExecutionPlan } from './plan';
import type { PeriodSamples } from './read-samples';

/**
 * Sub-steps of "read samples" about its inputs: which mapped channels the recomputed calculations read, and whether
 * any of them holds a value (a run whose inputs are all missing fails instead of storing nulls).
 */

/** The mapped channels the recomputed measurement calculations read, each once (not the position, unless read). */
export function inputChannels(plan: ExecutionPlan): Channel[] {
  const channels = new Map<string, Channel>();
  for (const fieldId of plan.order)
    for (const calc of plan.measurementCalcsByField.get(fieldId) ?? [])
      for (const id of calc.inputIds) {
        const channel = plan.channelById.get(id);
        if (channel) channels.set(channel.id, channel);
      }
  return [...channels.values()];
}

/** How many values (not NaN, i.e. not missing) the channels hold in the samples read. */
export function countInputValues(
  channels: readonly Channel[],
  rawBySource: PeriodSamples['rawBySource'],
): number {
  let count = 0;
  for (const channel of channels) {
    const column = rawBySource.get(channel.data_source_id)?.columns[channel.source];
    if (!column) continue;
    for (let i = 0; i < column.length; i++) if (column[i] === column[i]) count++;
  }
  return count;
}

const MAX_NAMES = 6;

/**
 * "All inputs missing" (docs/decisions/0040-execution.md): the period has targets (timestamps of the primary data
 * source) and the recomputed calculations read mapped channels, but not one of those channels has a value in what
 * was read (typically a file whose columns match no mapped channel). Then the run would store nothing but nulls
 * and look done; it fails with this reason instead. Null when some input has a value (a few missing channels are
 * data health's business, not a failure), when nothing is computed at a timestamp, or when the calculations read
 * no channel at all.
 */
export function missingInputsReason(
  plan: ExecutionPlan,
  channels: readonly Channel[],
  samples: Pick<PeriodSamples, 'primaryTimestamps' | 'inputValues'>,
): string | null {
  if (samples.primaryTimestamps.length === 0 || channels.length === 0 || samples.inputValues > 0) return null;
  const names = [...new Set(channels.map((c) => c.name))].sort();
  const listed =
    names.length > MAX_NAMES
      ? `${names.slice(0, MAX_NAMES).join(', ')}, … (${names.length} in all)`
      : names.join(', ');
  const sources = [...new Set(channels.map((c) => c.data_source_id))].map(
    (id) => plan.dataSourceNames.get(id) ?? id,
  );
  const { from, to } = plan.request;
  return (
    `None of the mapped channels (${listed}) has a value between ${formatDateTime(from)} and ` +
    `${formatDateTime(to)} (UTC); check the channel mappings of ${sources.length > 1 ? 'data sources' : 'data source'} ` +
    `${sources.join(', ')}`
  );
}
