export { TrackerClient, type ClientOptions, type CloudIdCache, type RawResponse } from './client.js';
export { TrackerHttpError, TrackerNetworkError } from './errors.js';
export { Transport } from './transport.js';
export { apiBase, gatewayUrl, hostPart, isLoopbackHost, siteHostOf, siteUrl, DEFAULT_GATEWAY_URL } from '@jst/url';
export * from './rules.js';
export * from './types.js';
