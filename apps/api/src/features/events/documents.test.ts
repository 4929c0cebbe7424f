import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES, type ComplianceEvent } from '@portal/contracts/events';
import { hasPoppler, pdfText } from '../../pdf/testing';
import { eventReportPdf } from './documents';

const event: ComplianceEvent = {
  id: 'e1',
  facilityId: 'f1',
  facilityName: 'Αθηνά',
  type: 'emission-exceedance',
  start: '2026-10-01T08:00:00.000Z',
  end: '2026-10-01T09:00:00.000Z',
  ongoing: false,
  durationMinutes: 60,
  worstValue: 5.2,
  limit: 4.3,
  startPosition: null,
  endPosition: null,
  classification: 'malfunction',
  reportRequired: true,
  channel: null,
  fault: null,
  state: 'acknowledged',
  acknowledgedOn: null,
  acknowledgedBy: null,
  cause: null,
  actionsTaken: null,
  comment: null,
  closedOn: null,
  closedBy: null,
  reportSentOn: null,
  rules: DEFAULT_EVENT_RULES,
};

describe('the flag and port State report PDF', () => {
  it.skipIf(!hasPoppler)(
    'keeps names in Polish, Turkish, Greek, Cyrillic and Chinese as written',
    async () => {
      const names = ['Łukasz Wójcik', 'Şebnem Çağlar', 'Πειραιάς', 'Новороссийск', '宁波舟山港'];
      const pdf = await eventReportPdf(
        event,
        {
          shipName: 'M/V Αθηνά Ξ',
          imo: '9876543',
          position: '36°56′N 023°37′E',
          start: '2026-10-01 08:00',
          duration: '1 h',
          egcs: 'Open-loop scrubber',
          instrument: 'SO2/CO2 ratio 5.2 (limit 4.3)',
          cause: names.join(', '),
          actionsTaken: 'Новороссийск: 检查 🚢',
          actionsPlanned: '',
          expectedRepair: '',
        },
        { number: 1, reason: null, sentOn: null },
      );
      const text = pdfText(pdf);
      for (const name of [...names, 'M/V Αθηνά Ξ', 'Новороссийск: 检查']) expect(text).toContain(name);
    },
  );
});
