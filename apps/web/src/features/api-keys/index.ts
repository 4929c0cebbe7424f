/** The API keys feature's public entry: the organization page's section (features/organizations). */
export { ApiKeysSection } from './ApiKeysSection';
