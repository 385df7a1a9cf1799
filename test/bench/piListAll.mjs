// Pi 1.6.0's own all-sessions list (/resume's, SessionManager.listAll) over an agent dir, for the history bench:
// run on a Node Pi 1.x accepts (>= 22.19). Prints {"sessions": n, "ms": t} (the time of listAll alone) on stdout.
// usage: node piListAll.mjs <agent dir>
process.env.PI_CODING_AGENT_DIR = process.argv[2];
const { SessionManager } = await import('@earendil-works/pi-coding-agent');
const started = performance.now();
const sessions = await SessionManager.listAll();
process.stdout.write(`${JSON.stringify({ sessions: sessions.length, ms: performance.now() - started })}\n`);
