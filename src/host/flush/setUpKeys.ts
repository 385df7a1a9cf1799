/**
 * The keys "Set up a key…" saved in Pi's auth.json (`storedApiKey.ts`), remembered so that **Remove the
 * Key Set up by Pi Condense** can take one out again. A record holds the file's previous bytes, which may
 * hold other keys, so records live in VS Code's secret storage (the system keychain), never in a memento
 * or a file; if that storage fails they are kept for this window only, and the log says so. One record
 * per auth.json and provider (the last set-up), at most ten. Sets `piCondense.keySetUp` while there is
 * one to remove.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errorMessage';
import { isPlainObject } from '../../base/plainObject';
import { storeApiKey, type StoredKey, type StoredKeyRecord } from '../../node/llm/storedApiKey';
import { Disposable } from '../dispose';

const SECRET_KEY = 'piCondense.setUpKeys';
const MAX_RECORDS = 10;
export const KEY_SET_UP_CONTEXT = 'piCondense.keySetUp';

export class SetUpKeys extends Disposable {
	private records: readonly StoredKeyRecord[] = [];
	private loading: Promise<void>;

	constructor(private readonly secrets: vscode.SecretStorage, private readonly logger: vscode.LogOutputChannel) {
		super();
		this.loading = this.load();
		// Another window saved or removed a key.
		this._register(secrets.onDidChange((event) => {
			if (event.key === SECRET_KEY) {
				this.loading = this.load();
			}
		}));
	}

	/** Saves the key in `<agentDir>/auth.json` and remembers how to take it out again. */
	async store(agentDir: string, provider: string, key: string): Promise<StoredKey> {
		const stored = await storeApiKey(agentDir, provider, key);
		await this.loading;
		const { authPath } = stored.record;
		await this.save([...this.records.filter((record) => record.authPath !== authPath || record.provider !== provider), stored.record].slice(-MAX_RECORDS));
		return stored;
	}

	/** The keys that may be removed, the newest last. */
	async list(): Promise<readonly StoredKeyRecord[]> {
		await this.loading;
		return this.records;
	}

	async forget(record: StoredKeyRecord): Promise<void> {
		await this.loading;
		await this.save(this.records.filter((candidate) => candidate.authPath !== record.authPath || candidate.provider !== record.provider));
	}

	private async load(): Promise<void> {
		try {
			const text = await this.secrets.get(SECRET_KEY);
			const parsed: unknown = text === undefined ? [] : JSON.parse(text);
			this.records = Array.isArray(parsed) ? parsed.filter(isRecord) : [];
		} catch (error) {
			this.logger.warn(`the keys set up by Pi Condense could not be read from VS Code's secret storage: ${errorMessage(error)}`);
		}
		this.updateContext();
	}

	private async save(records: readonly StoredKeyRecord[]): Promise<void> {
		this.records = records;
		this.updateContext();
		try {
			await (records.length === 0 ? this.secrets.delete(SECRET_KEY) : this.secrets.store(SECRET_KEY, JSON.stringify(records)));
		} catch (error) {
			this.logger.warn(`VS Code's secret storage refused the record of a key set up (${errorMessage(error)}): it can be removed from this window only`);
		}
	}

	private updateContext(): void {
		void vscode.commands.executeCommand('setContext', KEY_SET_UP_CONTEXT, this.records.length > 0);
	}
}

function isRecord(value: unknown): value is StoredKeyRecord {
	return isPlainObject(value) && typeof value.authPath === 'string' && typeof value.provider === 'string'
		&& (value.previous === null || typeof value.previous === 'string') && typeof value.replacedEntry === 'boolean'
		&& typeof value.writtenSha256 === 'string' && typeof value.entrySha256 === 'string' && typeof value.at === 'number';
}
