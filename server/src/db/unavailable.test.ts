import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['reset', withCode('ECONNRESET')],
    ['terminated by an administrator (pg_terminate_backend)', withCode('57P01')],
    ['the server is starting up', withCode('57P03')],
    ['a connection exception', withCode('08006')],
    ['too many connections', withCode('53300')],
    ['a cut connection (node-postgres, no code)', new Error('Connection terminated unexpectedly')],
    ['a dead client reused', new Error('Client has encountered a connection error and is not queryable')],
    ['the pool could not connect in time', new Error('timeout exceeded when trying to connect')],
    [
      'a statement whose table a migration changed (named statements)',
      withCode('0A000', 'cached plan must not change result type'),
    ],
    ['SQLite busy', withCode('SQLITE_BUSY', 'database is locked')],
    ['SQLite disk I/O', withCode('SQLITE_IOERR_WRITE', 'disk I/O error')],
    ['SQLite disk full', withCode('SQLITE_FULL')],
    ['the WAL flush failed', withCode('EIO')],
    ['a closed SQLite handle', new TypeError('The database connection is not open')],
    ['a destroyed Kysely driver', new Error('driver has already been destroyed')],
    ['an ended pg pool', new Error('Cannot use a pool after calling end on the pool')],
    ['wrapped in a cause', new Error('query failed', { cause: withCode('ECONNREFUSED') })],
    ['inside an AggregateError', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
  ])('%s: yes', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['invalid text for a type', withCode('22P02')],
    ['integer out of range', withCode('22003')],
    ['a serialization failure', withCode('40001')],
    ['another unsupported feature', withCode('0A000', 'LIMIT with ties is not supported')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
