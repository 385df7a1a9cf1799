// Pi 1.6.0's own all-sessions list (/resume's, SessionManager.listAll) over an agent dir, for the history bench:
// run on a Node Pi 1.x accepts (>= 22.19). Prints {"sessions": n, "ms": t, "cpuMs": c} (the time and CPU time of listAll alone) on stdout.
// usage: node piListAll.mjs <agent dir>
process.env.PI_CODING_AGENT_DIR = process.argv[2];
const { SessionManager } = await import('@earendil-works/pi-coding-agent');
const started = performance.now();
const cpu = process.cpuUsage();
const sessions = await SessionManager.listAll();
const used = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ sessions: sessions.length, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 })}\n`);
