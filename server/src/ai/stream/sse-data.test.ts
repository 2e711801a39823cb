import { describe, expect, it } from 'vitest';
import { sseDataParser } from './sse-data.ts';

/** Feeds the chunks in order, then ends the stream; returns every event's data. */
function parse(chunks: string[], end = true): string[] {
  const events: string[] = [];
  const parser = sseDataParser((d) => events.push(d));
  for (const c of chunks) parser.feed(c);
  if (end) parser.end();
  return events;
}

/**
 * A stream with every shape the parser handles: \n, \r\n and lone \r line ends, multi-line data,
 * comments, other fields, empty events, `data:` with and without its space, and a last event that
 * has no blank line after it.
 */
const STREAM =
  ': keep-alive comment\n\n' +
  'event: message\nid: 1\ndata: {"a":1}\n\n' +
  'data: first line\r\ndata: second line\r\n\r\n' +
  'retry: 1000\rdata:no-space\r\r' +
  'id: 2\n\n' +
  'data: x\r\ndata:\r\ndata: y\n\n' +
  '\n\n\r\n' +
  'data: [DONE]';
const EVENTS = ['{"a":1}', 'first line\nsecond line', 'no-space', 'x\n\ny', '[DONE]'];

describe('sseDataParser', () => {
  it('gives each event its data in order', () => {
    expect(parse([STREAM])).toEqual(EVENTS);
  });

  it('gives the same events however the stream is split into chunks', () => {
    for (let i = 0; i <= STREAM.length; i++) {
      expect(parse([STREAM.slice(0, i), STREAM.slice(i)]), `split at ${i}`).toEqual(EVENTS);
    }
    // Three chunks, empty ones included (an empty feed() between a \r and its \n keeps the \r pending).
    for (let i = 0; i <= STREAM.length; i++) {
      for (let j = i; j <= STREAM.length; j++) {
        const chunks = [STREAM.slice(0, i), STREAM.slice(i, j), STREAM.slice(j)];
        expect(parse(chunks), `split at ${i} and ${j}`).toEqual(EVENTS);
      }
    }
    expect(parse([...STREAM])).toEqual(EVENTS);
  });

  it('hands an event over as soon as its blank line arrives, not at the end', () => {
    const events: string[] = [];
    const parser = sseDataParser((d) => events.push(d));
    parser.feed('data: one\n');
    expect(events).toEqual([]);
    parser.feed('\ndata: tw');
    expect(events).toEqual(['one']);
    parser.feed('o\n\n');
    expect(events).toEqual(['one', 'two']);
  });

  it('reads \\r\\n as one line end and a lone \\r as a line end', () => {
    // Were \r\n two line ends, the blank line between them would split the event in two.
    expect(parse(['data: a\r\ndata: b\r\n\r\n'])).toEqual(['a\nb']);
    expect(parse(['data: a\rdata: b\r\rdata: c\r\r'])).toEqual(['a\nb', 'c']);
    expect(parse(['data: a\r\n\r\ndata: b\r\rdata: c\n\n'])).toEqual(['a', 'b', 'c']);
  });

  it('reads \\r\\n split between two chunks as one line end', () => {
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n'], false)).toEqual(['a\nb']);
    // A lone \r at a chunk's end followed by a chunk that does not start with \n is a line end too.
    expect(parse(['data: a\r', '\r', 'data: b\r', 'data: c\n\n'], false)).toEqual(['a', 'b\nc']);
  });

  it('joins the data lines of one event with \\n', () => {
    expect(parse(['data: {"x":\ndata: 1}\ndata: \n\n'])).toEqual(['{"x":\n1}\n']);
  });

  it('skips comments, other fields and events without data', () => {
    expect(
      parse([': comment\nevent: ping\nid: 7\nretry: 50\n\n:another\n\nevent: done\ndata: kept\n\n']),
    ).toEqual(['kept']);
    expect(parse(['\n\n\n\r\n\r\r'])).toEqual([]);
    // A field merely starting like data is not data.
    expect(parse(['datum: no\ndata2: no\n\n'])).toEqual([]);
  });

  it('takes data with or without one leading space, keeping any further spaces', () => {
    expect(parse(['data:x\n\ndata: y\n\ndata:  z \n\ndata:\n\n'])).toEqual(['x', 'y', ' z ', '']);
  });

  it('end() hands over a last event that has no blank line after it', () => {
    expect(parse(['data: last'], false)).toEqual([]);
    expect(parse(['data: last'])).toEqual(['last']);
    expect(parse(['data: a\ndata: b\n'], false)).toEqual([]);
    expect(parse(['data: a\ndata: b\n'])).toEqual(['a\nb']);
    expect(parse(['data: a\r'])).toEqual(['a']);
    // Nothing pending: end() adds nothing.
    expect(parse(['data: a\n\n'])).toEqual(['a']);
    expect(parse([])).toEqual([]);
  });
});
