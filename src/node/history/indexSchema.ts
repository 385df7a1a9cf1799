/**
 * The index file's tables. A file is ours when its `application_id` is APPLICATION_ID, and of this
 * layout when its `user_version` is SCHEMA_VERSION; any change to the tables below, or to what is
 * written in them, raises it (an index of another layout is rebuilt, see `indexDatabase.ts`).
 * Layout 6: each Chinese or Japanese character of a searchable text is a word of its own
 * (`spacelessScripts.ts`), which only a new reading of the files gives; an index of layouts 3 to 5,
 * migrated in place until then, is rebuilt too.
 *
 * Rollback journal (`TRUNCATE`: emptied, not deleted, after each commit), not WAL: WAL needs the shared-memory file that only `node:sqlite`'s
 * file layer provides, so a WebAssembly process (VS Code 1.100, Node 20) could not open a WAL file
 * that a `node:sqlite` process uses. With the journal, a process killed mid-write leaves a hot
 * journal that the next opener, of either engine, rolls back.
 *
 * `synchronous = OFF`: SQLite hands its writes to the operating system without waiting for the disk
 * (fsync). A process killed mid-write loses nothing committed and leaves no damage: the journal and
 * the pages are in the operating system's hands before the commit returns. Only a power loss or an
 * operating-system crash in the seconds after a write could damage the file, and the index is a
 * cache of the session files: a damaged index is found, moved aside and built again. Waiting for
 * the disk would hold the calling thread (the extension host's) for each commit: 50-300 ms per
 * commit on this machine's disk under load.
 */

/** 'PiCI': Pi Condense index. */
export const APPLICATION_ID = 0x50694349;
export const SCHEMA_VERSION = 6;

/** Doc ids per session: a session's docs are `[sid * DOCS_PER_SESSION, (sid + 1) * DOCS_PER_SESSION)`. */
export const DOCS_PER_SESSION = 2 ** 26;

/** `usage.source`, by index. */
export const USAGE_SOURCES = ['assistant', 'toolResult', 'compaction', 'branch_summary', 'usage'] as const;

/** `docs.role`, by index. */
export const DOC_ROLES = ['user', 'assistant', 'tool', 'bash', 'custom', 'summary'] as const;

/**
 * One row per model request, with the usage the session recorded for it. `total_tokens` and `cost`
 * are NULL when they equal the sum of their parts, added in the order `tokensOfParts` and
 * `costOfParts` add them (so they read back exactly): Pi 0.78 to 1.6 record every request so, and leaving
 * them out is a tenth of the table (an older Pi recorded no `totalTokens`, read as 0: those are kept).
 */
const USAGE_TABLE = `
	-- one row per model request (an entry: its line), with the usage the session recorded for it
	CREATE TABLE usage (
		sid INTEGER NOT NULL,
		line INTEGER NOT NULL,
		entry_id TEXT,
		-- USAGE_SOURCES index: assistant, toolResult, compaction, branch_summary, usage (a Pi 1.x usage entry, with its kind)
		source INTEGER NOT NULL,
		kind TEXT,
		model_id INTEGER,
		time INTEGER,
		-- the entry's own time (time is an assistant message's own, when it has one)
		entry_time INTEGER,
		input INTEGER NOT NULL,
		output INTEGER NOT NULL,
		cache_read INTEGER NOT NULL,
		cache_write INTEGER NOT NULL,
		-- NULL: input + output + cache_read + cache_write
		total_tokens INTEGER,
		-- NULL: cost_input + cost_output + cost_cache_read + cost_cache_write
		cost REAL,
		cost_input REAL NOT NULL,
		cost_output REAL NOT NULL,
		cost_cache_read REAL NOT NULL,
		cost_cache_write REAL NOT NULL,
		PRIMARY KEY (sid, line)
	) WITHOUT ROWID;
	CREATE VIEW usage_with_model AS SELECT usage.sid, usage.line, usage.entry_id,
		CASE usage.source WHEN 0 THEN 'assistant' WHEN 1 THEN 'toolResult' WHEN 2 THEN 'compaction' WHEN 3 THEN 'branch_summary' ELSE 'usage' END AS source,
		usage.kind, models.provider, models.model, usage.time, usage.entry_time, usage.input, usage.output, usage.cache_read, usage.cache_write,
		coalesce(usage.total_tokens, usage.input + usage.output + usage.cache_read + usage.cache_write) AS total_tokens,
		coalesce(usage.cost, usage.cost_input + usage.cost_output + usage.cost_cache_read + usage.cost_cache_write) AS cost,
		usage.cost_input, usage.cost_output, usage.cost_cache_read, usage.cost_cache_write
		FROM usage LEFT JOIN models USING (model_id);
`;

interface UsageParts {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly costInput: number;
	readonly costOutput: number;
	readonly costCacheRead: number;
	readonly costCacheWrite: number;
}

/** A request's tokens as the sum of its parts (a stored NULL `total_tokens`). */
export function tokensOfParts(u: UsageParts): number {
	return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** A request's cost as the sum of its parts (a stored NULL `cost`), added as SQLite adds `cost_input + cost_output + …`. */
export function costOfParts(u: UsageParts): number {
	return u.costInput + u.costOutput + u.costCacheRead + u.costCacheWrite;
}

/**
 * Set on a new file, before its tables: pages freed (the full-text index's merges free many) can be
 * given back to the file system (`giveBackFreePages`, `indexRows.ts`).
 */
export const NEW_FILE_PRAGMAS = 'PRAGMA auto_vacuum = INCREMENTAL;';

export const CONNECTION_PRAGMAS = `
	PRAGMA journal_mode = TRUNCATE;
	PRAGMA synchronous = OFF;
	PRAGMA temp_store = MEMORY;
	PRAGMA cache_size = -16000;
	PRAGMA foreign_keys = OFF;
`;

/** The cost tables worked out from the rows above (nothing in them is read from a session file). */
export const COSTS_DERIVED_TABLES = `
	-- each session's cost digest (historyDigest.ts), worked out from its usage rows once: its requests per
	-- quarter hour, its cache rebuilds (unpriced) and the models it used without a cost, and each
	-- request's line and key fingerprint, in binary (digestCodec.ts). consumed: the bytes of the file its
	-- rows covered; made: raised each time a digest is kept (the copies below are worked out again when one changed).
	CREATE TABLE costs_digests (
		sid INTEGER PRIMARY KEY,
		consumed INTEGER NOT NULL,
		made INTEGER NOT NULL,
		digest BLOB NOT NULL,
		fingerprints BLOB NOT NULL
	);
	-- the requests several sessions hold (copies, forks), as last worked out for a set of session folders
	-- (roots), in binary; basis: the digests they were worked out from (their sessions, paths, starts and generations).
	CREATE TABLE costs_copies (
		roots TEXT PRIMARY KEY,
		basis TEXT NOT NULL,
		copies BLOB NOT NULL
	);
`;


export const CREATE_SCHEMA = `
	CREATE TABLE sessions (
		sid INTEGER PRIMARY KEY,
		path TEXT NOT NULL UNIQUE,
		-- the session folder it was found in, to tell which rows a scan of that folder covers
		root TEXT NOT NULL,
		-- the file's identity when it was last read to its end; size -1 while it is read in parts
		ino INTEGER NOT NULL,
		size INTEGER NOT NULL,
		mtime_ms REAL NOT NULL,
		-- bytes read so far: the offset after the last complete line
		consumed INTEGER NOT NULL,
		-- SHA-256 (hex) of the bytes through the first line; NULL while that line is incomplete
		first_line_hash TEXT,
		-- why it is not listed (no valid header); NULL for a session
		unlisted TEXT,
		-- the header
		id TEXT,
		cwd TEXT,
		started TEXT,
		version INTEGER,
		parent_session TEXT,
		-- the list's summary (SessionSummary)
		s_header TEXT NOT NULL,
		s_header_timestamp TEXT,
		name TEXT,
		first_message TEXT,
		entry_count INTEGER NOT NULL,
		message_count INTEGER NOT NULL,
		last_activity INTEGER,
		invalid_lines INTEGER NOT NULL,
		line_count INTEGER NOT NULL
	);
	CREATE INDEX sessions_id ON sessions(id);
	CREATE INDEX sessions_root ON sessions(root);

	-- each provider and model named once
	CREATE TABLE models (
		model_id INTEGER PRIMARY KEY,
		provider TEXT,
		model TEXT,
		UNIQUE (provider, model)
	);

	${USAGE_TABLE}

	-- pi-condense's entries (context-prune-*), with their small facts as JSON; and Pi's compactions and
	-- branch summaries (custom_type ''), where the context starts afresh
	CREATE TABLE events (
		sid INTEGER NOT NULL,
		line INTEGER NOT NULL,
		entry_id TEXT,
		entry_type TEXT NOT NULL,
		custom_type TEXT NOT NULL,
		time INTEGER,
		facts TEXT NOT NULL,
		PRIMARY KEY (sid, line)
	) WITHOUT ROWID;

	-- each prune's account of a session (docs/costs.md), as the command line or VS Code last worked it
	-- out from the file: it needs the render engine, so it is kept rather than derived from the rows above.
	-- consumed: the bytes the account read; basis: the release and settings it rendered with.
	CREATE TABLE costs_accounts (
		sid INTEGER PRIMARY KEY,
		consumed INTEGER NOT NULL,
		basis TEXT NOT NULL,
		-- [{ key, at, low, mid, high }]: each prune's net effect (USD), keyed as a fork's copy is recognised
		prunes TEXT NOT NULL,
		-- the pi-condense settings its entries show (ObservedSettings)
		settings TEXT NOT NULL
	);

	${COSTS_DERIVED_TABLES}

	-- one row per searchable message; its text is only in docs_text's index (the line is read again to
	-- show it). doc = sid * DOCS_PER_SESSION + n, so a session's rows are one range of ids (no index).
	CREATE TABLE docs (
		doc INTEGER PRIMARY KEY,
		-- DOC_ROLES index
		role INTEGER NOT NULL,
		time INTEGER,
		line INTEGER NOT NULL,
		offset INTEGER NOT NULL,
		bytes INTEGER NOT NULL
	);
	CREATE VIRTUAL TABLE docs_text USING fts5(text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
	-- Merge the full-text index's segments 16 at a time, not 4: a build rewrites each term's list about
	-- half as often (a fifth less of a build's SQLite time), for a few more segments read per search.
	INSERT INTO docs_text (docs_text, rank) VALUES ('automerge', 16);
`;
