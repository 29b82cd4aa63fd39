import type { CodeHost } from './host.js';

export type { EventListener, HostEvent, RefUpdate } from './event-types.js';
import type { HostEvent } from './event-types.js';

/** Says `event` to the host's listener; what the listener throws is reported, never rethrown. */
export async function announce(host: CodeHost, event: HostEvent): Promise<void> {
  const listener = host.listener;
  if (!listener) return;
  try {
    await listener(event);
  } catch (e) {
    host.report(e);
  }
}
