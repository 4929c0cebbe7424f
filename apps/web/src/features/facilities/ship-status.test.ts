import { describe, expect, it } from 'vitest';
import { coverageText, shipStatus } from './ship-status';

describe('shipStatus', () => {
  const ship = { id: 'a', dataTimeStampMax: '2025-03-01T00:00:00Z' };
  it('shows Processing with the earliest start time of the running executions of that ship', () => {
    const running = [
      { facilityId: 'b', startedOn: '2025-01-01T01:00:00Z' },
      { facilityId: 'a', startedOn: '2025-02-01T10:15:00Z' },
      { facilityId: 'a', startedOn: '2025-02-01T09:05:30Z' },
    ];
    expect(shipStatus(ship, running)).toEqual({
      kind: 'processing',
      label: 'Processing',
      since: '2025.02.01 09:05',
    });
  });
  it('is Ready with data and No data without, when nothing runs', () => {
    expect(shipStatus(ship, [{ facilityId: 'b', startedOn: '2025-01-01T00:00:00Z' }])).toEqual({
      kind: 'ready',
      label: 'Ready',
    });
    expect(shipStatus({ id: 'a', dataTimeStampMax: null }, [])).toEqual({
      kind: 'no-data',
      label: 'No data',
    });
  });
});

describe('shipStatus of a failed execution', () => {
  const ship = { id: 'a', dataTimeStampMax: '2025-03-01T00:00:00Z' };
  const failed = [
    {
      facilityId: 'a',
      startedOn: '2025-02-01T06:00:01Z',
      finishedOn: '2025-02-01T06:00:30Z',
      error: 'Division by zero in SO2/CO2 ratio',
    },
  ];
  it('shows Failed with its time and error instead of Ready', () => {
    expect(shipStatus(ship, [], failed)).toEqual({
      kind: 'failed',
      label: 'Failed',
      at: '2025.02.01 06:00',
      error: 'Division by zero in SO2/CO2 ratio',
    });
  });
  it('shows Processing while a new run is on its way', () => {
    expect(shipStatus(ship, [{ facilityId: 'a', startedOn: '2025-02-02T00:00:00Z' }], failed).kind).toBe(
      'processing',
    );
  });
});

describe('coverageText', () => {
  it('shows one decimal and a percent sign, or No data', () => {
    expect(coverageText(96.94)).toBe('96.9 %');
    expect(coverageText(100)).toBe('100.0 %');
    expect(coverageText(0)).toBe('0.0 %');
    expect(coverageText(null)).toBe('No data');
  });
});
