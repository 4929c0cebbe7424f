/**
 * What the shell uses of maintenance (a feature's public entry): the view everyone sees while maintenance is on, which
 * the shell's maintenance gate and the console's route show.
 */
export { MaintenanceView } from './MaintenanceView';
