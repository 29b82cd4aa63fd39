import { statSync } from 'node:fs';
import type { ConfigWarning } from '../core/settings.js';

/**
 * ARCHITECTURE §10: `local.env` holds the tokens and is kept at mode 0600. A file others may read
 * (any group or other bit) is a warning that says the command that fixes it. Windows has no such
 * bits (every file reads 0666 there), so the check is skipped.
 */
export function exposedFileWarning(file: string, platform: NodeJS.Platform = process.platform): ConfigWarning | null {
  if (platform === 'win32') return null;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return null; // a file that vanished between the read and here has nothing left to expose
  }
  if ((mode & 0o077) === 0) return null;
  const octal = mode.toString(8).padStart(4, '0');
  return {
    code: 'FILE_MODE',
    setting: 'local.env',
    file,
    message: `${file} holds tokens and is readable by others (mode ${octal}): run chmod 600 ${file}`,
  };
}
