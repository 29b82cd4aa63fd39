export interface TempDatabase {
  /** The database's name (`<prefix>_…`). */
  name: string;
  /** A connection URL for it (the admin URL with its path replaced). */
  url: string;
  drop(): Promise<void>;
}

export function createTempDatabase(adminUrl: string, prefix: string): Promise<TempDatabase>;
export function freePort(): Promise<number>;
