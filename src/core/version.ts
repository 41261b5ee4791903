import pkg from '../../package.json' with { type: 'json' };

/** The gateway's release version and the interface version of the contract it implements. */
export const APP_VERSION: string = pkg.version;
export const API_VERSION = '1.0.0';
