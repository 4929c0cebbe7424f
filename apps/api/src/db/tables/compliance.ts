import type { ColumnType, Generated } from 'kysely';

type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A `date` column, written as YYYY-MM-DD; read it as text (`::text`), never as a Date. */
type Day = ColumnType<Date | string, string, string>;

/** A deadline recorded as done (migration 0032). */
export interface ComplianceDeadlineMarksTable {
  organization_id: string;
  year: number;
  code: string;
  done_on: Day;
  note: Generated<string>;
  marked_by: string | null;
  marked_by_name: string;
  marked_on: GeneratedTimestamp;
}

/** A deadline's reminder, sent once (migration 0032). */
export interface ComplianceDeadlineRemindersTable {
  organization_id: string;
  year: number;
  code: string;
  sent_on: GeneratedTimestamp;
  recipients: number;
}

/** HSFO and VLSFO prices of an organization and day (migration 0032). */
export interface FuelPricesTable {
  id: Generated<string>;
  organization_id: string;
  price_on: Day;
  hsfo_eur_per_tonne: number;
  vlsfo_eur_per_tonne: number;
  entered_by: string | null;
  entered_by_name: string;
  entered_on: GeneratedTimestamp;
}

export interface ComplianceTables {
  compliance_deadline_marks: ComplianceDeadlineMarksTable;
  compliance_deadline_reminders: ComplianceDeadlineRemindersTable;
  fuel_prices: FuelPricesTable;
}
