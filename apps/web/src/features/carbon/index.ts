/** What the fleet dashboard uses of the carbon ledger (a feature's public entry): the fleet CII card. */
export { FleetCiiCard } from './FleetCiiCard';
