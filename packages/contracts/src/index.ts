// Schemas and types of every request and response, and the shared constants. Display and validation rules
// are in './rules' and './forms'.
export * from './audit';
export * from './auth';
export * from './calculations';
export * from './channel-suggestions';
export * from './data-health';
export * from './datasources';
export * from './documents';
export * from './eca';
export * from './environment';
export * from './errors';
export * from './execution';
export * from './executions';
export * from './exports';
export * from './facilities';
export * from './files';
export * from './measurement-fields';
export * from './messages';
export * from './organizations';
export * from './readers';
export * from './reports';
export * from './settings';
export * from './ship-info';
export * from './users';
export * from './version';
export * from './rules';
export * from './forms';
