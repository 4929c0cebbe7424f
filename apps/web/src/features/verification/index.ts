/** The verification feature's public entry: the organization page's Verifiers section (features/organizations). */
export { VerifiersSection } from './VerifiersSection';
