import { sql, type Kysely } from 'kysely';

/**
 * Issue 34 (5,000 ships on one deployment): the fleet CII card's answer is cached per process under the reports
 * version (migration 0012) like the dashboards' answers (features/carbon/fleet-cii.ts,
 * docs/decisions/0138-fleet-cii-answers.md). The card reads two things the version did not move with, so triggers
 * make it:
 *
 * - the ships' year sums (`ledger_years`, written by the engine's step "port calls and voyages" and the carbon-ledger
 *   jobs in the replacing transaction): AFTER each statement, as the daily roll-up's trigger. An execution now
 *   locks the version row from its ledger's year sums on (its port calls and voyages are written after them, then
 *   the roll-up, which locked it before), and a carbon-ledger job locks it too; both hold the ship's lock and the
 *   ship row's key share already, so a ship edit (which locks the ship row first) waits for them whole;
 * - the particulars the rating is computed from (ship type, deadweight, gross tonnage): BEFORE an update that sets
 *   them, as the configuration tables' (the version row locked before any row of the statement). A ship made or
 *   removed, renamed, or given to another organization moves the access version (migration 0010), which the card's
 *   key holds too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TRIGGER ledger_years_reports_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON ledger_years FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();
    CREATE TRIGGER facilities_particulars_reports_version
      BEFORE UPDATE OF ship_type, deadweight_tonnes, gross_tonnage
      ON facilities FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER ledger_years_reports_version ON ledger_years;
    DROP TRIGGER facilities_particulars_reports_version ON facilities;
  `.execute(db);
}
