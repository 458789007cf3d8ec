// The schema of the Postgres filesystem, as numbered migrations applied once each, in order, by ensureSchema.

/** One schema migration: its number and the statements it runs (inside a PL/pgSQL block, in one transaction). @internal */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

// Every entry of every root is one row keyed by its absolute path; "C" collation keeps order and prefixes bytewise.
const ENTRIES = `
CREATE TABLE goal_loop_fs_entries (
  path text COLLATE "C" PRIMARY KEY,
  parent text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  kind text NOT NULL CHECK (kind IN ('file', 'directory')),
  content bytea,
  mtime_ms bigint NOT NULL
);
CREATE INDEX goal_loop_fs_entries_parent ON goal_loop_fs_entries (parent);
CREATE FUNCTION goal_loop_fs_now() RETURNS bigint LANGUAGE sql AS $f$
  SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $f$;
CREATE FUNCTION goal_loop_fs_parent(p text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN p ~ '^/[^/]*$' THEN '/' ELSE regexp_replace(p, '/[^/]*$', '') END $f$;
CREATE FUNCTION goal_loop_fs_fail(code text, p text) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN RAISE EXCEPTION USING ERRCODE = 'GLIO1', MESSAGE = code, DETAIL = p; END $f$;
`;

// The guard locks each guarded entry (in path order, so two guards never deadlock) and fails unless each holds its text.
const GUARD = `
CREATE FUNCTION goal_loop_fs_guard(guards jsonb) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE g record; held bytea; held_kind text;
BEGIN
  FOR g IN SELECT e->>0 AS p, e->>1 AS t FROM jsonb_array_elements(guards) e ORDER BY (e->>0) COLLATE "C" LOOP
    SELECT kind, content INTO held_kind, held FROM goal_loop_fs_entries WHERE path = g.p FOR UPDATE;
    IF (NOT FOUND AND g.t IS NOT NULL)
      OR (FOUND AND (g.t IS NULL OR held_kind <> 'file' OR held <> convert_to(g.t, 'UTF8'))) THEN
      RAISE EXCEPTION USING ERRCODE = 'GLFEN', MESSAGE = 'guard failed', DETAIL = g.p;
    END IF;
  END LOOP;
END $f$;
CREATE FUNCTION goal_loop_fs_mkdirs(dirs text[]) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE d text; k text;
BEGIN
  FOREACH d IN ARRAY dirs LOOP
    SELECT kind INTO k FROM goal_loop_fs_entries WHERE path = d;
    IF NOT FOUND THEN
      INSERT INTO goal_loop_fs_entries VALUES
        (d, goal_loop_fs_parent(d), regexp_replace(d, '^.*/', ''), 'directory', NULL, goal_loop_fs_now())
        ON CONFLICT (path) DO NOTHING;
    ELSIF k <> 'directory' THEN PERFORM goal_loop_fs_fail('ENOTDIR', d);
    END IF;
  END LOOP;
END $f$;
CREATE FUNCTION goal_loop_fs_mkdir(dirs text[], guards jsonb) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN PERFORM goal_loop_fs_guard(guards); PERFORM goal_loop_fs_mkdirs(dirs); END $f$;
`;

// Replace, append and exclusive create: one statement each, after the guard and the parents.
const WRITE = `
CREATE FUNCTION goal_loop_fs_write(p text, dirs text[], data bytea, mode text, guards jsonb) RETURNS boolean
LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM goal_loop_fs_guard(guards);
  PERFORM goal_loop_fs_mkdirs(dirs);
  IF mode = 'exclusive' THEN
    INSERT INTO goal_loop_fs_entries VALUES
      (p, goal_loop_fs_parent(p), regexp_replace(p, '^.*/', ''), 'file', data, goal_loop_fs_now())
      ON CONFLICT (path) DO NOTHING;
    RETURN FOUND;
  END IF;
  INSERT INTO goal_loop_fs_entries AS e VALUES
    (p, goal_loop_fs_parent(p), regexp_replace(p, '^.*/', ''), 'file', data, goal_loop_fs_now())
    ON CONFLICT (path) DO UPDATE
    SET content = CASE WHEN mode = 'append' THEN e.content || EXCLUDED.content ELSE EXCLUDED.content END,
        mtime_ms = EXCLUDED.mtime_ms
    WHERE e.kind = 'file';
  IF NOT FOUND THEN PERFORM goal_loop_fs_fail('EISDIR', p); END IF;
  RETURN true;
END $f$;
CREATE FUNCTION goal_loop_fs_truncate(p text, size integer, guards jsonb) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE k text;
BEGIN
  PERFORM goal_loop_fs_guard(guards);
  SELECT kind INTO k FROM goal_loop_fs_entries WHERE path = p FOR UPDATE;
  IF NOT FOUND THEN PERFORM goal_loop_fs_fail('ENOENT', p); END IF;
  IF k <> 'file' THEN PERFORM goal_loop_fs_fail('EISDIR', p); END IF;
  UPDATE goal_loop_fs_entries SET content = substring(content FROM 1 FOR size), mtime_ms = goal_loop_fs_now()
    WHERE path = p AND octet_length(content) > size;
END $f$;
`;

// Remove and rename, with the refusals of POSIX rename(2) and rmdir(2).
const TREE = `
CREATE FUNCTION goal_loop_fs_remove(p text, guards jsonb) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE k text;
BEGIN
  PERFORM goal_loop_fs_guard(guards);
  SELECT kind INTO k FROM goal_loop_fs_entries WHERE path = p FOR UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  IF k = 'directory' AND EXISTS (SELECT 1 FROM goal_loop_fs_entries WHERE parent = p) THEN
    PERFORM goal_loop_fs_fail('ENOTEMPTY', p);
  END IF;
  DELETE FROM goal_loop_fs_entries WHERE path = p;
END $f$;
CREATE FUNCTION goal_loop_fs_rename(src text, dst text, guards jsonb) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE sk text; dk text;
BEGIN
  PERFORM goal_loop_fs_guard(guards);
  SELECT kind INTO sk FROM goal_loop_fs_entries WHERE path = src FOR UPDATE;
  IF NOT FOUND THEN PERFORM goal_loop_fs_fail('ENOENT', src); END IF;
  IF src = dst THEN RETURN; END IF;
  IF NOT EXISTS (SELECT 1 FROM goal_loop_fs_entries WHERE path = goal_loop_fs_parent(dst) AND kind = 'directory') THEN
    PERFORM goal_loop_fs_fail('ENOENT', dst);
  END IF;
  IF sk = 'directory' AND starts_with(dst, src || '/') THEN PERFORM goal_loop_fs_fail('EINVAL', dst); END IF;
  SELECT kind INTO dk FROM goal_loop_fs_entries WHERE path = dst FOR UPDATE;
  IF FOUND THEN
    IF dk = 'directory' AND sk <> 'directory' THEN PERFORM goal_loop_fs_fail('EISDIR', dst); END IF;
    IF dk <> 'directory' AND sk = 'directory' THEN PERFORM goal_loop_fs_fail('ENOTDIR', dst); END IF;
    IF EXISTS (SELECT 1 FROM goal_loop_fs_entries WHERE parent = dst) THEN PERFORM goal_loop_fs_fail('ENOTEMPTY', dst);
    END IF;
    DELETE FROM goal_loop_fs_entries WHERE path = dst;
  END IF;
  UPDATE goal_loop_fs_entries SET
    path = dst || substr(path, length(src) + 1),
    parent = CASE WHEN path = src THEN goal_loop_fs_parent(dst) ELSE dst || substr(parent, length(src) + 1) END,
    name = CASE WHEN path = src THEN regexp_replace(dst, '^.*/', '') ELSE name END
    WHERE path = src OR starts_with(path, src || '/');
END $f$;
`;

/** The migrations, oldest first. @internal */
export const MIGRATIONS: readonly Migration[] = [{ version: 1, sql: ENTRIES + GUARD + WRITE + TREE }];
