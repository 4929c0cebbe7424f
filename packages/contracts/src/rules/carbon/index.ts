// The carbon ledger's pure rules (../shared/DOMAIN.md "Voyages, fuel and greenhouse gases";
// docs/decisions/0107-carbon-ledger-rules.md): fuel tables per regime, port calls, voyages and fuel, BDN
// reconciliation, the IMO DCS report, the CII and FuelEU Maritime.
export * from './fuels';
export * from './geo';
export * from './track';
export * from './port-calls';
export * from './fuel';
export * from './ledger';
export * from './reconciliation';
export * from './dcs';
export * from './cii';
export * from './uk-ets';
export * from './fueleu';
export * from './eu-ets';
export * from './calendar';
export * from './scrubber-economics';
