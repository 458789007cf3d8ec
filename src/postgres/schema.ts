import { MIGRATIONS, type Migration } from './migrations.js';

/** What the adapter needs of a database client: one parameterized statement at a time (`$1`, `$2`, …), answered with its rows. @public */
export interface PostgresClient {
  /** Runs one statement with its parameters; rejects when the database refuses it or cannot be reached. */
  query(text: string, params?: unknown[]): Promise<{ readonly rows: readonly Record<string, unknown>[] }>;
}

// One advisory-lock key for every goal-loop schema change, so two processes starting at once migrate one at a time.
const MIGRATION_LOCK = 720_411_901;

// One migration, applied only when its version is not recorded yet.
const step = ({ version, sql }: Migration): string => `
  IF NOT EXISTS (SELECT 1 FROM goal_loop_schema_versions WHERE version = ${version}) THEN
    ${sql}
    INSERT INTO goal_loop_schema_versions (version) VALUES (${version});
  END IF;`;

/** The one statement that brings a database to the newest migration's version. */
function migrationStatement(migrations: readonly Migration[] = MIGRATIONS): string {
  return `DO $migrate$
BEGIN
  PERFORM pg_advisory_xact_lock(${MIGRATION_LOCK});
  CREATE TABLE IF NOT EXISTS goal_loop_schema_versions (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  );
  IF EXISTS (SELECT 1 FROM goal_loop_schema_versions WHERE version > ${migrations.length}) THEN
    RAISE EXCEPTION USING ERRCODE = 'GLIO1', MESSAGE = 'ESCHEMA',
      DETAIL = 'the database holds a newer goal-loop schema than this version of goal-loop knows (${migrations.length})';
  END IF;${migrations.map(step).join('')}
END $migrate$`;
}

/**
 * Brings the database behind `client` to the current schema (creating it on first use) and makes sure the directory
 * `root` exists: two statements, run once per filesystem. @internal
 */
export async function ensureSchema(client: PostgresClient, root: string, parent: string, name: string): Promise<void> {
  await client.query(migrationStatement());
  await client.query(
    `INSERT INTO goal_loop_fs_entries VALUES ($1, $2, $3, 'directory', NULL, goal_loop_fs_now())
     ON CONFLICT (path) DO NOTHING`,
    [root, parent, name],
  );
}
