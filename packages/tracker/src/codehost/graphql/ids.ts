import { nodeId } from '../http/render.js';

/**
 * GraphQL IDs: the REST `node_id` of the same object (http/render.ts), base64 of `<kind>_<id>`:
 * R repository, PR pull request, PRR review, IC comment, U user, O an owner that is no user.
 */
export { nodeId };

export type NodeKind = 'R' | 'PR' | 'PRR' | 'IC' | 'U' | 'O';

/** The kind and number an ID names, or null for an ID the code host never made. */
export function parseNodeId(id: string): { kind: NodeKind; id: number } | null {
  if (id.length > 64) return null;
  const m = /^(R|PR|PRR|IC|U|O)_(\d{1,10})$/.exec(Buffer.from(id, 'base64').toString('utf8'));
  if (!m) return null;
  return { kind: m[1] as NodeKind, id: Number(m[2]) };
}
