import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
const db = new Database('/tmp/bi-prof/seeded.db', { readonly: true });
for (const f of process.argv.slice(2)) {
  const [a] = JSON.parse(readFileSync(f, 'utf8'));
  const { sql, args } = a;
  console.log('\n=====', f, '\n', sql.slice(0, 3000));
  console.log(args[0].length > 5 ? '' : JSON.stringify(args));
  for (const r of db.prepare('explain query plan ' + sql).all(...args[0])) console.log(' ', r.id, r.parent, r.detail);
  const st = db.prepare(sql);
  st.all(...args[0]);
  const t = performance.now(); for (let i = 0; i < 200; i++) st.all(...args[0]); console.log('ms each', ((performance.now() - t) / 200).toFixed(3), 'rows', st.all(...args[0]).length);
}
