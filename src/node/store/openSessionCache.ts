/**
 * The sessions held open in memory: the selected one (pinned) and a few recently used ones (for
 * hovers and recovered documents), least recently used dropped first. Opening the same file twice
 * at once shares one read.
 */
import type { OpenSession } from './openSession';

export class OpenSessionCache {
	private readonly sessions = new Map<string, Promise<OpenSession>>();
	private readonly pinned = new Set<string>();

	constructor(private readonly capacity: number, private readonly opener: (path: string) => Promise<OpenSession>) {}

	/** The open session of `path`, reading the file when it is not open yet. */
	open(path: string): Promise<OpenSession> {
		let session = this.sessions.get(path);
		if (session) {
			this.sessions.delete(path); // re-inserted below: most recently used last
		} else {
			session = this.opener(path);
			session.catch(() => {
				if (this.sessions.get(path) === session) {
					this.sessions.delete(path);
				}
			});
		}
		this.sessions.set(path, session);
		this.evict();
		return session;
	}

	/** The open session of `path`, if it is open (or being opened); never reads. */
	peek(path: string): Promise<OpenSession> | undefined {
		return this.sessions.get(path);
	}

	/** Keeps `path` open whatever else is opened; `undefined` unpins every path. */
	pinOnly(path: string | undefined): void {
		this.pinned.clear();
		if (path !== undefined) {
			this.pinned.add(path);
		}
		this.evict();
	}

	close(path: string): void {
		this.sessions.delete(path);
	}

	clear(): void {
		this.sessions.clear();
	}

	private evict(): void {
		for (const path of this.sessions.keys()) {
			if (this.sessions.size <= this.capacity) {
				return;
			}
			if (!this.pinned.has(path)) {
				this.sessions.delete(path);
			}
		}
	}
}
