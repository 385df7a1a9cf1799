/**
 * The `ContentHasher` port: lowercase hex SHA-1 of a string's UTF-8 bytes (node:crypto).
 */
import { createHash } from 'node:crypto';
import type { ContentHasher } from '../../engine/flush';

export const sha1Hex: ContentHasher = (text) => createHash('sha1').update(text, 'utf8').digest('hex');
