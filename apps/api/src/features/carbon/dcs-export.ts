import ExcelJS from 'exceljs';
import { CONSUMER_NAMES, DCS_METHOD_NAMES, FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import type { DcsReportRecord } from '@portal/contracts/carbon';

/**
 * The IMO DCS report as flag States' templates lay it out (docs/decisions/0111-carbon-ledger-engine.md): the items of
 * MARPOL Annex VI Appendix IX in its order, one a row (item number, item, value, unit), the reporting period as two
 * dates (dd/mm/yyyy), each fuel a row of its own, then the items MEPC.385(81) adds from 2026 (fuel per consumer type
 * and fuel type, not under way, onshore power, laden distance, transport work). Numbers are numbers and dates are
 * dates in the .xlsx; what the data does not allow is left empty and named on a second sheet. The CSV has the same
 * rows, dates as YYYY-MM-DD.
 */

type Value = number | string | Date | null;
interface Row {
  number: string;
  item: string;
  value: Value;
  unit: string;
}

const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);

export function dcsRows(report: DcsReportRecord): Row[] {
  const rows: Row[] = [
    { number: '1', item: 'IMO number', value: report.imoNumber, unit: '' },
    {
      number: '2.1',
      item: 'Period of calendar year for the data submitted: start date',
      value: dateOf(report.periodStart),
      unit: 'dd/mm/yyyy',
    },
    {
      number: '2.2',
      item: 'Period of calendar year for the data submitted: end date',
      value: dateOf(report.periodEnd),
      unit: 'dd/mm/yyyy',
    },
    { number: '3', item: 'Ship type', value: report.shipType, unit: '' },
    { number: '4', item: 'Gross tonnage (GT)', value: report.grossTonnage, unit: '' },
    { number: '5', item: 'Net tonnage (NT)', value: report.netTonnage, unit: '' },
    { number: '6', item: 'Deadweight tonnage (DWT)', value: report.deadweight, unit: 't' },
    {
      number: '7.1',
      item: 'Power output (rated power) of main engines',
      value: report.mainEnginePowerKw,
      unit: 'kW',
    },
    {
      number: '7.2',
      item: 'Power output (rated power) of auxiliary engines',
      value: report.auxiliaryEnginePowerKw,
      unit: 'kW',
    },
    { number: '8', item: 'Attained EEDI/EEXI', value: report.eedi, unit: 'g CO2/t·nm' },
    { number: '9', item: 'Ice class', value: report.iceClass, unit: '' },
  ];
  report.fuel.forEach((f, i) =>
    rows.push({
      number: `10.${i + 1}`,
      item: `Fuel oil consumption: ${FUEL_TYPE_NAMES[f.fuelType]}`,
      value: f.tonnes,
      unit: 't',
    }),
  );
  rows.push(
    {
      number: '10.m',
      item: 'Method used to collect fuel oil consumption data',
      value: DCS_METHOD_NAMES[report.method],
      unit: '',
    },
    { number: '11', item: 'Distance travelled (over ground)', value: report.distanceNm, unit: 'nm' },
    { number: '12', item: 'Hours under way', value: report.hoursUnderWay, unit: 'h' },
  );
  report.fuelByConsumer.forEach((f, i) =>
    rows.push({
      number: `13.${i + 1}`,
      item: `Fuel oil consumption per consumer type: ${CONSUMER_NAMES[f.consumer]}, ${FUEL_TYPE_NAMES[f.fuelType]}`,
      value: f.tonnes,
      unit: 't',
    }),
  );
  report.fuelNotUnderWay.forEach((f, i) =>
    rows.push({
      number: `14.${i + 1}`,
      item: `Fuel oil consumption not under way: ${CONSUMER_NAMES[f.consumer]}, ${FUEL_TYPE_NAMES[f.fuelType]}`,
      value: f.tonnes,
      unit: 't',
    }),
  );
  rows.push(
    { number: '15', item: 'Onshore power supplied', value: report.shorePowerKwh, unit: 'kWh' },
    { number: '16', item: 'Laden distance travelled', value: report.ladenDistanceNm, unit: 'nm' },
    { number: '17.1', item: 'Transport work', value: report.transportWorkTonneMiles, unit: 't·nm' },
    {
      number: '17.2',
      item: 'Transport work (container ships)',
      value: report.transportWorkTeuMiles,
      unit: 'TEU·nm',
    },
  );
  return rows;
}

export async function dcsWorkbook(report: DcsReportRecord, shipName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('IMO DCS');
  sheet.columns = [{ width: 8 }, { width: 78 }, { width: 22 }, { width: 12 }];
  sheet.addRow([
    `IMO DCS data of ${shipName}, calendar year ${report.year} (MARPOL Annex VI, Appendix IX)`,
  ]).font = {
    bold: true,
  };
  sheet.addRow([]);
  const header = sheet.addRow(['No.', 'Item', 'Value', 'Unit']);
  header.font = { bold: true };
  for (const r of dcsRows(report)) {
    const row = sheet.addRow([r.number, r.item, r.value, r.unit]);
    const cell = row.getCell(3);
    if (r.value instanceof Date) cell.numFmt = 'dd/mm/yyyy';
    else if (typeof r.value === 'number') cell.numFmt = '#,##0.000';
  }
  const missing = workbook.addWorksheet('Not in the data');
  missing.columns = [{ width: 50 }, { width: 100 }];
  missing.addRow(['Item', 'Why it is not filled']).font = { bold: true };
  for (const m of report.missing) missing.addRow([m.item, m.reason]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvCell = (value: Value) => {
  const text = value === null ? '' : value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function dcsCsv(report: DcsReportRecord): string {
  const lines = [['No.', 'Item', 'Value', 'Unit'].join(',')];
  for (const r of dcsRows(report)) lines.push([r.number, r.item, r.value, r.unit].map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
