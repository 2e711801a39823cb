/**
 * Handlers by kind that modules add to a module that must not import them: inbox sources, undo
 * handlers, run steps (docs/architecture.md, "Registrations"). The owner makes one registry per app and
 * hands it to each contributor's `register…` function, which `app.ts` passes it; the owner imports none
 * of its contributors, so the contributions cannot form an import loop.
 */
export class KindRegistry<Handler, Kind extends string = string> {
  private readonly byKind = new Map<Kind, Handler>();

  /** `what` names the handlers in the error of a kind registered twice (e.g. "inbox source"). */
  constructor(private readonly what: string) {}

  /** One handler per kind: a second one is a wiring mistake, refused at start rather than shadowed. */
  register(kind: Kind, handler: Handler): void {
    if (this.byKind.has(kind)) throw new Error(`The ${this.what} "${kind}" is registered twice`);
    this.byKind.set(kind, handler);
  }

  get(kind: string): Handler | undefined {
    return this.byKind.get(kind as Kind);
  }
}

/** A module's contribution to another's registry: it registers the kinds it owns. */
export type Contribution<Handler, Kind extends string = string> = (
  registry: KindRegistry<Handler, Kind>,
) => void;

/** The owner's registry for one app, filled by the contributions `app.ts` lists. */
export function registryOf<Handler, Kind extends string = string>(
  what: string,
  contributions: readonly Contribution<Handler, Kind>[],
): KindRegistry<Handler, Kind> {
  const registry = new KindRegistry<Handler, Kind>(what);
  for (const contribute of contributions) contribute(registry);
  return registry;
}
