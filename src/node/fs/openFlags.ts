import { constants } from 'node:fs';

/**
 * Flags to open a file for reading that may not be one: a FIFO (or a device) put where a session,
 * key or record file was listed would hold the opening thread until a writer came. Opened without
 * blocking, it opens at once, and the caller's `isFile()` check turns it away. On a regular file
 * the flag changes nothing.
 */
export const READ_WITHOUT_BLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
