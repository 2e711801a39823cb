import v8 from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for the server process; imported first by main.ts so it
 * applies before any request is served (docs/decisions/ 2026-11-28 "Request data dies young").
 *
 * V8 allocates an object in the old generation straight away when objects from the same allocation
 * site have mostly survived young collections. Under load a list page's rows are alive for a few
 * milliseconds, long enough for the PostgreSQL driver's row arrays (`pg-protocol`'s parser) to be
 * judged long-lived and pretenured. A pretenured array dies with its request but is only collected by
 * the next full collection, and until then it keeps the young strings it points at (the page's
 * values) alive through every young collection, so they are copied and then promoted too: on a
 * PostgreSQL list-miss load about 60 KB a request, a tenth of the event loop in scavenges and a
 * full collection every second or two. Without pretenuring the same load promotes ~3 MB/s. The
 * server's long-lived data (caches, prepared statements) is small, so the one extra copy pretenuring
 * would save it costs nothing measurable.
 */
export function tuneHeapForRequests(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}

tuneHeapForRequests();
