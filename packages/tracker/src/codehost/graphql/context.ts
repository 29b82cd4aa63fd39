import type { CodeHost } from '../domain/host.js';
import type { ChUser } from '../domain/model.js';
import type { Urls } from '../http/render.js';

/** What every resolver is given: the code host, the signed-in viewer and the server's own addresses. */
export interface GqlContext {
  host: CodeHost;
  viewer: ChUser;
  urls: Urls;
}
