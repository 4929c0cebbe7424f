/** The data retention feature's public entry: the organization page's section (features/organizations). */
export { RetentionSection } from './RetentionSection';
