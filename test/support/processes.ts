/** Whether a process of this id exists (signal 0 asks without sending anything); false for none. */
export function processAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `done` every 20 ms for up to `ms`; its last answer. */
export async function pollUntil(done: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return done();
}
