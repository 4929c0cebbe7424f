import { sql, type Kysely } from 'kysely';

/**
 * The carbon ledger's stored series (issue 31; docs/decisions/0111-carbon-ledger-engine.md), written by the engine's
 * step "port calls and voyages" through storage/ (port-calls.ts, voyages.ts, ledger-segments.ts) and by nothing else:
 *
 * - `ledger_segments`: a ship's time cut at UTC midnights and at its port calls' arrivals and departures, one row per
 *   piece (a stay at berth or a piece of a voyage within one UTC day) with its distance over ground, hours under way
 *   and not, hours without a position, fuel per consumer and fuel type (jsonb), CO2 under the IMO's Cf and the
 *   scrubber's share. Keyed by the piece's start. Days add up exactly (packages/contracts/src/rules/carbon/ledger.ts),
 *   so a voyage, a stay, a year or any period is a sum of segments.
 * - `ledger_years`: their roll-up per ship and calendar year as the CII reads it (the sums, and those of the trailing
 *   90 days up to the last day with a piece), refreshed with the pieces in their transaction.
 * - `port_calls` with `port_call_fuel`: the calls derived from position and speed (DOMAIN.md), their port as it was
 *   when derived, and the fuel burnt at berth per consumer and fuel type (the sum of the call's stay segments).
 * - `voyages` with `voyage_fuel`: from one call's departure to the next call's arrival (the first before any call and
 *   the last still at sea have no call on that side), their sums over the voyage's segments.
 *
 * And what people enter for the ledger (features/carbon):
 * - `voyage_cargo`: per voyage (keyed by its departure, which stays when the voyage is derived again): laden or in
 *   ballast, cargo mass and TEU, entered or imported from noon reports.
 * - `bunker_delivery_notes`: each note as entered (its record book entry holds it as a document; a change is a new
 *   record book entry, the note points at the last one); removed notes stay with `removed_on`.
 * - `tank_soundings`: remaining on board per fuel type at a time, for the reconciliation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE ledger_segments (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      start_on timestamptz NOT NULL,
      end_on timestamptz NOT NULL,
      day date NOT NULL,
      kind text NOT NULL CHECK (kind IN ('stay', 'voyage')),
      distance_nm double precision NOT NULL,
      hours_under_way double precision NOT NULL,
      hours_not_under_way double precision NOT NULL,
      hours_without_position double precision NOT NULL,
      fuel jsonb NOT NULL,
      hours_without_fuel_data jsonb NOT NULL,
      co2_g double precision NOT NULL,
      unknown_fuel_kg double precision NOT NULL,
      scrubber_kg double precision NOT NULL,
      scrubber_co2_g double precision NOT NULL,
      PRIMARY KEY (facility_id, start_on),
      CHECK (start_on < end_on)
    );
    CREATE INDEX ledger_segments_day ON ledger_segments (facility_id, day);

    CREATE TABLE ledger_years (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      year integer NOT NULL,
      first_day date NOT NULL,
      last_day date NOT NULL,
      co2_g double precision NOT NULL,
      distance_nm double precision NOT NULL,
      scrubber_co2_g double precision NOT NULL,
      unknown_fuel_kg double precision NOT NULL,
      recent_co2_g double precision NOT NULL,
      recent_distance_nm double precision NOT NULL,
      PRIMARY KEY (facility_id, year)
    );

    CREATE TABLE port_calls (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      port_key text NOT NULL,
      locode text,
      port_name text NOT NULL,
      country text NOT NULL,
      arrival timestamptz NOT NULL,
      departure timestamptz NOT NULL,
      gap_ms double precision NOT NULL,
      open_start boolean NOT NULL,
      open_end boolean NOT NULL,
      hours_without_fuel_data jsonb NOT NULL,
      derived_on timestamptz NOT NULL DEFAULT now(),
      CHECK (arrival <= departure)
    );
    CREATE INDEX port_calls_facility ON port_calls (facility_id, arrival);

    CREATE TABLE port_call_fuel (
      port_call_id uuid NOT NULL REFERENCES port_calls(id) ON DELETE CASCADE,
      consumer text NOT NULL,
      fuel_type text NOT NULL,
      kg double precision NOT NULL,
      kg_not_under_way double precision NOT NULL,
      PRIMARY KEY (port_call_id, consumer, fuel_type)
    );

    CREATE TABLE voyages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      from_call_id uuid REFERENCES port_calls(id) ON DELETE SET NULL,
      to_call_id uuid REFERENCES port_calls(id) ON DELETE SET NULL,
      departure timestamptz NOT NULL,
      arrival timestamptz NOT NULL,
      distance_nm double precision NOT NULL,
      hours_under_way double precision NOT NULL,
      hours_not_under_way double precision NOT NULL,
      hours_without_position double precision NOT NULL,
      hours_without_fuel_data jsonb NOT NULL,
      co2_g double precision NOT NULL,
      derived_on timestamptz NOT NULL DEFAULT now(),
      CHECK (departure < arrival)
    );
    CREATE INDEX voyages_facility ON voyages (facility_id, departure);

    CREATE TABLE voyage_fuel (
      voyage_id uuid NOT NULL REFERENCES voyages(id) ON DELETE CASCADE,
      consumer text NOT NULL,
      fuel_type text NOT NULL,
      kg double precision NOT NULL,
      kg_not_under_way double precision NOT NULL,
      PRIMARY KEY (voyage_id, consumer, fuel_type)
    );

    CREATE TABLE voyage_cargo (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      departure timestamptz NOT NULL,
      laden boolean NOT NULL,
      cargo_tonnes double precision CHECK (cargo_tonnes >= 0),
      teu integer CHECK (teu >= 0),
      source text NOT NULL CHECK (source IN ('ENTERED', 'NOON_REPORT')),
      entered_by uuid REFERENCES users(id) ON DELETE SET NULL,
      entered_by_name text NOT NULL,
      entered_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (facility_id, departure)
    );

    CREATE TABLE bunker_delivery_notes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      delivered_on timestamptz NOT NULL,
      port_key text,
      port_name text,
      fuel_type text NOT NULL,
      mass_tonnes double precision NOT NULL CHECK (mass_tonnes > 0),
      sulfur_percent double precision NOT NULL CHECK (sulfur_percent >= 0),
      lcv_mj_per_kg double precision,
      density_kg_m3 double precision,
      bdn_number text,
      record_book_entry_id uuid NOT NULL REFERENCES record_book_entries(id),
      entered_by uuid REFERENCES users(id) ON DELETE SET NULL,
      entered_by_name text NOT NULL,
      entered_on timestamptz NOT NULL DEFAULT now(),
      removed_on timestamptz
    );
    CREATE INDEX bunker_delivery_notes_facility ON bunker_delivery_notes (facility_id, delivered_on)
      WHERE removed_on IS NULL;

    CREATE TABLE tank_soundings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      measured_on timestamptz NOT NULL,
      fuel_type text NOT NULL,
      rob_tonnes double precision NOT NULL CHECK (rob_tonnes >= 0),
      entered_by uuid REFERENCES users(id) ON DELETE SET NULL,
      entered_by_name text NOT NULL,
      entered_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX tank_soundings_facility ON tank_soundings (facility_id, measured_on);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE tank_soundings;
    DROP TABLE bunker_delivery_notes;
    DROP TABLE voyage_cargo;
    DROP TABLE voyage_fuel;
    DROP TABLE voyages;
    DROP TABLE port_call_fuel;
    DROP TABLE port_calls;
    DROP TABLE ledger_years;
    DROP TABLE ledger_segments;
  `.execute(db);
}
