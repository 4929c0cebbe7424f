import { describe, expect, it } from 'vitest';
import type { FuelTypeSource } from '@portal/contracts/rules/carbon';
import { flowChannels } from './flows';
import type { FieldRead } from './readers';
import type { FlowFuelSource, LedgerFlow } from './types';

const f = (...v: number[]) => Float64Array.from(v);
const targets = f(100, 200, 300);
const read: FieldRead = (fieldId) =>
  Promise.resolve({ timestamps: f(100, 300), values: fieldId === 'scrubber' ? f(7, 8) : f(1, 3) });
const readRaw = () => Promise.resolve({ timestamps: f(100), column: f(9) });
const fuelType = (source: FlowFuelSource): Promise<FuelTypeSource> =>
  Promise.resolve(
    source.kind === 'fixed'
      ? { kind: 'fixed', fuelType: source.fuelType }
      : { kind: 'change-overs', changeOvers: [] },
  );
const flow = (id: string, consumer: LedgerFlow['consumer'], more: Partial<LedgerFlow> = {}): LedgerFlow => ({
  id,
  name: id,
  consumer,
  read: { kind: 'field', fieldId: id },
  fuel: { kind: 'unknown' },
  ...more,
});

describe('fuel flows on the targets', () => {
  it("takes each flow's field on the targets (NaN where none) or its raw channel held onto them", async () => {
    const { channels, scrubber } = await flowChannels(
      {
        flows: [
          flow('me', 'MAIN_ENGINE', { fuel: { kind: 'fixed', fuelType: 'HFO' } }),
          flow('ae', 'AUX_ENGINE', {
            read: { kind: 'channel', channel: { id: 'ae', dataSourceId: 'd', source: 'AE', name: 'AE' } },
          }),
        ],
        scrubberFuelFieldId: undefined,
      },
      { from: 0, to: 1_000 },
      targets,
      { read, readRaw, fuelType },
    );
    expect(channels.map((c) => [c.id, c.consumer, c.fuel.kind, Array.from(c.series.values)])).toEqual([
      ['me', 'MAIN_ENGINE', 'fixed', [1, NaN, 3]],
      ['ae', 'AUX_ENGINE', 'change-overs', [9, 9, 9]],
    ]);
    expect(scrubber).toBeNull();
  });

  it("gives the scrubber's fuel the generators' fuel type: the auxiliary engines', else the main engines'", async () => {
    const withMain = await flowChannels(
      {
        flows: [flow('me', 'MAIN_ENGINE', { fuel: { kind: 'fixed', fuelType: 'LNG' } })],
        scrubberFuelFieldId: 'scrubber',
      },
      { from: 0, to: 1_000 },
      targets,
      { read, readRaw, fuelType },
    );
    expect(withMain.scrubber).toMatchObject({
      id: 'scrubber',
      consumer: 'AUX_ENGINE',
      fuel: { fuelType: 'LNG' },
    });
    expect(Array.from(withMain.scrubber!.series.values)).toEqual([7, NaN, 8]);
    const withAux = await flowChannels(
      {
        flows: [
          flow('me', 'MAIN_ENGINE', { fuel: { kind: 'fixed', fuelType: 'LNG' } }),
          flow('ae', 'AUX_ENGINE', { fuel: { kind: 'fixed', fuelType: 'MDO_MGO' } }),
        ],
        scrubberFuelFieldId: 'scrubber',
      },
      { from: 0, to: 1_000 },
      targets,
      { read, readRaw, fuelType },
    );
    expect(withAux.scrubber!.fuel).toEqual({ kind: 'fixed', fuelType: 'MDO_MGO' });
  });
});
