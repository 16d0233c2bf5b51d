import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const t=Date.now();
const db = new PGlite({ extensions: { pg_trgm } });
await db.exec('create extension if not exists pg_trgm');
console.log((await db.query(`select to_tsvector('russian','Футболки с принтами игр') v, to_tsvector('english','running shirts') e, similarity('футболка','футбока') s`)).rows, Date.now()-t);
const d = await db.dumpDataDir('none'); console.log(d.size, Date.now()-t);
const t2=Date.now(); const db2 = new PGlite({ loadDataDir: d, extensions:{pg_trgm} }); await db2.waitReady; console.log('clone', Date.now()-t2);
