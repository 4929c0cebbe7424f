import type { DataHealthPort } from '../executions/ports';
import { engineSeries, flagChannel } from './flags';
import { thresholdsOf } from './queries';

/**
 * Data health as the engine sees it (its port, features/executions/ports.ts): the organization's thresholds, read
 * with the plan, and the flags of the compliance channels that become sensor-fault events (issue 18), computed by
 * the same rules as the health view and the ship list's badge (flags.ts).
 */
export const dataHealthForEngine: DataHealthPort = {
  thresholdsOf,
  sensorFaults({ channels, engineLoad, fuelFlow, from, until }) {
    const engine = engineSeries(engineLoad, fuelFlow);
    return channels.flatMap(({ channel, series, threshold }) =>
      flagChannel(series, { threshold, engine, from, until }).map((f) => ({
        channel,
        kind: f.kind,
        from: f.from,
        to: f.to,
        value: f.value,
      })),
    );
  },
};
