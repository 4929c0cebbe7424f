export * from './ships';
export * from './channels';
export * from './generate';
export * from './formats';
export * from './big';
export { voyageAt, legDurationHours, distanceNm, type VoyageState } from './voyage';
export * from './foreign';
export * from './fuel';
