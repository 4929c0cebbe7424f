import ExcelJS from 'exceljs';
import { EU_MRV_FUEL_TABLE, FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import type { EuCompanyYear, EuGasesView, EuShipYear } from '@portal/contracts/eu-ets';

/**
 * The EU MRV emissions report and the company-level report as .xlsx and CSV, laid out as THETIS-MRV's emissions
 * report (docs/decisions/0112-eu-ets.md). What was followed: the sections of the emissions report template of
 * Implementing Regulation (EU) 2023/2449 Annex II as the Norwegian Environment Agency's guide lists them (the ship
 * and company; the monitoring method; the results of the annual monitoring of Regulation 2015/757 Article 11(2):
 * (a) the amount and emission factor of each fuel, (b) the total emissions in the MRV's scope, (c) of voyages
 * between ports under a Member State's jurisdiction, (d) of voyages departing from them, (e) of voyages arriving at
 * them, (f) within those ports at berth, (g) the distance, (h) the time at sea), each emission per gas (CO2, CH4,
 * N2O) and as CO2e since the amendment by Regulation (EU) 2023/957; then the EU ETS part (the in-scope emissions of
 * Directive 2003/87/EC Art. 3ga, the phase-in and the allowances due). The template file itself (THETIS-MRV's .xlsx)
 * could not be read here: the row order and wording are ours, the items are the Article's. A second sheet lists the
 * voyages and stays (the per-voyage data of Article 9). Numbers are numbers and dates are dates in the .xlsx; the
 * CSV has the same rows, dates as YYYY-MM-DD.
 */

type Value = number | string | Date | null;
interface Row {
  section: string;
  item: string;
  value: Value;
  unit: string;
}

const dateOf = (day: string | null) => (day ? new Date(`${day}T00:00:00Z`) : null);

const GAS_ROWS = (section: string, what: string, gases: EuGasesView): Row[] => [
  { section, item: `${what}: CO2`, value: gases.co2, unit: 't CO2' },
  { section, item: `${what}: CH4`, value: gases.ch4, unit: 't CH4' },
  { section, item: `${what}: N2O`, value: gases.n2o, unit: 't N2O' },
  { section, item: `${what}: CO2 equivalent`, value: gases.co2e, unit: 't CO2e' },
];

function header(report: EuShipYear | EuCompanyYear): Row[] {
  return [
    {
      section: 'A',
      item: 'Reporting period: start date',
      value: dateOf(report.periodStart),
      unit: 'dd/mm/yyyy',
    },
    { section: 'A', item: 'Reporting period: end date', value: dateOf(report.periodEnd), unit: 'dd/mm/yyyy' },
  ];
}

function etsRows(report: EuShipYear | EuCompanyYear): Row[] {
  const f = report.figures;
  return [
    ...GAS_ROWS('D', 'Emissions in the scope of the EU ETS (100 % / 50 %)', f.inScope),
    ...GAS_ROWS('D', 'Of them, outermost regions to their Member State (no surrender to 2030)', f.derogated),
    ...GAS_ROWS('D', 'Voyages whose other port is not known yet (not counted)', f.undetermined),
    {
      section: 'D',
      item: `Emissions allowances are due for (${report.year >= 2026 ? 'CO2 equivalent' : 'CO2'})`,
      value: f.surrenderBasisTonnes,
      unit: 't',
    },
    { section: 'D', item: 'Phase-in of the year', value: f.phaseIn * 100, unit: '%' },
    { section: 'D', item: 'Allowances due', value: f.allowancesDue, unit: 'EUA' },
    {
      section: 'D',
      item: 'Allowances due, projected to the year end',
      value: f.projectedAllowancesDue,
      unit: 'EUA',
    },
    {
      section: 'D',
      item: report.price
        ? `Allowance price entered for ${report.price.on}`
        : `Allowance price (none entered on or before ${report.priceDay})`,
      value: report.price?.eurPerAllowance ?? null,
      unit: '€/EUA',
    },
    { section: 'D', item: 'Cost of the allowances due', value: f.eur, unit: '€' },
    { section: 'D', item: 'Surrender by', value: dateOf(report.surrenderDeadline), unit: 'dd/mm/yyyy' },
    {
      section: 'D',
      item: 'Verified emissions report by',
      value: dateOf(report.emissionsReportDeadline),
      unit: 'dd/mm/yyyy',
    },
  ];
}

export function shipReportRows(report: EuShipYear): Row[] {
  const f = report.figures;
  const rows: Row[] = [
    { section: 'A', item: 'Name of the ship', value: report.shipName, unit: '' },
    { section: 'A', item: 'IMO number', value: report.imoNumber, unit: '' },
    ...header(report),
    {
      section: 'B',
      item: 'Monitoring method',
      value: 'Method C: flow meters for the applicable combustion processes',
      unit: '',
    },
  ];
  for (const fuel of report.fuel) {
    const factors = EU_MRV_FUEL_TABLE.fuels[fuel.fuelType];
    rows.push(
      {
        section: 'C(a)',
        item: `Fuel consumed: ${FUEL_TYPE_NAMES[fuel.fuelType]}`,
        value: fuel.tonnes,
        unit: 't',
      },
      {
        section: 'C(a)',
        item: `Emission factors of ${FUEL_TYPE_NAMES[fuel.fuelType]} (CO2 / CH4 / N2O)`,
        value: `${factors.cfCo2} / ${factors.cfCh4} / ${factors.cfN2o}`,
        unit: 't/t fuel',
      },
    );
  }
  rows.push(
    ...GAS_ROWS('C(b)', 'Total emissions in the scope of the MRV', f.mrvTotal),
    ...GAS_ROWS('C(c)', 'Voyages between ports under a Member State’s jurisdiction', f.byScope.INTRA_EEA),
    ...GAS_ROWS(
      'C(d)',
      'Voyages departed from ports under a Member State’s jurisdiction',
      f.byScope.FROM_EEA,
    ),
    ...GAS_ROWS('C(e)', 'Voyages to ports under a Member State’s jurisdiction', f.byScope.TO_EEA),
    ...GAS_ROWS('C(f)', 'Within ports under a Member State’s jurisdiction at berth', f.byScope.AT_BERTH_EEA),
    { section: 'C(g)', item: 'Total distance travelled', value: report.distanceNm, unit: 'nm' },
    { section: 'C(h)', item: 'Total time spent at sea', value: report.hoursAtSea, unit: 'h' },
    ...etsRows(report),
  );
  return rows;
}

export function companyReportRows(report: EuCompanyYear): Row[] {
  const rows: Row[] = [
    { section: 'A', item: 'Company', value: report.organizationName, unit: '' },
    ...header(report),
    { section: 'A', item: 'Ships', value: report.ships.length, unit: '' },
    ...GAS_ROWS('C(b)', 'Total emissions in the scope of the MRV', report.figures.mrvTotal),
    ...etsRows(report),
  ];
  return rows;
}

const SHIP_COLUMNS = [
  'Ship',
  'IMO number',
  'Period start',
  'Period end',
  'MRV CO2 (t)',
  'MRV CH4 (t)',
  'MRV N2O (t)',
  'MRV CO2e (t)',
  'ETS in scope CO2 (t)',
  'ETS in scope CO2e (t)',
  'Allowances due (EUA)',
  'Projected to year end (EUA)',
  'Cost (€)',
];

function shipColumns(report: EuCompanyYear): Value[][] {
  return report.ships.map((s) => [
    s.shipName,
    s.imoNumber,
    dateOf(s.periodStart),
    dateOf(s.periodEnd),
    s.figures.mrvTotal.co2,
    s.figures.mrvTotal.ch4,
    s.figures.mrvTotal.n2o,
    s.figures.mrvTotal.co2e,
    s.figures.inScope.co2,
    s.figures.inScope.co2e,
    s.figures.allowancesDue,
    s.figures.projectedAllowancesDue,
    s.figures.eur,
  ]);
}

const SCOPE_NAMES: Record<EuShipYear['lines'][number]['scope'], string> = {
  INTRA_EEA: 'Between EU/EEA ports',
  FROM_EEA: 'From an EU/EEA port',
  TO_EEA: 'To an EU/EEA port',
  AT_BERTH_EEA: 'At berth in an EU/EEA port',
  OUTSIDE: 'Outside the EU/EEA',
  UNDETERMINED: 'A port not known yet',
};

const LINE_COLUMNS = [
  'Kind',
  'Port of departure (or berth)',
  'Port of arrival',
  'Start',
  'End',
  'Distance (nm)',
  'Hours in the year',
  'CO2 (t)',
  'CH4 (t)',
  'N2O (t)',
  'CO2e (t)',
  'Scope',
  'ETS share (%)',
  'In scope CO2e (t)',
];

function lineColumns(report: EuShipYear): Value[][] {
  return report.lines.map((l) => [
    l.kind === 'voyage' ? 'Voyage' : 'At berth',
    l.from ? `${l.from.portName} (${l.from.portId})` : null,
    l.kind === 'voyage' && l.to ? `${l.to.portName} (${l.to.portId})` : null,
    new Date(l.start),
    new Date(l.end),
    l.distanceNm,
    l.hours,
    l.gases.co2,
    l.gases.ch4,
    l.gases.n2o,
    l.gases.co2e,
    SCOPE_NAMES[l.scope] + (l.outermostDerogation ? ' (outermost region, no surrender to 2030)' : ''),
    l.share === null ? null : l.share * 100,
    l.inScope.co2e,
  ]);
}

function addRows(sheet: ExcelJS.Worksheet, rows: readonly Row[]) {
  sheet.addRow(['Part', 'Item', 'Value', 'Unit']).font = { bold: true };
  for (const r of rows) {
    const row = sheet.addRow([r.section, r.item, r.value, r.unit]);
    const cell = row.getCell(3);
    if (r.value instanceof Date) cell.numFmt = 'dd/mm/yyyy';
    else if (typeof r.value === 'number') cell.numFmt = '#,##0.000';
  }
}

function addTable(sheet: ExcelJS.Worksheet, columns: readonly string[], rows: readonly Value[][]) {
  sheet.addRow([...columns]).font = { bold: true };
  for (const values of rows) {
    const row = sheet.addRow([...values]);
    values.forEach((v, i) => {
      if (v instanceof Date) row.getCell(i + 1).numFmt = 'dd/mm/yyyy hh:mm';
      else if (typeof v === 'number') row.getCell(i + 1).numFmt = '#,##0.000';
    });
  }
}

export async function shipWorkbook(report: EuShipYear): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Emissions report');
  sheet.columns = [{ width: 8 }, { width: 78 }, { width: 24 }, { width: 12 }];
  sheet.addRow([
    `EU MRV emissions report of ${report.shipName}, reporting period ${report.year} (Regulation (EU) 2015/757)`,
  ]).font = { bold: true };
  sheet.addRow([]);
  addRows(sheet, shipReportRows(report));
  const voyages = workbook.addWorksheet('Voyages and berths');
  voyages.columns = LINE_COLUMNS.map((c) => ({ width: Math.max(12, c.length + 2) }));
  addTable(voyages, LINE_COLUMNS, lineColumns(report));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function companyWorkbook(report: EuCompanyYear): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Company report');
  sheet.columns = [{ width: 8 }, { width: 78 }, { width: 24 }, { width: 12 }];
  sheet.addRow([
    `EU MRV / EU ETS emissions at company level of ${report.organizationName}, ${report.year}`,
  ]).font = { bold: true };
  sheet.addRow([]);
  addRows(sheet, companyReportRows(report));
  const ships = workbook.addWorksheet('Ships');
  ships.columns = SHIP_COLUMNS.map((c) => ({ width: Math.max(12, c.length + 2) }));
  addTable(ships, SHIP_COLUMNS, shipColumns(report));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvDate = (d: Date) => {
  const text = d.toISOString();
  return text.endsWith('T00:00:00.000Z') ? text.slice(0, 10) : text;
};
const csvCell = (value: Value) => {
  const text = value === null ? '' : value instanceof Date ? csvDate(value) : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csvLines = (header: readonly string[], rows: readonly Value[][]) =>
  [header.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\r\n');

/** The report's rows, then a blank line and the voyages and stays. */
export function shipCsv(report: EuShipYear): string {
  const report1 = csvLines(
    ['Part', 'Item', 'Value', 'Unit'],
    shipReportRows(report).map((r) => [r.section, r.item, r.value, r.unit]),
  );
  return `${report1}\r\n\r\n${csvLines(LINE_COLUMNS, lineColumns(report))}\r\n`;
}

export function companyCsv(report: EuCompanyYear): string {
  const report1 = csvLines(
    ['Part', 'Item', 'Value', 'Unit'],
    companyReportRows(report).map((r) => [r.section, r.item, r.value, r.unit]),
  );
  return `${report1}\r\n\r\n${csvLines(SHIP_COLUMNS, shipColumns(report))}\r\n`;
}
