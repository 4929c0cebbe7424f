// Schemas and types of every request and response, and the shared constants. Display and validation rules
// are in './rules' and './forms'.
export * from './auth';
export * from './environment';
export * from './errors';
export * from './facilities';
export * from './readers';
export * from './settings';
export * from './version';
export * from './rules';
export * from './forms';
export * from './eca';
