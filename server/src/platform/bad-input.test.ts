import { MATRIX_ENV } from '../../test/permission-matrix/index.ts';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../test/helpers.ts';
import { buildWorld, CALLERS, MATRIX, type Row, type World } from '../../test/permission-matrix/index.ts';
import type { Account, Target } from '../../test/permission-matrix/matrix.ts';

/**
 * Bad input on every operation of /api/openapi.json: each permission-matrix row gives a request that
 * succeeds (a real record, a valid body); here it is spoilt one part at a time (path ids of another
 * type or with a NUL, query values with a NUL, huge or out of range, each body field with a NUL,
 * huge, of the wrong type or an infinite number, every id field (`*_id`, body or query) given "",
 * invalid JSON, malformed multipart). Every answer must be a 4xx with a `detail`, and no table may
 * gain or lose a row. Lists of objects with an entry given twice must never answer 5xx.
 */

type Obj = Record<string, unknown>;
interface BadRequest {
  what: string;
  url: string;
  /** A raw payload (JSON text, form or multipart); headers say its type. */
  payload?: string | Buffer;
  headers?: Record<string, string>;
}

const JSON_TYPE = { 'content-type': 'application/json' };
/** Beyond every field's maximum, within the body limit (so the answer is about the field, not 413). */
const HUGE = 'x'.repeat(300_000);
const HUGE_QUERY = 'q'.repeat(5_000);
/** Path ids of another type, with a NUL, or not even valid percent-encoding. */
const BAD_IDS = ['%00', 'abc%00def', '123', '-1', '1.5', 'true', 'x'.repeat(199), '%E0%A4%A'];
/** Integers no integer column or LIMIT/OFFSET holds, and non-numbers. */
const BAD_INTEGERS = ['2147483648', '-2147483649', '1e30', '99999999999999999999', 'abc'];

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

/** The top-level properties a JSON body schema declares (through `anyOf`), with their schemas. */
function declaredFields(schema: JsonSchema | undefined): [string, JsonSchema][] {
  if (!schema) return [];
  return [...Object.entries(schema.properties ?? {}), ...(schema.anyOf ?? []).flatMap(declaredFields)];
}

/** The JSON types a schema allows (through `anyOf`); empty when it says nothing (anything goes). */
function jsonTypes(schema: JsonSchema): string[] {
  return [...[schema.type ?? []].flat(), ...(schema.anyOf ?? []).flatMap(jsonTypes)];
}

/** A value of a JSON type the schema does not allow, or null when it allows every type. */
function otherType(schema: JsonSchema): string | null {
  const allowed = jsonTypes(schema);
  if (!allowed.length) return null;
  const candidates: [string, string][] = [
    ['object', '{"nested":[true]}'],
    ['string', '"not-of-this-type"'],
    ['boolean', 'true'],
    ['array', '[[1]]'],
  ];
  const found = candidates.find(([type]) => !allowed.includes(type));
  return found ? found[1] : null;
}

interface OpenApiOperation {
  parameters?: OpenApiParam[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

interface OpenApiParam {
  in: string;
  name: string;
  schema?: { type?: string | string[] };
}

/** The request as JSON text with the value at `at` replaced by raw JSON text (so `1e999` stays a literal). */
function withRaw(body: unknown, at: (string | number)[], raw: string): string {
  const marker = '"__BAD_INPUT_MARKER__"';
  const copy = structuredClone(body) as Obj;
  let node: Obj = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Obj;
  node[at[at.length - 1]] = '__BAD_INPUT_MARKER__';
  return JSON.stringify(copy).replace(marker, raw);
}

/** A field that names another record by id (`organization_id`, `steps.0.agent_id`): never "". */
const isIdField = (at: (string | number)[]) => /_id$/.test(String(at[at.length - 1]));
/** The same for query parameters; `last_event_id` is a stream cursor, where blank means "from the start". */
const isIdQuery = (name: string) => /_id$/.test(name) && name !== 'last_event_id';

/**
 * The body with each list of objects given its first entry twice (a model priced twice): the answer
 * may be a success or a 4xx with a detail, never a 5xx (issue 46 row 16).
 */
function duplicatedEntries(url: string, body: unknown): BadRequest[] {
  return nodes(body)
    .filter(({ value }) => Array.isArray(value) && value.length > 0 && typeof value[0] === 'object')
    .map(({ at, value }) => {
      const list = value as unknown[];
      return {
        what: `${at.join('.')}: its first entry twice`,
        url,
        payload: withRaw(body, at, JSON.stringify([...list, list[0]])),
        headers: JSON_TYPE,
      };
    });
}

/** Every value inside a valid JSON body with its path (objects and arrays descended into). */
function nodes(v: unknown, at: (string | number)[] = []): { at: (string | number)[]; value: unknown }[] {
  if (!v || typeof v !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(v)
    ? v.map((x, i) => [i, x])
    : Object.entries(v);
  return entries.flatMap(([k, x]) => [{ at: [...at, k], value: x }, ...nodes(x, [...at, k])]);
}

/**
 * Spoilt versions of one JSON body: each field with a NUL, huge, of another type, an infinite number;
 * and each field the schema declares but the valid body leaves out, given such a value.
 */
function badBodies(url: string, body: unknown, declared: [string, JsonSchema][]): BadRequest[] {
  const out: BadRequest[] = [
    { what: 'invalid JSON', url, payload: '{"broken": ', headers: JSON_TYPE },
    {
      what: 'a JSON body of another type',
      url,
      payload: Array.isArray(body) ? '{"a":1}' : '[1,2]',
      headers: JSON_TYPE,
    },
  ];
  for (const { at, value } of nodes(body)) {
    const name = at.join('.');
    const put = (what: string, raw: string) =>
      out.push({ what: `${name}: ${what}`, url, payload: withRaw(body, at, raw), headers: JSON_TYPE });
    // An id naming another record is never "" (issue 46 row 16): a 422, not a foreign-key 500.
    if (isIdField(at)) put('an empty id', '""');
    if (typeof value === 'string') {
      put('a NUL', JSON.stringify(`${value}\u0000x`));
      put('a huge string', JSON.stringify(HUGE));
    }
    if (typeof value === 'number') put('an infinite number', '1e999');
    if (value && typeof value === 'object' && !Array.isArray(value))
      put('a huge object', JSON.stringify({ huge: HUGE }));
    put(
      'another type',
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? '"not-an-object"'
        : '{"nested":[true]}',
    );
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [field, schema] of declared.filter(([f]) => !(f in body))) {
      const values: [string, string | null][] = [
        ['a NUL', '"a\\u0000b"'],
        ['a huge string', JSON.stringify(HUGE)],
        // A free-form object (a tool's input schema, custom prompts) is stored too: bounded as a whole.
        ['a huge object', jsonTypes(schema).includes('object') ? JSON.stringify({ huge: HUGE }) : null],
        ['another type', otherType(schema)],
        ['an infinite number', '1e999'],
        ['an empty id', isIdField([field]) ? '""' : null],
      ];
      for (const [what, raw] of values) {
        if (raw === null) continue;
        out.push({
          what: `${field} (left out of the valid body): ${what}`,
          url,
          payload: withRaw(body, [field], raw),
          headers: JSON_TYPE,
        });
      }
    }
  }
  return out;
}

/** A form body (signing in) with each field given a NUL or made huge. */
function badForms(url: string, payload: string): BadRequest[] {
  const form = Object.fromEntries(new URLSearchParams(payload));
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  return Object.keys(form).flatMap((k) => [
    {
      what: `${k}: a NUL`,
      url,
      headers,
      payload: new URLSearchParams({ ...form, [k]: `${form[k]}\u0000` }).toString(),
    },
    {
      what: `${k}: a huge string`,
      url,
      headers,
      payload: new URLSearchParams({ ...form, [k]: HUGE }).toString(),
    },
  ]);
}

/** Multipart uploads a parser must refuse: no boundary, cut short, another boundary, nothing at all. */
function badMultipart(url: string): BadRequest[] {
  const b = 'bad-input-boundary';
  const head = `--${b}\r\nContent-Disposition: form-data; name="files"; filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  const mp = (boundary?: string) => ({
    'content-type': boundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data',
  });
  return [
    { what: 'multipart without a boundary', url, headers: mp(), payload: `${head}hello\r\n--${b}--\r\n` },
    { what: 'multipart cut short', url, headers: mp(b), payload: `${head}hello, this upload never ends` },
    {
      what: 'multipart cut inside the headers',
      url,
      headers: mp(b),
      payload: `--${b}\r\nContent-Disposition: form-da`,
    },
    {
      what: 'multipart with another boundary',
      url,
      headers: mp('other'),
      payload: `${head}hello\r\n--${b}--\r\n`,
    },
    {
      // The first file is whole (staged to .tmp) when the second is cut: neither may stay.
      what: 'multipart whose second file is cut short',
      url,
      headers: mp(b),
      payload: `${head}a whole first file\r\n${head.replace('cut.txt', 'second.txt')}cut mid-wa`,
    },
    { what: 'multipart with no parts', url, headers: mp(b), payload: `--${b}--\r\n` },
    { what: 'an empty multipart body', url, headers: mp(b), payload: '' },
    { what: 'JSON instead of multipart', url, headers: JSON_TYPE, payload: '{"files":[]}' },
  ];
}

/** The target URL with each path parameter replaced by ids of another type. */
function badPaths(op: string, url: string): BadRequest[] {
  const [pathPart, query] = url.split('?');
  const template = op
    .slice(op.indexOf(' ') + 1)
    .replace(/\/$/, '')
    .split('/');
  const segments = pathPart.replace(/\/$/, '').split('/');
  const out: BadRequest[] = [];
  template.forEach((seg, i) => {
    if (!seg.startsWith('{')) return;
    for (const id of BAD_IDS) {
      const spoilt = [...segments];
      spoilt[i] = id;
      out.push({ what: `${seg} = ${id.slice(0, 20)}`, url: spoilt.join('/') + (query ? `?${query}` : '') });
    }
  });
  return out;
}

/** The target URL with each query parameter the operation declares made bad. */
function badQueries(url: string, params: OpenApiParam[]): BadRequest[] {
  const sep = url.includes('?') ? '&' : '?';
  // A parameter no schema names is still parsed: a NUL there is refused like anywhere else.
  const out: BadRequest[] = [
    { what: 'an undeclared parameter with a NUL', url: `${url}${sep}unexpected=a%00b` },
  ];
  for (const p of params) {
    if (p.in !== 'query' || p.name === 'token') continue; // a bad token is the auth gate's business
    const types = [p.schema?.type].flat();
    const values = [
      'a%00b',
      HUGE_QUERY,
      ...(isIdQuery(p.name) ? [''] : []),
      ...(types.includes('integer') || types.includes('number') ? BAD_INTEGERS : []),
    ];
    for (const v of values) {
      const u = new URL(url, 'http://x');
      u.searchParams.delete(p.name);
      const sep = u.search ? '&' : '?';
      out.push({
        what: `?${p.name}=${v.slice(0, 20) || '(empty)'}`,
        url: `${u.pathname}${u.search}${sep}${p.name}=${v}`,
      });
    }
  }
  return out;
}

/** Whether an answer's body is JSON with a `detail` the screen can show. */
function hasDetailOf(body: string): boolean {
  try {
    return (JSON.parse(body) as Obj).detail !== undefined;
  } catch {
    return false;
  }
}

/** Rows in every table, in one query. */
async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = (await t.ctx.db.introspection.getTables())
    .map((x) => x.name)
    .filter((n) => !n.startsWith('kysely_'));
  const parts = tables.map((n) => sql`(select count(*) from ${sql.table(n)}) as ${sql.ref(n)}`);
  const res = await sql<Record<string, number | string>>`select ${sql.join(parts)}`.execute(t.ctx.db);
  return Object.fromEntries(Object.entries(res.rows[0]).map(([k, v]) => [k, Number(v)]));
}

/** Regular files under a directory (the uploads and their `.tmp` parts). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

apiSuite('bad input: a 4xx on every operation of the OpenAPI document, and nothing half-written', () => {
  let t: TestApp;
  let w: World;
  let params: Map<string, OpenApiParam[]>;
  let bodyFields: Map<string, [string, JsonSchema][]>;
  let ops: string[];
  beforeAll(async () => {
    // No run worker: runs a fixture starts would go on writing events while the rows are counted.
    t = await createTestApp({ RUN_WORKER_CONCURRENCY: '0', ...MATRIX_ENV });
    w = await buildWorld(t);
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, OpenApiOperation>>;
    };
    params = new Map();
    bodyFields = new Map();
    for (const [p, byMethod] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(byMethod)) {
        const key = `${m.toUpperCase()} ${p.replace(/\/$/, '')}`;
        params.set(key, op.parameters ?? []);
        bodyFields.set(key, declaredFields(op.requestBody?.content['application/json']?.schema));
      }
    }
    ops = [...params.keys()];
  });
  afterAll(() => t.close());

  const rows = Object.values(MATRIX).flat();

  it('covers every operation of the document (each matrix row gives a valid request to spoil)', () => {
    expect(ops.length).toBeGreaterThan(100);
    const covered = new Set(rows.map((r) => r.op.replace(/\/$/, '')));
    expect(ops.filter((op) => !covered.has(op))).toEqual([]);
  });

  /** A caller the row lets past its access checks (2xx, or a 4xx about the record's state such as 409). */
  const allowedCaller = (row: Row) =>
    CALLERS.find((c): c is Account => c !== 'anonymous' && ![401, 403, 404].includes(row.expect[c]));

  async function send(row: Row, bad: BadRequest, token: string): Promise<{ status: number; body: string }> {
    const method = row.op.slice(0, row.op.indexOf(' ')) as InjectOptions['method'];
    const headers = { ...bad.headers, authorization: `Bearer ${token}` };
    if (row.stream) {
      // An event stream that opened (a 2xx) would never end: read only the status over real HTTP.
      const stop = new AbortController();
      const res = await fetch(`${await w.baseUrl()}${bad.url}`, {
        method: String(method),
        headers,
        signal: stop.signal,
      });
      const body = res.status < 300 ? '' : await res.text();
      stop.abort();
      return { status: res.status, body };
    }
    const res = await t.app.inject({
      method,
      url: bad.url,
      headers,
      ...(bad.payload !== undefined ? { payload: bad.payload } : {}),
    });
    return { status: res.statusCode, body: res.body };
  }

  for (const row of rows) {
    it(`${row.op}: every bad request gets a 4xx with a detail and writes nothing`, async () => {
      const caller = allowedCaller(row);
      if (!caller) throw new Error(`${row.op}: no caller may call it`);
      const target: Target = await row.target(w, caller);
      const token = target.freshSession ? await t.login(w.users[caller].email) : w.users[caller].token;
      const op = row.op.replace(/\/$/, '');
      const isMultipart = target.headers?.['content-type']?.startsWith('multipart/');
      const isForm = target.headers?.['content-type']?.startsWith('application/x-www-form-urlencoded');
      const body = target.payload ?? (target.body === undefined ? undefined : JSON.stringify(target.body));
      const bodyHeaders = target.headers ?? (target.body === undefined ? undefined : JSON_TYPE);
      const keepBody = (b: BadRequest): BadRequest => ({ ...b, payload: body, headers: bodyHeaders });
      const bad: BadRequest[] = [
        ...badPaths(op, target.url).map(keepBody),
        ...badQueries(target.url, params.get(op) ?? []).map(keepBody),
        ...(isMultipart ? badMultipart(target.url) : []),
        ...(isForm && typeof target.payload === 'string' ? badForms(target.url, target.payload) : []),
        ...(target.body !== undefined ? badBodies(target.url, target.body, bodyFields.get(op) ?? []) : []),
      ];
      if (row.stream) {
        for (const cursor of ['99999999999', 'abc', '-1']) {
          bad.push({
            what: `Last-Event-ID: ${cursor}`,
            url: target.url,
            headers: { 'last-event-id': cursor },
          });
        }
      }
      if (body === undefined && !row.op.startsWith('GET ')) {
        bad.push({ what: 'invalid JSON', url: target.url, payload: '{"broken": ', headers: JSON_TYPE });
      }
      expect(bad.length, 'the operation has something to spoil').toBeGreaterThan(0);

      const before = await rowCounts(t);
      const stored = filesUnder(t.config.filesDir);
      const wrong: string[] = [];
      for (const b of bad) {
        const res = await send(row, b, token);
        const hasDetail = res.status >= 400 && hasDetailOf(res.body);
        if (res.status < 400 || res.status >= 500 || !hasDetail)
          wrong.push(`${b.what} → ${res.status} ${res.body.slice(0, 160)}`);
      }
      expect(wrong, `${row.op} answered bad input with`).toEqual([]);
      expect(await rowCounts(t), 'no table gained or lost a row').toEqual(before);
      expect(filesUnder(t.config.filesDir), 'no file added or left in FILES_DIR or .tmp').toEqual(stored);

      // Duplicated list entries may be valid (and write): checked after the row counts, for no 5xx.
      const duplicates = target.body !== undefined ? duplicatedEntries(target.url, target.body) : [];
      const failed: string[] = [];
      for (const b of duplicates) {
        const res = await send(row, b, token);
        if (res.status >= 500 || (res.status >= 400 && !hasDetailOf(res.body)))
          failed.push(`${b.what} → ${res.status} ${res.body.slice(0, 160)}`);
      }
      expect(failed, `${row.op} answered duplicated entries with`).toEqual([]);
    });
  }
});
