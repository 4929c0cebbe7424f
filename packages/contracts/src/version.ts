/** The portal's version (the spec's package version); package.json carries the same. */
export const PACKAGE_VERSION = '1.6.7';
