/** What other features use of alerts (a feature's public entry): the profile's and the organization's sections. */
export { AlertSubscriptionCard } from './AlertSubscriptionCard';
export { OrganizationAlertDefaultsCard } from './OrganizationAlertDefaultsCard';
