import type { Role } from '../config/index.js';
import type { Context } from '../context.js';
import { EXIT } from '../exit.js';

/** Wired to the healthcheck module once it lands. */
export async function healthcheck(ctx: Context, role: Role, _o: { json?: boolean }): Promise<number> {
  ctx.io.stderr.write(`healthcheck for ${role} is not built yet\n`);
  return EXIT.usage;
}
