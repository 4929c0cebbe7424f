import { describe, expect, it } from 'vitest';
import type { Bdn } from '@portal/contracts/carbon';
import { TEXT_MESSAGES } from '@portal/contracts/forms';
import {
  BDN_FORM_MESSAGES,
  bdnFormOf,
  checkBdnForm,
  checkSoundingForm,
  differenceText,
  emptyBdnForm,
  noonImportSummary,
  notePortText,
  numberOf,
  periodQuery,
  portLabel,
  reconciliationState,
  SOUNDING_FORM_MESSAGES,
  tonnesText,
  type BdnFormValues,
} from './rules';

const filled: BdnFormValues = {
  ...emptyBdnForm(new Date('2026-10-12T08:30:00.000Z')),
  portId: 'NLRTM',
  portName: 'Rotterdam',
  fuelType: 'HFO',
  massTonnes: '812.5',
  sulfurPercent: '2.7',
  lcvMjPerKg: '',
  densityKgM3: '985',
  bdnNumber: ' RTM-2026-0312 ',
};

describe('the bunker delivery note form', () => {
  it('sends what was typed as the API takes it: numbers, blanks as null, texts trimmed', () => {
    expect(checkBdnForm(filled)).toEqual({
      errors: {},
      body: {
        deliveredAt: '2026-10-12T08:30:00.000Z',
        portId: 'NLRTM',
        portName: 'Rotterdam',
        fuelType: 'HFO',
        massTonnes: 812.5,
        sulfurPercent: 2.7,
        lcvMjPerKg: null,
        densityKgM3: 985,
        bdnNumber: 'RTM-2026-0312',
      },
    });
  });

  it('names what is missing, and what is not a number', () => {
    const { errors, body } = checkBdnForm({ ...emptyBdnForm(), deliveredAt: null, lcvMjPerKg: 'forty' });
    expect(body).toBeNull();
    expect(errors).toEqual({
      deliveredAt: BDN_FORM_MESSAGES.deliveredAt,
      fuelType: BDN_FORM_MESSAGES.fuelType,
      massTonnes: BDN_FORM_MESSAGES.massRequired,
      sulfurPercent: BDN_FORM_MESSAGES.sulfurRequired,
      lcvMjPerKg: BDN_FORM_MESSAGES.number,
    });
  });

  it("gives the API's own messages for figures out of range", () => {
    const { errors } = checkBdnForm({
      ...filled,
      massTonnes: '0',
      sulfurPercent: '5.5',
      lcvMjPerKg: '140',
      densityKgM3: '-3',
    });
    expect(errors).toEqual({
      massTonnes: 'Mass must be above 0 t',
      sulfurPercent: 'Sulfur is at most 5 % m/m',
      lcvMjPerKg: 'LCV is at most 130 MJ/kg',
      densityKgM3: 'Density must be above 0 kg/m³',
    });
  });

  it('takes a comma as the decimal mark, and refuses a port or number that hides its direction', () => {
    expect(numberOf('2,7')).toBe(2.7);
    expect(numberOf(' ')).toBeNull();
    expect(numberOf('1e')).toBeNaN();
    const { errors } = checkBdnForm({ ...filled, portName: 'Rott\u202Eerdam', bdnNumber: 'A\u0000' });
    expect(errors).toEqual({ portName: TEXT_MESSAGES.bidi, bdnNumber: TEXT_MESSAGES.nul });
  });

  it('opens a stored note with its figures as text', () => {
    const note: Bdn = {
      id: 'n1',
      shipId: 's1',
      recordBookEntryId: 'e1',
      enteredBy: 'admin',
      enteredAt: '2026-10-12T09:00:00.000Z',
      deliveredAt: '2026-10-12T08:30:00.000Z',
      portId: null,
      portName: 'Off Skagen',
      fuelType: 'MDO_MGO',
      massTonnes: 120,
      sulfurPercent: 0.08,
      lcvMjPerKg: 42.7,
      densityKgM3: null,
      bdnNumber: null,
    };
    expect(bdnFormOf(note)).toMatchObject({
      portId: null,
      portName: 'Off Skagen',
      massTonnes: '120',
      sulfurPercent: '0.08',
      lcvMjPerKg: '42.7',
      densityKgM3: '',
      bdnNumber: '',
    });
    expect(checkBdnForm(bdnFormOf(note)).body).toMatchObject({ portName: 'Off Skagen', massTonnes: 120 });
    expect(notePortText(note)).toBe('Off Skagen');
    expect(notePortText({ portId: 'NLRTM', portName: 'Rotterdam' })).toBe('Rotterdam (NLRTM)');
    expect(notePortText({ portId: null, portName: null })).toBe('—');
    expect(portLabel({ name: 'Rotterdam', locode: 'NLRTM', country: 'NL' })).toBe('Rotterdam (NLRTM), NL');
  });
});

describe('the tank sounding form', () => {
  it('requires a time, a fuel and the fuel remaining on board, not negative', () => {
    expect(checkSoundingForm({ at: null, fuelType: '', robTonnes: '' }).errors).toEqual({
      at: SOUNDING_FORM_MESSAGES.at,
      fuelType: SOUNDING_FORM_MESSAGES.fuelType,
      robTonnes: SOUNDING_FORM_MESSAGES.robRequired,
    });
    expect(
      checkSoundingForm({ at: '2026-10-01T00:00:00.000Z', fuelType: 'HFO', robTonnes: '-1' }).errors,
    ).toEqual({ robTonnes: 'Remaining on board cannot be negative' });
    expect(checkSoundingForm({ at: '2026-10-01T00:00:00.000Z', fuelType: 'HFO', robTonnes: '0' })).toEqual({
      errors: {},
      body: { at: '2026-10-01T00:00:00.000Z', fuelType: 'HFO', robTonnes: 0 },
    });
  });
});

describe('the reconciliation as shown', () => {
  it('writes tonnes and differences with one decimal and their sign', () => {
    expect(tonnesText(1234.56)).toBe('1,234.6 t');
    expect(tonnesText(null)).toBe('—');
    expect(differenceText(12.345)).toBe('+12.3 %');
    expect(differenceText(-4)).toBe('−4.0 %');
    expect(differenceText(0.01)).toBe('0.0 %');
    expect(differenceText(null)).toBe('—');
  });

  it('flags above the threshold, says within it, or says which sounding is missing', () => {
    expect(reconciliationState({ flagged: true, missing: [], differencePercent: 5.2 }, 5)).toEqual({
      kind: 'flagged',
      text: 'Above 5 %',
    });
    // 5 % itself is not above 5 %.
    expect(reconciliationState({ flagged: false, missing: [], differencePercent: -5 }, 5)).toEqual({
      kind: 'within',
      text: 'Within 5 %',
    });
    expect(
      reconciliationState({ flagged: false, missing: ['robStart'], differencePercent: null }, 5).text,
    ).toBe('No sounding within 24 h of the start');
    expect(
      reconciliationState({ flagged: false, missing: ['robEnd'], differencePercent: null }, 5).text,
    ).toBe('No sounding within 24 h of the end');
    expect(
      reconciliationState({ flagged: false, missing: ['robStart', 'robEnd'], differencePercent: null }, 5)
        .text,
    ).toBe('No sounding within 24 h of the start and the end');
    expect(reconciliationState({ flagged: false, missing: [], differencePercent: null }, 5).text).toBe(
      'Nothing to compare with',
    );
  });

  it('asks for a period only when it ends on or after its start', () => {
    expect(periodQuery('2026-10-01', '2026-10-31')).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(periodQuery('2026-10-01', '2026-10-01')).not.toBeNull();
    expect(periodQuery('2026-10-02', '2026-10-01')).toBeNull();
    expect(periodQuery(null, '2026-10-01')).toBeNull();
  });
});

describe('the noon report import as shown', () => {
  it('says what was read, updated and left', () => {
    expect(noonImportSummary({ rows: 1, voyagesUpdated: 1, problems: [] })).toBe(
      '1 report read, 1 voyage updated.',
    );
    expect(
      noonImportSummary({
        rows: 12,
        voyagesUpdated: 3,
        problems: [{ line: 4, message: 'No voyage of the ship was under way at that time' }],
      }),
    ).toBe('12 reports read, 3 voyages updated, 1 line not used.');
  });
});
