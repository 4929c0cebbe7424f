import type { ColumnType, Generated } from 'kysely';
import type { Consumer, FuelTypeOrUnknown } from '@portal/contracts/rules/carbon';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
/** A date column: read as a Date at 00:00 UTC or a 'YYYY-MM-DD' string depending on the driver. */
type Day = ColumnType<Date | string, string, string>;

/** A ledger fuel line as stored in `ledger_segments.fuel`. */
export interface StoredFuelLine {
  consumer: Consumer;
  fuelType: FuelTypeOrUnknown;
  kg: number;
  kgNotUnderWay: number;
}

/** A piece of a ship's time: a stay, or a voyage's part of one UTC day (migration 0026_carbon_ledger). */
export interface LedgerSegmentsTable {
  facility_id: string;
  start_on: Timestamp;
  end_on: Timestamp;
  day: Day;
  kind: 'stay' | 'voyage';
  distance_nm: number;
  hours_under_way: number;
  hours_not_under_way: number;
  hours_without_position: number;
  fuel: Json<StoredFuelLine[]>;
  hours_without_fuel_data: Json<Record<string, number>>;
  co2_g: number;
  unknown_fuel_kg: number;
  scrubber_kg: number;
  scrubber_co2_g: number;
}

/** A ship's year of pieces rolled up for the CII (migration 0026_carbon_ledger). */
export interface LedgerYearsTable {
  facility_id: string;
  year: number;
  first_day: Day;
  last_day: Day;
  co2_g: number;
  distance_nm: number;
  scrubber_co2_g: number;
  unknown_fuel_kg: number;
  recent_co2_g: number;
  recent_distance_nm: number;
}

export interface PortCallsTable {
  id: Generated<string>;
  facility_id: string;
  port_key: string;
  locode: string | null;
  port_name: string;
  country: string;
  arrival: Timestamp;
  departure: Timestamp;
  gap_ms: number;
  open_start: boolean;
  open_end: boolean;
  hours_without_fuel_data: Json<Record<string, number>>;
  derived_on: GeneratedTimestamp;
}

export interface LegFuelTable {
  consumer: Consumer;
  fuel_type: FuelTypeOrUnknown;
  kg: number;
  kg_not_under_way: number;
}

export interface PortCallFuelTable extends LegFuelTable {
  port_call_id: string;
}

export interface VoyagesTable {
  id: Generated<string>;
  facility_id: string;
  from_call_id: string | null;
  to_call_id: string | null;
  departure: Timestamp;
  arrival: Timestamp;
  distance_nm: number;
  hours_under_way: number;
  hours_not_under_way: number;
  hours_without_position: number;
  hours_without_fuel_data: Json<Record<string, number>>;
  co2_g: number;
  derived_on: GeneratedTimestamp;
}

export interface VoyageFuelTable extends LegFuelTable {
  voyage_id: string;
}

export interface VoyageCargoTable {
  facility_id: string;
  departure: Timestamp;
  laden: boolean;
  cargo_tonnes: number | null;
  teu: number | null;
  source: 'ENTERED' | 'NOON_REPORT';
  entered_by: string | null;
  entered_by_name: string;
  entered_on: GeneratedTimestamp;
}

export interface BunkerDeliveryNotesTable {
  id: Generated<string>;
  facility_id: string;
  delivered_on: Timestamp;
  port_key: string | null;
  port_name: string | null;
  fuel_type: string;
  mass_tonnes: number;
  sulfur_percent: number;
  lcv_mj_per_kg: number | null;
  density_kg_m3: number | null;
  bdn_number: string | null;
  record_book_entry_id: string;
  entered_by: string | null;
  entered_by_name: string;
  entered_on: GeneratedTimestamp;
  removed_on: NullableTimestamp;
}

export interface TankSoundingsTable {
  id: Generated<string>;
  facility_id: string;
  measured_on: Timestamp;
  fuel_type: string;
  rob_tonnes: number;
  entered_by: string | null;
  entered_by_name: string;
  entered_on: GeneratedTimestamp;
}

export interface FuelEuFlexibilityTable {
  facility_id: string;
  year: number;
  banked_tonnes: number;
  borrowed_tonnes: number;
  updated_by: string | null;
  updated_by_name: string;
  updated_on: GeneratedTimestamp;
}

export interface FuelEuPoolsTable {
  id: Generated<string>;
  organization_id: string;
  year: number;
  name: string;
  created_by: string | null;
  created_by_name: string;
  created_on: GeneratedTimestamp;
}

export interface FuelEuPoolMembersTable {
  pool_id: string;
  facility_id: string;
  year: number;
  allocated_tonnes: number;
}

/** An EU allowance's price as an organization entered it (migration 0027). */
export interface EuaPricesTable {
  id: Generated<string>;
  organization_id: string;
  price_on: Day;
  eur_per_allowance: number;
  note: string | null;
  entered_by: string | null;
  entered_by_name: string;
  entered_on: GeneratedTimestamp;
}

export interface CarbonTables {
  ledger_segments: LedgerSegmentsTable;
  ledger_years: LedgerYearsTable;
  port_calls: PortCallsTable;
  port_call_fuel: PortCallFuelTable;
  voyages: VoyagesTable;
  voyage_fuel: VoyageFuelTable;
  voyage_cargo: VoyageCargoTable;
  bunker_delivery_notes: BunkerDeliveryNotesTable;
  tank_soundings: TankSoundingsTable;
  fueleu_flexibility: FuelEuFlexibilityTable;
  fueleu_pools: FuelEuPoolsTable;
  fueleu_pool_members: FuelEuPoolMembersTable;
  eua_prices: EuaPricesTable;
}
