import { parseAst, type Plugin } from 'vite';

const CONTRACT_SOURCE = /[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/;

type Node = { type: string; start: number; end: number; [key: string]: unknown };
const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/** The identifier a call chain starts from: `z` for `z.string().max(5)`, `ZTask` for `ZTask.extend()`. */
function chainRoot(node: Node): Node {
  let n = node;
  for (;;) {
    if (n.type === 'CallExpression') n = n.callee as Node;
    else if (n.type === 'MemberExpression') n = n.object as Node;
    else return n;
  }
}

/** `z.config(...)` runs for its effect (the app-wide error messages): never pure. */
const isConfigCall = (call: Node) => {
  const callee = call.callee as Node;
  return callee.type === 'MemberExpression' && (callee.property as Node).name === 'config';
};

/**
 * A schema chain: one that starts from zod's `z`, a schema or schema helper of the contract (`ZTask`,
 * `ZOptionalText`) or a local helper named `…Text` (`requiredText`).
 */
const isSchemaRoot = (root: Node) =>
  root.type === 'Identifier' && /^(z|Z\w*|[a-z]\w*Text)$/.test(root.name as string);

/**
 * Marks every schema chain of a contract source as pure (a `/* @__PURE__ *\/` before each call that
 * starts from a schema root). Read with the parser, so strings, regular expressions and comments are
 * never touched; the calls of a chain share its start, where one annotation covers the whole chain.
 */
export function annotatePure(code: string): string {
  const ast = parseAst(code, { lang: 'ts' }) as unknown as Node;
  const starts = new Set<number>();
  const visit = (node: Node) => {
    if (node.type === 'CallExpression' && isSchemaRoot(chainRoot(node)) && !isConfigCall(node))
      starts.add(node.start);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const v of value) isNode(v) && visit(v);
      else if (isNode(value)) visit(value);
    }
  };
  visit(ast);
  let out = code;
  for (const at of [...starts].sort((a, b) => b - a))
    out = `${out.slice(0, at)}/* @__PURE__ */ ${out.slice(at)}`;
  return out;
}

/**
 * The shared contract builds its zod schemas at module level; the web app mostly needs its constants
 * and helpers. A bundler must keep a call whose result is unused unless it knows the call is pure, so
 * every schema the web never reads was still built on each page load (tens of ms of a phone's main
 * thread on the dashboard). Annotating the contract's top-level constants as pure lets the unused ones
 * drop out, while statements run for their effect (`z.config(...)`, the app-wide error messages)
 * stay. Name-based `manualPureFunctions` was too coarse: it also matched `url.searchParams.set` or
 * `array.push` in other modules, and it dropped `z.config`.
 */
export function pureContract(): Plugin {
  return {
    name: 'cc-pure-contract',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!CONTRACT_SOURCE.test(id.split('?')[0])) return null;
      return { code: annotatePure(code), map: null };
    },
  };
}
