/**
 * What making one row object of a payment's 20 columns costs: filled column by column, as
 * db/local_sqlite.ts did, against its statement's compiled object literal, as it does now. Both
 * run after rows of other shapes, as a server's reads of many statements make them; best of 5.
 * `deno run bench/row_objects.ts`
 */
const PAYMENT_COLUMNS = [
  "public_id",
  "status",
  "amount",
  "currency",
  "quantity",
  "amount_refunded",
  "customer_email",
  "customer_name",
  "success_url",
  "cancel_url",
  "expires_at",
  "failure_code",
  "metadata",
  "created_at",
  "updated_at",
  "version",
  "invoice_company_name",
  "invoice_tax_id",
  "locale",
  "qr_id",
];
const ROWS = 1_000_000;

type RowOf = (values: unknown[]) => Record<string, unknown>;

function columnByColumn(columns: string[]): RowOf {
  return (values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
    return row;
  };
}

function objectLiteral(columns: string[]): RowOf {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  return new Function("values", `return { ${fields.join(", ")} };`) as RowOf;
}

/** Microseconds per row, best of 5 rounds; `make` has first made rows of other shapes. */
function perRow(make: (columns: string[]) => RowOf): number {
  // Other statements' shapes through the same code, as in a server.
  for (let shape = 1; shape < 12; shape++) {
    const columns = PAYMENT_COLUMNS.slice(0, shape).map((name) => `${name}_${shape}`);
    const rowOf = make(columns);
    for (let i = 0; i < 10_000; i++) rowOf(columns);
  }
  const rowOf = make(PAYMENT_COLUMNS);
  const values = PAYMENT_COLUMNS.map((name, i) => i % 3 === 0 ? i : name);
  // Rows are kept, as a read's are, so V8 cannot leave them unmade.
  const kept: Record<string, unknown>[] = new Array(1024);
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < ROWS; i++) kept[i & 1023] = rowOf(values);
    best = Math.min(best, (performance.now() - started) * 1000 / ROWS);
  }
  if (kept.some((row) => row.quantity !== "quantity")) throw new Error("a row lost a column");
  return best;
}

const filled = perRow(columnByColumn);
const literal = perRow(objectLiteral);
console.log(
  `a 20-column row: ${filled.toFixed(2)} µs filled column by column, ${
    literal.toFixed(2)
  } µs from its object literal`,
);
