export { TrackerClient, notJsonError, type ClientOptions, type CloudIdCache, type RawResponse } from './client.js';
export { TrackerHttpError, TrackerNetworkError, TrackerResponseError, TrackerShapeError, joinSentences } from './errors.js';
export { Transport } from './transport.js';
export { BodyTooLargeError, CallLimitError, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, LIMIT_SETTINGS, readBounded } from './bounded.js';
export { apiBase, gatewayUrl, hostPart, isLoopbackHost, siteHostOf, siteUrl, DEFAULT_GATEWAY_URL } from '@jst/url';
export * from './rules.js';
export * from './types.js';
