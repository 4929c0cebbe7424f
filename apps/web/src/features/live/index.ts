/** What other features use of the live readout (a feature's public entry): the ship dashboard's card. */
export { LiveCard } from './LiveCard';
