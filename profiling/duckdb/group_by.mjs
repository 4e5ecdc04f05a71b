// profiling/bench.sh's DuckDB side: runs one SQL query (FILE in it replaced
// by the corpus path) and prints its rows as csv on stdout, the time the
// query took on stderr. Not part of logagg.
import { DuckDBInstance } from '@duckdb/node-api';

const [file, sql] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const start = process.hrtime.bigint();
const rows = (await con.runAndReadAll(sql.replaceAll('FILE', file))).getRows();
console.error(`duckdb: ${rows.length} rows in ${Number(process.hrtime.bigint() - start) / 1e9} s`);
process.stdout.write(rows.map((r) => r.map(String).join(',') + '\n').join(''));
