/**
 * An incremental parser of a server-sent event stream that hands back each event's `data` (the
 * `data:` lines of one event joined by "\n"). Other fields, comments and empty events are skipped.
 * Lines may end in \n, \r\n or \r, and a chunk may end anywhere, even between \r and \n.
 *
 * ```ts
 * const parser = sseDataParser((data) => handle(data));
 * res.setEncoding('utf8');
 * res.on('data', (text: string) => parser.feed(text));
 * res.on('end', () => parser.end());
 * ```
 */
export function sseDataParser(onData: (data: string) => void): { feed(text: string): void; end(): void } {
  let rest = '';
  let data: string[] = [];
  let skipLeadingLf = false;

  const line = (l: string) => {
    if (l === '') {
      if (data.length > 0) {
        const joined = data.length === 1 ? data[0] : data.join('\n');
        data = [];
        onData(joined);
      }
      return;
    }
    if (l.startsWith('data:')) data.push(l.charCodeAt(5) === 32 ? l.slice(6) : l.slice(5));
    // "event:", "id:", "retry:" and ":comment" lines carry nothing a model stream needs.
  };

  return {
    feed(text) {
      if (text === '') return;
      let s = rest + text;
      rest = '';
      if (skipLeadingLf && s.charCodeAt(0) === 10) s = s.slice(1);
      skipLeadingLf = false;
      let start = 0;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(s.slice(start, i));
        if (c === 13) {
          if (i + 1 === s.length) skipLeadingLf = true;
          else if (s.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      rest = s.slice(start);
    },
    end() {
      if (rest !== '') line(rest);
      rest = '';
      line('');
    },
  };
}
