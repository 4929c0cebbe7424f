import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS, DEMO_SHIPS, generateShipDay, rawChannelNames } from '@portal/demo-fleet';
import { demoMinute, startDemoStream, type DemoStream } from '../src/demo';
import { toNumber } from '../src/sparkplug';
import { BROKER_URL, SimulatedClock, Subscriber, dataSamples, tempDir, uniqueGroup } from '../src/testing';

const MINUTE = 60_000;

let stream: DemoStream | null = null;
let subscriber: Subscriber | null = null;
afterEach(async () => {
  await stream?.stop();
  await subscriber?.stop();
  stream = null;
  subscriber = null;
});

describe('startDemoStream', () => {
  it("publishes a demo ship's current minute with the demo fleet's numbers, once a minute", async () => {
    const groupId = uniqueGroup();
    subscriber = await Subscriber.start(groupId);
    const ship = DEMO_SHIPS[1]!;
    const clock = new SimulatedClock(Date.UTC(2026, 10, 28, 10, 30, 12));
    const dataSourceId = randomUUID();
    stream = startDemoStream({
      mqttUrl: BROKER_URL,
      groupId,
      facilityId: randomUUID(),
      token: 'psdu_demo',
      dataSourceId,
      shipKey: ship.key,
      intervalMs: 20,
      stateDir: tempDir(),
      now: clock.now,
      log: () => {},
    });
    const minute = Date.UTC(2026, 10, 28, 10, 30);
    const expected = demoMinute(ship, generateShipDay(ship, new Date(minute)).samples, minute)!;
    expect(expected.length).toBeGreaterThan(10);
    await subscriber.until(() => dataSamples(subscriber!).length === expected.length);

    const birth = subscriber.of('DBIRTH')[0]!;
    const names = new Map(birth.payload.metrics!.map((m) => [toNumber(m.alias), m.name]));
    const raw = rawChannelNames(ship.logger.naming);
    expect(
      Object.fromEntries(birth.payload.metrics!.map((m) => [m.name, m.properties?.unit?.value ?? ''])),
    ).toEqual(Object.fromEntries(CHANNELS.map((c) => [raw[c.field], c.unit])));
    expect(
      dataSamples(subscriber).map((x) => ({ channel: names.get(x.alias), time: x.time, value: x.value })),
    ).toEqual(expected);

    // The next minute of the clock: its values, once, though the stream looks every 20 ms.
    clock.advance(MINUTE);
    await subscriber.until(() => new Set(dataSamples(subscriber!).map((x) => x.time)).size === 2);
    expect(stream.published).toEqual([minute, minute + MINUTE]);
  });
});
