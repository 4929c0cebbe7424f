import { describe, expect, it } from 'vitest';
import { FUEL_SULFUR_MESSAGES } from '../events';
import {
  EVENT_FORM_MESSAGES as M,
  acknowledgeBody,
  asksFuelSulfur,
  recordBookEntryBody,
  validateAcknowledge,
  validateRecordBookEntry,
  validateReportSent,
} from './event';

describe('acknowledge form', () => {
  it('asks for a cause and the actions taken; the comment may stay empty', () => {
    expect(validateAcknowledge({ cause: '', actionsTaken: '  ', comment: '' })).toEqual({
      cause: M.causeRequired,
      actionsTaken: M.actionsRequired,
    });
    const values = { cause: 'sensor', actionsTaken: ' SO2 analyser purged ', comment: '' };
    expect(validateAcknowledge(values)).toEqual({});
    expect(acknowledgeBody(values)).toEqual({
      cause: 'sensor',
      actionsTaken: 'SO2 analyser purged',
      comment: '',
    });
  });

  it('refuses a cause outside the fixed list', () => {
    expect(validateAcknowledge({ cause: 'weather', actionsTaken: 'x', comment: '' })).toEqual({
      cause: M.causeRequired,
    });
  });
});

describe('record book entry form', () => {
  const entry = {
    kind: 'calibration',
    occurredOn: '2025-05-07T10:00:00.000Z',
    text: 'Span gas calibration of the CEMS',
    latitude: '',
    longitude: '',
    correctsId: null,
    fuelSulfurPct: '',
    fuelType: '',
  };

  it('asks for the kind, the time and the text', () => {
    expect(validateRecordBookEntry({ ...entry, kind: '', occurredOn: null, text: ' ' })).toEqual({
      kind: M.kindRequired,
      occurredOn: M.timeRequired,
      text: M.textRequired,
    });
    expect(validateRecordBookEntry(entry)).toEqual({});
  });

  it('takes a position as both coordinates in range, or none', () => {
    expect(validateRecordBookEntry({ ...entry, latitude: '56.1' })).toEqual({ longitude: M.positionPair });
    expect(validateRecordBookEntry({ ...entry, latitude: '91', longitude: '3' })).toEqual({
      latitude: M.latitude,
    });
    expect(validateRecordBookEntry({ ...entry, latitude: '56.1', longitude: 'east' })).toEqual({
      longitude: M.longitude,
    });
    expect(recordBookEntryBody({ ...entry, latitude: '56.1', longitude: '-3' })).toMatchObject({
      latitude: 56.1,
      longitude: -3,
    });
  });

  it('asks a fuel change-over for the sulfur content of the fuel changed over to, and sends it', () => {
    const changeOver = { ...entry, kind: 'fuel-change-over', text: 'Changed over to MGO before the ECA' };
    expect(validateRecordBookEntry(changeOver)).toEqual({ fuelSulfurPct: FUEL_SULFUR_MESSAGES.required });
    expect(validateRecordBookEntry({ ...changeOver, fuelSulfurPct: '7' })).toEqual({
      fuelSulfurPct: FUEL_SULFUR_MESSAGES.range,
    });
    expect(validateRecordBookEntry({ ...changeOver, fuelSulfurPct: 'low' })).toEqual({
      fuelSulfurPct: FUEL_SULFUR_MESSAGES.range,
    });
    expect(validateRecordBookEntry({ ...changeOver, fuelSulfurPct: ' 0.08 ' })).toEqual({});
    expect(recordBookEntryBody({ ...changeOver, fuelSulfurPct: '0.08' })).toMatchObject({
      fuelSulfurPct: 0.08,
    });
    // Other kinds never send one; a correction may (the corrected figure), or not.
    expect(recordBookEntryBody({ ...entry, fuelSulfurPct: '0.08' }).fuelSulfurPct).toBeNull();
    expect(
      recordBookEntryBody({ ...entry, kind: 'correction', correctsId: 'x', fuelSulfurPct: '' }).fuelSulfurPct,
    ).toBeNull();
    expect(recordBookEntryBody({ ...changeOver, fuelSulfurPct: '0.08' }).fuelType).toBeNull();
    expect(recordBookEntryBody({ ...changeOver, fuelSulfurPct: '0.08', fuelType: 'MDO_MGO' })).toMatchObject({
      fuelType: 'MDO_MGO',
    });
    expect(recordBookEntryBody({ ...entry, fuelType: 'MDO_MGO' }).fuelType).toBeNull();
    expect(validateRecordBookEntry({ ...changeOver, fuelSulfurPct: '0.08', fuelType: 'KEROSENE' })).toEqual({
      fuelType: expect.any(String),
    });
    expect(asksFuelSulfur('fuel-change-over')).toBe(true);
    expect(asksFuelSulfur('correction', 'fuel-change-over')).toBe(true);
    expect(asksFuelSulfur('correction', 'note')).toBe(false);
    expect(asksFuelSulfur('bunkering')).toBe(false);
  });

  it('says what a correction needs', () => {
    expect(validateRecordBookEntry({ ...entry, kind: 'correction', text: '', correctsId: 'x' })).toEqual({
      text: M.correctionText,
    });
  });
});

describe('report sent form', () => {
  it('asks for a real day', () => {
    expect(validateReportSent(null)).toEqual({ sentOn: M.sentOnRequired });
    expect(validateReportSent('2025-02-30')).toEqual({ sentOn: M.invalidDate });
    expect(validateReportSent('2025-05-07')).toEqual({});
  });
});
