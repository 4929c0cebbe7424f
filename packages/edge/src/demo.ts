import os from 'node:os';
import path from 'node:path';
import {
  CHANNELS,
  DEMO_SHIPS,
  generateShipDay,
  rawChannelNames,
  type DaySamples,
  type DemoShip,
} from '@portal/demo-fleet';
import { EdgeNode, type EdgeLog } from './edge-node';

export interface DemoStreamOptions {
  mqttUrl: string;
  groupId?: string;
  /** The demo ship's facility id in the portal (the edge_node_id) and its upload token. */
  facilityId: string;
  token: string;
  /** The id of the ship's logger data source (the device_id). */
  dataSourceId: string;
  /** Which demo ship's numbers (DemoShip.key; default the first demo ship). */
  shipKey?: string;
  /** How often the current minute is looked at (default 5 s); each minute's values go out once. */
  intervalMs?: number;
  /** Where the edge node keeps its state (default a folder per ship in the system's temporary folder). */
  stateDir?: string;
  now?: () => number;
  log?: EdgeLog;
}

export interface DemoStream {
  node: EdgeNode;
  /** Source times (ms) of the minutes published so far. */
  published: number[];
  stop(): Promise<void>;
}

const MINUTE_MS = 60_000;

/** One minute of the demo ship's logger, under the logger's channel names: the demo fleet's numbers for that minute. */
export function demoMinute(ship: DemoShip, day: DaySamples, minuteMs: number) {
  const row = day.timestamps.indexOf(minuteMs);
  if (row < 0) return null;
  const names = rawChannelNames(ship.logger.naming);
  return CHANNELS.flatMap((c) => {
    const value = day.channels[c.field]?.[row];
    return value === undefined || Number.isNaN(value)
      ? []
      : [{ channel: names[c.field], time: minuteMs, value }];
  });
}

/**
 * One demo ship streaming live through an edge node: every `intervalMs` the current minute of the demo fleet's
 * generator (packages/demo-fleet, the same numbers as the demo's logger files) is published once, as the ship's
 * logger would. For `npm start` with the embedded broker; stop() sends the NDEATH and disconnects.
 */
export function startDemoStream(options: DemoStreamOptions): DemoStream {
  const ship = DEMO_SHIPS.find((s) => s.key === options.shipKey) ?? DEMO_SHIPS[0]!;
  const now = options.now ?? Date.now;
  const names = rawChannelNames(ship.logger.naming);
  const node = new EdgeNode({
    mqttUrl: options.mqttUrl,
    ...(options.groupId ? { groupId: options.groupId } : {}),
    facilityId: options.facilityId,
    token: options.token,
    stateDir: options.stateDir ?? path.join(os.tmpdir(), `psdu-demo-stream-${options.facilityId}`),
    dataSources: [
      {
        id: options.dataSourceId,
        channels: CHANNELS.map((c) => ({ name: names[c.field], unit: c.unit })),
      },
    ],
    // A demo has no use for a day of backlog.
    bufferMaxBytes: 4 * 1024 * 1024,
    now,
    ...(options.log ? { log: options.log } : {}),
  });
  const published: number[] = [];
  let day: { start: number; samples: DaySamples } | null = null;
  const tick = () => {
    const minute = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
    if (published.at(-1) === minute) return;
    const dayStart = Math.floor(minute / 86_400_000) * 86_400_000;
    if (day?.start !== dayStart)
      day = { start: dayStart, samples: generateShipDay(ship, new Date(dayStart)).samples };
    const samples = demoMinute(ship, day.samples, minute) ?? [];
    node.publish(samples.map((s) => ({ ...s, dataSourceId: options.dataSourceId })));
    published.push(minute);
  };
  node.start();
  tick();
  const timer = setInterval(tick, options.intervalMs ?? 5000);
  timer.unref();
  return {
    node,
    published,
    async stop() {
      clearInterval(timer);
      await node.stop();
    },
  };
}
