import { defineCommand } from '../../define.js';

/** Also taken by the fast path in cli.ts, which parses these same three positionals by hand. */
export const rawCommand = defineCommand({
  name: 'raw',
  summary: "send one authenticated call to {api_base}<path> with the role's credential",
  examples: [
    'jst --role assigner raw GET /myself',
    'jst --role executor raw GET "/issue/ABC-1?fields=summary,status"',
    'jst --role assigner raw POST /issue/ABC-1/comment @comment.json',
  ],
  role: 'chosen',
  json: 'none',
  fields: {
    method: { schema: (z) => z.string(), cli: { arg: '<method>', help: 'GET, POST, PUT, DELETE…' } },
    path: { schema: (z) => z.string(), cli: { arg: '<path>', help: 'path under {api_base}, e.g. /myself' } },
    body: { schema: (z) => z.optional(z.string()), cli: { arg: '[body]', help: 'JSON string, @file, or - for stdin' } },
  },
  effects: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  run: async (ctx, i, face) => (await import('./run.js')).raw(ctx, face.role, i.method, i.path, i.body),
});
