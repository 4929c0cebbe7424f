import { z } from 'zod';
import { FUEL_TYPES } from './rules/carbon/fuels';
import { UK_ETS_SCOPES } from './rules/carbon/uk-ets';
import { yearQuerySchema } from './carbon';

/**
 * The UK ETS maritime API (issue "Step 5 of 7", part UK; docs/decisions/0114-uk-ets-and-ovd.md): a ship's year under
 * the UK ETS per voyage and stay at berth, the annual emissions report as the regulator's METS API takes it, its
 * sending to METS, and the Open Vessel Data log abstract export of the ledger.
 */

export const ukEtsScopeSchema = z.enum(UK_ETS_SCOPES);

export const ukEtsGasesSchema = z.object({
  co2: z.number().describe('t CO2'),
  ch4: z.number().describe('t CH4'),
  n2o: z.number().describe('t N2O'),
  ch4Co2e: z.number().describe('t CO2e of the CH4 (GWP 28)'),
  n2oCo2e: z.number().describe('t CO2e of the N2O (GWP 265)'),
  co2e: z.number().describe('t CO2e of the three gases'),
});
export type UkEtsGasesRecord = z.infer<typeof ukEtsGasesSchema>;

const fuelTonnesSchema = z
  .partialRecord(z.enum([...FUEL_TYPES, 'UNKNOWN']), z.number())
  .describe('t of fuel per fuel type');

export const ukEtsLineSchema = z.object({
  kind: z.enum(['stay', 'voyage']),
  /** The voyage's or the call's id in the ledger; null for a piece the ledger holds in no voyage or call. */
  id: z.string().nullable(),
  start: z.string().describe('Start (ISO, UTC), cut to the covered period'),
  end: z.string(),
  /** A stay's port, a voyage's departure and arrival ports (names), when known. */
  port: z.string().nullable(),
  fromPort: z.string().nullable(),
  toPort: z.string().nullable(),
  scope: ukEtsScopeSchema,
  scopeName: z.string(),
  share: z.number().describe('Share that counts: 1, 0.5 or 0'),
  fuelTonnes: fuelTonnesSchema,
  emissions: ukEtsGasesSchema.describe('The whole emissions of the leg'),
  counted: ukEtsGasesSchema.describe('What counts towards the allowances: emissions x share'),
});
export type UkEtsLineRecord = z.infer<typeof ukEtsLineSchema>;

export const ukEtsYearSchema = z.object({
  shipId: z.string(),
  year: z.number().int(),
  /** The covered part of the year (UTC days, both included); null for a year before the scheme. */
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  grossTonnage: z.number().nullable(),
  /** False when the ship's gross tonnage is under 5,000 or not entered (the figures are still shown). */
  shipInScope: z.boolean(),
  lines: z.array(ukEtsLineSchema),
  withinUkPorts: ukEtsGasesSchema,
  betweenUkPorts: ukEtsGasesSchema,
  betweenGbAndNi: ukEtsGasesSchema.describe('Whole emissions of GB-NI voyages (half of them count)'),
  surrender: ukEtsGasesSchema.describe('Emissions to surrender allowances for'),
  fuelTonnes: fuelTonnesSchema,
  /** What the figures lack, each in a sentence (fuel of unknown type, ports not known, the tonnage, ...). */
  notes: z.array(z.string()),
  reportDue: z.string().nullable().describe('The annual emissions report is due (YYYY-MM-DD)'),
  surrenderDue: z.string().nullable().describe('Allowances are due (YYYY-MM-DD)'),
});
export type UkEtsYearRecord = z.infer<typeof ukEtsYearSchema>;

/**
 * The flag States METS accepts (ExternalAerShipDetails.flag of the Maritime External API 4.0.0, ISO 3166-1 alpha-2;
 * apps/api/src/features/uk-ets/mets-schema/).
 */
export const METS_FLAGS = (
  'AE AF AG AI AL AM AO AR AS AT AU AW AZ BA BB BD BE BG BH BJ BM BN BO BQ BR BS BY BZ CA CD CG CH CI CK CL ' +
  'CM CN CO CR CU CV CW CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FK FM FO FR GA GB GD GE GG GH GI GM ' +
  'GN GQ GR GT GW GY HK HN HR HT HU ID IE IL IM IN IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ ' +
  'LA LB LC LK LR LT LU LV LY MA MC MD ME MG MH ML MM MN MO MR MS MT MU MV MX MY MZ NA NE NG NI NL NO NR NZ ' +
  'OM PA PE PF PG PH PK PL PT PW PY QA RO RS RU SA SB SC SL SD SE SG SH SI SK SN SO SR SS ST SV SX SY TC TF ' +
  'TG TH TJ TM TN TO TR TT TV TW TZ UA UG US UY UZ VC VE VG VI VN VU WS YE ZA ZW'
).split(' ') as [string, ...string[]];

/** What the METS report needs that the ship's details do not hold. */
export const METS_COMPANY_NATURES = ['SHIPOWNER', 'ISM_COMPANY'] as const;
export const METS_ICE_CLASSES = [
  'PC1',
  'PC2',
  'PC3',
  'PC4',
  'PC5',
  'PC6',
  'PC7',
  'IC',
  'IB',
  'IA',
  'IA_SUPER',
  'NA',
] as const;

export const metsReportQuerySchema = yearQuerySchema.extend({
  flag: z
    .enum(METS_FLAGS, { error: 'Flag is the two-letter country code of the flag State, e.g. GB' })
    .describe("The ship's flag State (ISO 3166-1 alpha-2), one METS accepts."),
  iceClass: z
    .enum(METS_ICE_CLASSES, { error: 'Ice class is one of PC1-PC7, IC, IB, IA, IA_SUPER or NA' })
    .default('NA'),
  companyNature: z
    .enum(METS_COMPANY_NATURES, { error: 'Company is SHIPOWNER or ISM_COMPANY' })
    .default('ISM_COMPANY'),
});
export type MetsReportQuery = z.infer<typeof metsReportQuerySchema>;

export const metsSendSchema = metsReportQuerySchema.extend({
  year: yearQuerySchema.shape.year,
  companyImoNumber: z
    .string()
    .regex(/^\d{7}$/, "The company's IMO number has 7 digits")
    .describe('The maritime operator\'s IMO unique company number (METS "company-imo-number").'),
});
export type MetsSendInput = z.infer<typeof metsSendSchema>;

export const metsSendQueuedSchema = z.object({
  jobId: z.string(),
  message: z.string(),
});

export const OVD_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const ovdExportQuerySchema = yearQuerySchema.extend({
  format: z.enum(OVD_EXPORT_FORMATS, { error: 'Format is csv or xlsx' }).default('csv'),
});
