import { Conflict } from '../errors.ts';

/**
 * The answer to a save made from an older version than the record has (ADR 0022): someone else
 * saved it since the editor loaded it. Saves bump the version in the same conditional update that
 * checks it (`… where id = $id and version = $version`), so two saves from one version cannot both
 * pass.
 */
export const recordChanged = () =>
  new Conflict('record-changed', { version: ['record-changed'] }, 'record-changed');
